import { useEffect, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import {
  apiErrorMessage,
  failureText,
  METRICS_REFRESH_MS,
  useGetBreakersQuery,
  useGetBreakerTestSessionsQuery,
  useGetDrillsQuery,
  useGetLatestMetricsQuery,
  useStartDrillMutation,
  useStartTestSessionMutation,
  useStopDrillMutation,
} from '@cbh/api-client';
import { describeFault, drillPath, type AuthUser, type BreakerConfigView, type DrillVerdict, type DrillView } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { Badge, Button, ButtonLink, Card, Columns, formatClockTime, Muted, Problem, SIDE_BY_SIDE, theme } from '@cbh/ui';
import { GuidedDrillBreaker } from './GuidedDrillBreaker';
import {
  DEMO_INVENTORY,
  drillBody,
  findInventoryBreaker,
  freshestDrill,
  guidedDrillAccess,
  INVENTORY_BREAKER,
  lessons,
  openedAfter,
  openingText,
  recoveryText,
  runningGuidedDrill,
  runningTraffic,
  trafficBody,
  type Lesson,
} from './guided-drill';

const Steps = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 12px;
  min-width: 0;
`;
const Step = styled(Card)`
  display: grid;
  gap: 8px;
  min-width: 0;
  &[aria-current='step'] {
    border-color: ${theme.colors.primary};
  }
  h3 {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px;
    margin: 0;
    font-size: 17px;
  }
  p {
    overflow-wrap: anywhere;
  }
`;
const Stack = styled.div`
  display: grid;
  gap: 12px;
  min-width: 0;
`;
const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px;
`;
// the live breaker stays in sight beside the steps while they are scrolled through; stacked on a phone
const Aside = styled.div`
  min-width: 0;
  ${SIDE_BY_SIDE} {
    position: sticky;
    top: 16px;
  }
`;

const VERDICT: Record<DrillVerdict, [string, string]> = {
  met: ['Met', theme.colors.success],
  missed: ['Missed', theme.colors.destructive],
  pending: ['Pending', theme.colors.yellow],
};

type StepNumber = 1 | 2 | 3 | 4;

function StepCard({
  n,
  lesson,
  done,
  current,
  children,
}: {
  n: StepNumber;
  lesson: Lesson;
  done?: boolean;
  current?: boolean;
  children?: ReactNode;
}) {
  return (
    <Step as="li" aria-labelledby={`guided-step-${n}`} aria-current={current ? 'step' : undefined} data-testid={`guided-step-${n}`}>
      <h3 id={`guided-step-${n}`}>
        {n}. {lesson.title}
        {done ? <Badge $color={theme.colors.success}>Done</Badge> : null}
      </h3>
      <Muted>{lesson.text}</Muted>
      {children}
    </Step>
  );
}

/** What someone who may not run it reads: the four lessons, and who may run them. */
function LessonsOnly({ breaker, note }: { breaker: BreakerConfigView | undefined; note: ReactNode }) {
  const steps = lessons(breaker ?? DEMO_INVENTORY);
  return (
    <Stack>
      <Card aria-label="Who may run it">{note}</Card>
      <Steps aria-label="Guided drill steps">
        {steps.map((lesson, index) => (
          <StepCard key={lesson.title} n={(index + 1) as StepNumber} lesson={lesson} />
        ))}
      </Steps>
    </Stack>
  );
}

const RUNS_IT =
  'Starting the drill needs the circuit_breaker_admin permission and a sign-in within the last 10 minutes (it slows real calls); sending its traffic needs circuit_breaker_operate.';

interface Refusal {
  step: StepNumber;
  text: string;
  /** A refused start over a sign-in older than the API allows: signing in again lets it through. */
  signInAgain: boolean;
}

function RefusalNote({ refusal }: { refusal: Refusal }) {
  return (
    <>
      <Problem role="alert">{refusal.text}</Problem>
      {refusal.signInAgain ? (
        <div>
          <ButtonLink href="/api/login">Sign in again</ButtonLink>
        </div>
      ) : null}
    </>
  );
}

/**
 * The four steps beside the live breaker, with their buttons for whoever may press them: traffic with
 * circuit_breaker_operate, the drill with circuit_breaker_admin. A viewer follows the live breaker and reads the steps.
 */
function LiveGuidedDrill({ breaker, user }: { breaker: BreakerConfigView; user: AuthUser }) {
  const { canOperate, canAdminister } = guidedDrillAccess(user);
  const { data: metrics } = useGetLatestMetricsQuery(undefined, { pollingInterval: METRICS_REFRESH_MS });
  const { data: sessions } = useGetBreakerTestSessionsQuery(breaker.id);
  const { data: drills } = useGetDrillsQuery(undefined, { skip: !canAdminister });
  const [sendTraffic, trafficCall] = useStartTestSessionMutation();
  const [startDrill, startCall] = useStartDrillMutation();
  const [stopDrill, stopCall] = useStopDrillMutation();
  const [drillId, setDrillId] = useState<number>();
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  const resumed = runningGuidedDrill(drills, breaker.id);
  // a guided drill started before the page was (re)opened is followed as one started here, to its recovery
  useEffect(() => {
    if (drillId === undefined && resumed) setDrillId(resumed.id);
  }, [drillId, resumed]);

  const stats = metrics?.stats.find((entry) => entry.configId === breaker.id);
  const traffic = runningTraffic([...(sessions ?? []), ...(trafficCall.data ? [trafficCall.data] : [])], Date.now());
  const listed = drills?.find((drill) => drill.id === drillId);
  const drill: DrillView | undefined = freshestDrill([listed, stopCall.data, startCall.data], drillId);
  const running = drill?.state === 'running';
  const opened = drill ? openedAfter(drill, stats) !== null : false;
  const recovered = !!drill && !running && stats?.state === 'CLOSED';
  // the steps are marked done, and the next one current, for whoever runs them: a viewer cannot read the drill
  const done = canAdminister ? [!!traffic || !!drill, !!drill, opened, recovered] : [false, false, false, false];
  const current = canAdminister ? done.indexOf(false) : -1;
  const steps = lessons(breaker);
  const expectation = drill?.expectations.find((each) => each.state === 'OPEN');

  const attempt = async (step: StepNumber, what: string, call: () => Promise<unknown>) => {
    setRefusal(null);
    try {
      await call();
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      // only a drill's start asks for a recent sign-in, and the API's own words for it say what to do; anything else
      // is said as what did not happen, then why
      setRefusal(
        status === 403 && step === 2
          ? { step, text: apiErrorMessage(error) ?? failureText(what, error), signInAgain: true }
          : { step, text: failureText(what, error), signInAgain: false },
      );
    }
  };
  const refusalAt = (step: StepNumber) => (refusal?.step === step ? <RefusalNote refusal={refusal} /> : null);

  return (
    <Columns $columns="minmax(0, 3fr) minmax(0, 2fr)">
      <Stack>
        <Steps aria-label="Guided drill steps">
          <StepCard n={1} lesson={steps[0]} done={done[0]} current={current === 0}>
            {traffic ? (
              <p style={{ margin: 0 }}>
                Traffic running: {traffic.requestRate} calls a second until {formatClockTime(traffic.endsAt)}.
              </p>
            ) : null}
            {canOperate ? (
              <Actions>
                <Button
                  onClick={() => attempt(1, 'The traffic did not start', () => sendTraffic(trafficBody(breaker.id)).unwrap())}
                  disabled={!!traffic || trafficCall.isLoading}
                >
                  {trafficCall.isLoading ? 'Sending…' : 'Send traffic'}
                </Button>
              </Actions>
            ) : (
              <Muted style={{ fontSize: 13 }}>Sending traffic needs the circuit_breaker_operate permission.</Muted>
            )}
            {refusalAt(1)}
          </StepCard>

          <StepCard n={2} lesson={steps[1]} done={done[1]} current={current === 1}>
            {drill && running ? (
              <p style={{ margin: 0 }}>
                Drill running: {describeFault(drill.steps[0]!.fault)} until {formatClockTime(drill.endsAt)}.{' '}
                <Link to={drillPath(drill.id)}>Follow it on its page</Link>
              </p>
            ) : null}
            {canAdminister ? (
              <Actions>
                <Button
                  onClick={() =>
                    attempt(2, 'The drill did not start', async () => setDrillId((await startDrill(drillBody(breaker.id)).unwrap()).id))
                  }
                  disabled={running || !traffic || startCall.isLoading}
                >
                  {startCall.isLoading ? 'Starting…' : 'Inject latency'}
                </Button>
                {!traffic && !running ? <Muted style={{ fontSize: 13 }}>Send traffic first: without calls nothing is judged.</Muted> : null}
              </Actions>
            ) : (
              <Muted style={{ fontSize: 13 }}>
                Starting the drill needs the circuit_breaker_admin permission and a sign-in within the last 10 minutes.
              </Muted>
            )}
            {refusalAt(2)}
          </StepCard>

          <StepCard n={3} lesson={steps[2]} done={done[2]} current={current === 2}>
            {/* only a holder of circuit_breaker_admin reads the drills; anyone else follows the live breaker beside */}
            {canAdminister ? (
              <p style={{ margin: 0 }} data-testid="guided-drill-opening">
                {openingText(drill, stats)}
              </p>
            ) : null}
            {expectation ? (
              <p style={{ margin: 0 }} data-testid="guided-drill-expectation">
                Expected: OPEN within {expectation.withinSeconds} s of the start{' '}
                <Badge $color={VERDICT[expectation.result][1]}>{VERDICT[expectation.result][0]}</Badge>
              </p>
            ) : null}
          </StepCard>

          <StepCard n={4} lesson={steps[3]} done={done[3]} current={current === 3}>
            {drill && !running ? (
              <p style={{ margin: 0 }} data-testid="guided-drill-recovery">
                {recoveryText(drill, stats, breaker)}
              </p>
            ) : null}
            {canAdminister && drill && running ? (
              <Actions>
                <Button
                  $variant="outline"
                  onClick={() => attempt(4, 'The drill did not stop', () => stopDrill(drill.id).unwrap())}
                  disabled={stopCall.isLoading}
                >
                  {stopCall.isLoading ? 'Stopping…' : 'Stop the drill'}
                </Button>
              </Actions>
            ) : null}
            {refusalAt(4)}
          </StepCard>
        </Steps>
        {canAdminister ? null : (
          <Card aria-label="Who may run it">
            <Muted>{RUNS_IT} You can watch the live breaker while someone who holds them runs it.</Muted>
          </Card>
        )}
      </Stack>
      <Aside>
        <GuidedDrillBreaker breaker={breaker} stats={stats} />
      </Aside>
    </Columns>
  );
}

/**
 * The guided drill's steps: run beside the live Inventory Service breaker by whoever may (see LiveGuidedDrill), read
 * as lessons by everyone else, with which permission runs them.
 */
export function GuidedDrill({ user }: { user: AuthUser | null }) {
  const { canView } = guidedDrillAccess(user);
  const { data: breakers, isLoading } = useGetBreakersQuery(undefined, { skip: !canView });
  const breaker = findInventoryBreaker(breakers);

  if (!user)
    return (
      <LessonsOnly
        breaker={undefined}
        note={
          <>
            <Muted style={{ marginBottom: 12 }}>
              Sign in to run these steps beside the live {INVENTORY_BREAKER} breaker. {RUNS_IT}
            </Muted>
            <ButtonLink href="/api/login">Sign in</ButtonLink>
          </>
        }
      />
    );
  if (!canView)
    return <LessonsOnly breaker={undefined} note={<Muted>Watching the live breaker needs circuit_breaker_view. {RUNS_IT}</Muted>} />;
  if (breaker) return <LiveGuidedDrill breaker={breaker} user={user} />;
  if (isLoading) return <Muted role="status">Loading the breakers…</Muted>;
  return (
    <LessonsOnly
      breaker={undefined}
      note={
        <Muted>
          This hub has no {INVENTORY_BREAKER} breaker of its own: the guided drill runs on the demo services, which the API adds when it
          starts with SEED_DEMO.
        </Muted>
      }
    />
  );
}
