import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useGetRunningTestSessionsQuery, useStartTestSessionMutation, useStopTestSessionMutation } from '@cbh/api-client';
import { LOAD_TEST_LIMITS } from '@cbh/contracts';
import { Badge, Button, Fieldset, Muted, ProgressBar, Slider, theme, toast } from '@cbh/ui';

const Controls = styled.div`
  display: grid;
  gap: 16px;
`;
const Row = styled.div`
  display: flex;
  align-items: center;
  gap: 12px;
  flex-wrap: wrap;
`;

/** While a session runs: how often to look whether it ended elsewhere (stopped on another screen or replica). */
const SESSION_POLL_MS = 5000;
const L = LOAD_TEST_LIMITS;

export interface LoadTestPanelProps {
  /** The breaker the load goes through; without one, Start is disabled. */
  configId: number | undefined;
  /** circuit_breaker_operate: without it the controls are shown but disabled. */
  canOperate: boolean;
}

/**
 * The load-test controls — Ready, Running after Start, Ready after 'Pause Test' stops it; Start is disabled
 * while a session runs, 'Pause Test' without one.
 */
export function LoadTestPanel({ configId, canOperate }: LoadTestPanelProps) {
  const [failureRate, setFailureRate] = useState<number>(L.failureRate.default);
  const [requestRate, setRequestRate] = useState<number>(L.requestRate.default);
  const [duration, setDuration] = useState<number>(L.durationMinutes.default);
  const [now, setNow] = useState(() => Date.now());
  const { data: sessions, refetch } = useGetRunningTestSessionsQuery(undefined, { skip: configId === undefined });
  const [start, { isLoading: starting }] = useStartTestSessionMutation();
  const [stop, { isLoading: stopping }] = useStopTestSessionMutation();
  const session = sessions?.find((entry) => entry.configId === configId && entry.status === 'running');
  // Until the running sessions are known, one started elsewhere may be running: Start waits rather than meet a 409.
  const sessionsKnown = sessions !== undefined;

  // A second subscription that polls only while a session runs (RTK Query polls at the shortest interval asked).
  useGetRunningTestSessionsQuery(undefined, { skip: !session, pollingInterval: SESSION_POLL_MS });
  useEffect(() => {
    if (!session) return;
    const ends = Date.parse(session.endsAt);
    const tick = setInterval(() => {
      setNow(Date.now());
      if (Date.now() > ends) refetch();
    }, 1000);
    return () => clearInterval(tick);
  }, [session, refetch]);

  const startTest = async () => {
    if (configId === undefined) return;
    try {
      await start({ configId, failureRate, requestRate, duration }).unwrap();
      setNow(Date.now());
      toast({ title: 'Test Started', description: 'Load test session has been initiated.' });
    } catch {
      toast({ title: 'Error', description: 'Failed to start test session.', variant: 'destructive' });
    }
  };

  const stopTest = async () => {
    if (!session) return;
    try {
      await stop(session.id).unwrap();
      toast({ title: 'Test Stopped', description: 'Load test session has been stopped.' });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to stop test session.', variant: 'destructive' });
    }
  };

  const startedAt = session ? Date.parse(session.startedAt) : 0;
  const total = session ? Date.parse(session.endsAt) - startedAt : 1;
  const elapsed = session ? Math.max(0, now - startedAt) : 0;
  const settingsLocked = !canOperate || Boolean(session);

  return (
    <Controls aria-label="Load test">
      <Fieldset disabled={settingsLocked}>
        <Slider label="Failure rate" unit="%" value={failureRate} limits={L.failureRate} onChange={setFailureRate} />
        <Slider label="Request rate" unit=" req/s" value={requestRate} limits={L.requestRate} onChange={setRequestRate} />
        <Slider label="Duration" unit=" min" value={duration} limits={L.durationMinutes} onChange={setDuration} />
      </Fieldset>
      <Row>
        <Button onClick={startTest} disabled={!canOperate || configId === undefined || !sessionsKnown || Boolean(session) || starting}>
          Start Test
        </Button>
        <Button $variant="outline" onClick={stopTest} disabled={!canOperate || !session || stopping}>
          Pause Test
        </Button>
        <span>
          Status:{' '}
          <Badge data-testid="load-test-status" $color={session ? theme.colors.primary : theme.colors.muted}>
            {session ? 'Running' : 'Ready'}
          </Badge>
        </span>
      </Row>
      {session ? (
        <div>
          <ProgressBar label="Load test progress" value={elapsed} max={total} />
          <Muted style={{ fontSize: 13, marginTop: 4 }}>
            {Math.min(Math.round(elapsed / 1000), Math.round(total / 1000))} s of {Math.round(total / 1000)} s at {session.requestRate}{' '}
            req/s with {session.failureRate}% failures
          </Muted>
        </div>
      ) : null}
      {!canOperate ? <Muted style={{ fontSize: 13 }}>Running load tests needs the circuit_breaker_operate permission.</Muted> : null}
      {canOperate && configId === undefined ? <Muted style={{ fontSize: 13 }}>Create a circuit breaker to load-test it.</Muted> : null}
    </Controls>
  );
}
