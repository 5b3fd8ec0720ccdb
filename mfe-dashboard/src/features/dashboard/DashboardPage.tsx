import styled from 'styled-components';
import { useGetAuthUserQuery } from '@cbh/api-client';
import { canOpen, ROUTES, type DashboardStats } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { Badge, ButtonLink, Card, CardGrid, Dot, Muted, PageHeader, RoleBadge, StatCard, StatGrid, theme } from '@cbh/ui';
import { SampleDataOffer } from '../sample-data/SampleDataOffer';
import { REFETCH_AFTER_SECONDS, useGetDashboardActivityQuery, useGetDashboardStatsQuery } from './dashboard-api';

const Banner = styled(Card)`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 16px;
  margin-bottom: 24px;
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
`;

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  li {
    display: flex;
    justify-content: space-between;
    gap: 12px;
    padding: 8px 0;
    border-bottom: 1px solid ${theme.colors.border};
    font-size: 14px;
  }
`;

const AllBreakersLink = styled(Link)`
  display: inline-block;
  margin-top: 12px;
  font-size: 14px;
  color: ${theme.colors.primary};
`;

const SectionTitle = styled.h2`
  margin: 0 0 12px;
  font-size: 18px;
`;

const signed = (n: number, suffix = '') => `${n > 0 ? '+' : ''}${n}${suffix}`;
const trend = (n: number): 'up' | 'down' | 'flat' => (n > 0 ? 'up' : n < 0 ? 'down' : 'flat');

/** The four cards' labels, the same while their figures load (PendingStatCards) and once they are shown. */
const STAT_LABELS = {
  breakers: 'Active Circuit Breakers',
  requests: 'Total Requests',
  domains: 'Managed Domains',
  uptime: 'System Uptime',
} as const;

function StatCards({ stats }: { stats: DashboardStats }) {
  return (
    <StatGrid>
      <StatCard
        label={STAT_LABELS.breakers}
        value={stats.activeCircuitBreakers}
        change={{ text: `${signed(stats.circuitBreakerChange)} in the last 24 h`, trend: trend(stats.circuitBreakerChange) }}
      />
      <StatCard
        label={STAT_LABELS.requests}
        value={stats.totalRequests.toLocaleString('en')}
        change={{ text: `${signed(stats.requestsChange, '%')} vs the previous 24 h`, trend: trend(stats.requestsChange) }}
      />
      <StatCard
        label={STAT_LABELS.domains}
        value={stats.managedDomains}
        change={{ text: `${signed(stats.domainsChange)} in the last 24 h`, trend: trend(stats.domainsChange) }}
      />
      <StatCard label={STAT_LABELS.uptime} value={stats.systemUptime} note="over the last 30 days" />
    </StatGrid>
  );
}

/**
 * The cards' place while the figures load (or when they could not be): the same cards with a dash for each
 * figure, hidden from assistive technology, so the sections below do not move when the figures arrive.
 */
function PendingStatCards({ failed }: { failed: boolean }) {
  const status = failed ? 'The figures could not be loaded.' : 'Loading figures…';
  return (
    <div role="status" aria-label={status}>
      <StatGrid aria-hidden>
        {Object.values(STAT_LABELS).map((label) => (
          <StatCard key={label} label={label} value="–" change={{ text: failed ? 'could not be loaded' : 'loading…', trend: 'flat' }} />
        ))}
      </StatGrid>
    </div>
  );
}

export function DashboardPage() {
  const { data: user } = useGetAuthUserQuery();
  const options = { skip: !user, refetchOnMountOrArgChange: REFETCH_AFTER_SECONDS };
  const stats = useGetDashboardStatsQuery(undefined, options);
  const activity = useGetDashboardActivityQuery(undefined, options);

  if (!user) {
    return (
      <Card>
        <PageHeader title="Dashboard" description="Sign in to see your circuit breakers, requests and domains." />
        <ButtonLink href="/api/login">Login</ButtonLink>
      </Card>
    );
  }

  return (
    <>
      <PageHeader title="Dashboard" />
      <Banner>
        <div>
          <strong>Welcome back, {user.firstName || user.email}</strong> <RoleBadge role={user.role} />
        </div>
        <Badge $color={theme.colors.success}>System Operational</Badge>
      </Banner>
      <SampleDataOffer />

      {stats.data ? <StatCards stats={stats.data} /> : <PendingStatCards failed={stats.isError} />}

      <CardGrid $min={320}>
        <Card>
          <SectionTitle>Quick Actions</SectionTitle>
          <Actions>
            <ButtonLink as={Link} to={ROUTES.createBreaker.path}>
              Create Circuit Breaker
            </ButtonLink>
            <ButtonLink as={Link} to={ROUTES.loadTest.path} $variant="outline">
              Run Load Test
            </ButtonLink>
            {canOpen(user, ROUTES.domains) ? (
              <ButtonLink as={Link} to={ROUTES.domains.path} $variant="outline">
                Manage Domains
              </ButtonLink>
            ) : null}
            {canOpen(user, ROUTES.users) ? (
              <ButtonLink as={Link} to={ROUTES.users.path} $variant="outline">
                {ROUTES.users.title}
              </ButtonLink>
            ) : null}
          </Actions>
        </Card>
        <Card aria-label="System Status">
          <SectionTitle>System Status</SectionTitle>
          <List>
            {['Circuit Breakers', 'Domain Services', 'Monitoring'].map((name) => (
              <li key={name}>
                <span>{name}</span>
                <span>
                  <Dot $color={theme.colors.success} aria-hidden /> Operational
                </span>
              </li>
            ))}
          </List>
          {canOpen(user, ROUTES.breakers) ? <AllBreakersLink to={ROUTES.breakers.path}>View all circuit breakers</AllBreakersLink> : null}
        </Card>
      </CardGrid>

      <Card aria-label="Recent Activity">
        <SectionTitle>Recent Activity</SectionTitle>
        {activity.data && activity.data.length > 0 ? (
          <List>
            {activity.data.map((entry) => (
              <li key={`${entry.timestamp}-${entry.action}`}>
                <span>{entry.action}</span>
                <Muted as="time" dateTime={entry.timestamp}>
                  {new Date(entry.timestamp).toLocaleString('en')}
                </Muted>
              </li>
            ))}
          </List>
        ) : (
          <Muted>{activity.isLoading ? 'Loading…' : 'No recent activity'}</Muted>
        )}
      </Card>
    </>
  );
}
