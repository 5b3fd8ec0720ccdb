import styled from 'styled-components';
import { useGetAuthUserQuery } from '@cbh/api-client';
import { canOpen, hasPermission, ROUTES, type DashboardStats } from '@cbh/contracts';
import { Link } from '@cbh/router';
import {
  Badge,
  ButtonLink,
  Card,
  CardGrid,
  Dot,
  formatCount,
  Muted,
  PageHeader,
  RoleBadge,
  StatCard,
  StatGrid,
  theme,
  When,
} from '@cbh/ui';
import { SampleDataOffer } from '../sample-data/SampleDataOffer';
import { REFETCH_AFTER_SECONDS, useGetDashboardActivityQuery, useGetDashboardStatsQuery } from './dashboard-api';
import { Actions, List, MoreLink, SectionTitle } from './dashboard-parts';
import { DomainAlertsCard } from './DomainAlertsCard';
import { HealthOverview } from './HealthOverview';
import { ResponseTimesCard } from './ResponseTimesCard';

const Banner = styled(Card)`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 16px;
  margin-bottom: 24px;
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
        value={formatCount(stats.totalRequests)}
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
      <PageHeader title="Dashboard" description="How your circuit breakers, requests and domains are doing now." />
      <Banner>
        <div>
          <strong>Welcome back, {user.firstName || user.email}</strong> <RoleBadge role={user.role} />
        </div>
        <Badge $color={theme.colors.success}>System Operational</Badge>
      </Banner>
      {/* the offer to an empty hub up here; the line saying sample data is loaded at the end, as on the wall: it comes
          after the page's own figures, and up here it pushed every section down as it arrived */}
      <SampleDataOffer part="offer" />

      {stats.data ? <StatCards stats={stats.data} /> : <PendingStatCards failed={stats.isError} />}

      {hasPermission(user, 'circuit_breaker_view') || hasPermission(user, 'domain_management') ? (
        <CardGrid $min={340}>
          {hasPermission(user, 'circuit_breaker_view') ? <HealthOverview user={user} breakers={stats.data?.activeCircuitBreakers} /> : null}
          {hasPermission(user, 'domain_management') ? <DomainAlertsCard /> : null}
        </CardGrid>
      ) : null}
      {hasPermission(user, 'circuit_breaker_view') ? <ResponseTimesCard user={user} /> : null}

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
          {canOpen(user, ROUTES.breakers) ? <MoreLink to={ROUTES.breakers.path}>View all circuit breakers</MoreLink> : null}
        </Card>
      </CardGrid>

      <Card aria-label="Recent Activity">
        <SectionTitle>Recent Activity</SectionTitle>
        {activity.data && activity.data.length > 0 ? (
          <List>
            {activity.data.map((entry) => (
              <li key={`${entry.timestamp}-${entry.action}`}>
                <span>{entry.action}</span>
                <Muted as="span">
                  <When at={entry.timestamp} />
                </Muted>
              </li>
            ))}
          </List>
        ) : (
          <Muted>{activity.isLoading ? 'Loading…' : 'No recent activity'}</Muted>
        )}
      </Card>
      <SampleDataOffer part="loaded" />
    </>
  );
}
