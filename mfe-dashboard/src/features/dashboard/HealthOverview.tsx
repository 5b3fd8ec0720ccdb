import styled from 'styled-components';
import { apiErrorMessage } from '@cbh/api-client';
import { breakerPath, hasPermission, ROUTES, type AuthUser, type BreakerStateName, type DashboardHealth } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { Badge, ButtonLink, Card, Dot, Muted, STATE_COLORS, StateBadge, theme, When } from '@cbh/ui';
import { HEALTH_POLL_MS, REFETCH_AFTER_SECONDS, useGetDashboardHealthQuery } from './dashboard-api';
import { Actions, Detail, Empty, List, MoreLink, RowMain, SectionTitle, SubTitle } from './dashboard-parts';
import { OpeningsChart } from './OpeningsChart';

const Service = styled.span`
  color: ${theme.colors.muted};
`;

const Moment = styled.span`
  color: ${theme.colors.muted};
  white-space: nowrap;
`;

const Word = styled.span`
  display: inline-flex;
  align-items: center;
  gap: 4px;
`;

const STATE_WORDS: Record<BreakerStateName, string> = { CLOSED: 'Closed', HALF_OPEN: 'Half-open', OPEN: 'Open' };

function BreakerLink({ id, name, service }: { id: number; name: string; service: string | null }) {
  return (
    <>
      <Link to={breakerPath(id)}>{name}</Link>
      {service ? <Service>· {service}</Service> : null}
    </>
  );
}

function StateWord({ state }: { state: BreakerStateName }) {
  return (
    <Word>
      <Dot $color={STATE_COLORS[state]} aria-hidden />
      {STATE_WORDS[state]}
    </Word>
  );
}

function StateChange({ from, to }: { from: BreakerStateName; to: BreakerStateName }) {
  return (
    <span>
      <StateWord state={from} /> → <StateWord state={to} />
    </span>
  );
}

/** An empty list: what it would show, and the one action that fills it, to those allowed to take it. */
function EmptyWithAction({
  text,
  route,
  label = route.title,
  allowed,
}: {
  text: string;
  route: { path: string; title: string };
  label?: string;
  allowed: boolean;
}) {
  return (
    <Empty>
      {text}
      {allowed ? (
        <ButtonLink as={Link} to={route.path}>
          {label}
        </ButtonLink>
      ) : null}
    </Empty>
  );
}

/** Breakers open and half-open now, each linking to its page, open first. */
function OpenNow({ health, breakers, user }: { health: DashboardHealth; breakers: number | undefined; user: AuthUser }) {
  if (health.unhealthy.length === 0) {
    if (breakers === 0)
      return (
        <EmptyWithAction
          text="No circuit breakers yet: their state shows here once there are some."
          route={ROUTES.createBreaker}
          allowed={hasPermission(user, 'circuit_breaker_admin')}
        />
      );
    return (
      <Empty>
        <span>
          <Dot $color={theme.colors.success} aria-hidden /> Every breaker is closed: calls go through.
        </span>
      </Empty>
    );
  }
  const more = health.open + health.halfOpen - health.unhealthy.length;
  return (
    <>
      <List aria-label="Breakers open now">
        {health.unhealthy.map((breaker) => (
          <li key={breaker.id}>
            <RowMain>
              <BreakerLink {...breaker} />
              <StateBadge state={breaker.state} />
              {breaker.override === 'forced-open' ? <Badge $color={theme.colors.grey}>forced</Badge> : null}
            </RowMain>
            <Moment>
              since <When at={breaker.since} never="before the last restart" />
            </Moment>
          </li>
        ))}
      </List>
      {more > 0 ? <MoreLink to={ROUTES.breakers.path}>{more} more on the wall of circuit breakers</MoreLink> : null}
    </>
  );
}

/** The journal's newest moves, a move several replicas or instances made counted once. */
function LastTransitions({ health, user }: { health: DashboardHealth; user: AuthUser }) {
  if (health.transitions.length === 0)
    return (
      <EmptyWithAction
        text="No breaker has changed state yet. A load test with failing calls opens one."
        route={ROUTES.loadTest}
        label="Run Load Test"
        allowed={hasPermission(user, 'circuit_breaker_operate')}
      />
    );
  return (
    <List aria-label="Last transitions">
      {health.transitions.map((move) => (
        <li key={`${move.configId}-${move.at}-${move.to}`}>
          <RowMain>
            <BreakerLink id={move.configId} name={move.name} service={move.service} />
            <StateChange from={move.from} to={move.to} />
          </RowMain>
          <Moment>
            <When at={move.at} />
          </Moment>
          <Detail>
            {move.reason}
            {move.places > 1 ? ` (on ${move.places} replicas or instances)` : ''}
          </Detail>
        </li>
      ))}
    </List>
  );
}

/**
 * How the breakers are doing: which are open now, how often they opened over the day, and their last moves. Read
 * again whenever a breaker moves (a live message), and every HEALTH_POLL_MS for the moves none reports.
 */
/** The chart's place: its 40 px of bars and its line of scale (OpeningsChart). */
const ChartPlace = styled.div`
  height: 54px;
`;

/**
 * The card's place while its figures load (or when they could not be): the same rows with dashes, hidden from
 * assistive technology (the status says it), so that the cards below it do not move when the figures arrive.
 */
function PendingHealth({ text }: { text: string }) {
  return (
    <div role="status" aria-label={text}>
      <div aria-hidden>
        <Actions>
          <Badge $color={theme.colors.grey}>– open</Badge>
          <Badge $color={theme.colors.grey}>– half-open</Badge>
        </Actions>
        <SubTitle as="p">Open now</SubTitle>
        <Empty>
          <span>{text}</span>
        </Empty>
        <SubTitle as="p">Openings in the last 24 h</SubTitle>
        <ChartPlace />
      </div>
    </div>
  );
}

export function HealthOverview({ user, breakers }: { user: AuthUser; breakers: number | undefined }) {
  const health = useGetDashboardHealthQuery(undefined, {
    refetchOnMountOrArgChange: REFETCH_AFTER_SECONDS,
    pollingInterval: HEALTH_POLL_MS,
  });
  const problem = health.isError ? `The breakers’ health could not be loaded. ${apiErrorMessage(health.error) ?? ''}` : null;
  const data = health.data;
  const loading = <Muted role="status">{problem ?? 'Loading…'}</Muted>;
  return (
    <>
      <Card aria-labelledby="health-title">
        <SectionTitle id="health-title">Breaker Health</SectionTitle>
        {data ? (
          <>
            <Actions>
              <Badge $color={data.open > 0 ? theme.colors.open : theme.colors.grey}>{data.open} open</Badge>
              <Badge $color={data.halfOpen > 0 ? theme.colors.halfOpen : theme.colors.grey}>{data.halfOpen} half-open</Badge>
            </Actions>
            <SubTitle>Open now</SubTitle>
            <OpenNow health={data} breakers={breakers} user={user} />
            <SubTitle>Openings in the last 24 h</SubTitle>
            <OpeningsChart openings={data.openings} />
          </>
        ) : (
          <PendingHealth text={problem ?? 'Loading…'} />
        )}
      </Card>
      <Card aria-labelledby="transitions-title">
        <SectionTitle id="transitions-title">Last Transitions</SectionTitle>
        {data ? <LastTransitions health={data} user={user} /> : loading}
      </Card>
    </>
  );
}
