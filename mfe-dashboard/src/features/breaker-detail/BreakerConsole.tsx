import { lazy, Suspense } from 'react';
import styled from 'styled-components';
import { useGetLatestMetricsQuery } from '@cbh/api-client';
import { JournalReplay, OverrideBadge, useMetricsHistory } from '@cbh/breaker-widgets';
import { hasPermission, type AuthUser, type BreakerConfigView } from '@cbh/contracts';
import { Badge, Card, Columns, Muted, PageHeader, SectionTitle, StateBadge, theme } from '@cbh/ui';
import { BreakerServices } from './BreakerServices';
import { DeleteBreaker } from './DeleteBreaker';
import { LiveFigures } from './LiveFigures';
import { LoadTestHistory } from './LoadTestHistory';
import { ManualControls } from './ManualControls';
import { SettingsCard } from './SettingsCard';

// uPlot comes with the charts, in their own chunk (and once per visit: @cbh/ui/charts is a shared singleton)
const LiveCharts = lazy(() => import('./LiveCharts'));

// Grid children take min-width 0: otherwise a wide table inside (which scrolls in its own box) would widen
// the column, and with it a phone's page.
const Stack = styled.div`
  display: grid;
  gap: 20px;
  min-width: 0;
  > * {
    min-width: 0;
  }
`;
const Row = styled(Columns)`
  > * {
    min-width: 0;
  }
`;
// a long breaker name wraps rather than widening a phone's page
const HeaderRow = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  align-items: flex-start;
  gap: 12px;
  overflow-wrap: anywhere;
  > header {
    min-width: 0;
    margin-bottom: 0;
  }
`;
const Badges = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px;
`;

export interface BreakerConsoleProps {
  breaker: BreakerConfigView;
  user: AuthUser;
}

/** One breaker's console: what it does now, what it is set to, what the operators may do with it, and its past. */
export function BreakerConsole({ breaker, user }: BreakerConsoleProps) {
  // the shell writes each metricsUpdate into this cache and moves the state at once on stateChange: no polling
  const { data: metrics } = useGetLatestMetricsQuery();
  const samples = useMetricsHistory();
  const stats = metrics?.stats.find((entry) => entry.configId === breaker.id);
  const canAdminister = hasPermission(user, 'circuit_breaker_admin');
  const canOperate = hasPermission(user, 'circuit_breaker_operate');
  const override = stats?.override ?? breaker.override;

  return (
    <Stack>
      <HeaderRow>
        <PageHeader
          title={breaker.name}
          description="Live figures arrive every 2 seconds; every state change is kept in the journal below."
        >
          <Badges>
            <Badge $color={theme.colors.grey} data-testid="breaker-type">
              {breaker.type}
            </Badge>
            <StateBadge state={stats?.state ?? breaker.state} />
            <OverrideBadge override={override} />
          </Badges>
        </PageHeader>
        {canAdminister ? <DeleteBreaker breaker={breaker} /> : null}
      </HeaderRow>
      <LiveFigures stats={stats} />
      <Row $columns="minmax(0, 2fr) minmax(280px, 1fr)" $gap={20}>
        <Card aria-labelledby="live-charts-title">
          <SectionTitle id="live-charts-title">Live metrics</SectionTitle>
          <Suspense fallback={<Muted role="status">Loading charts…</Muted>}>
            <LiveCharts samples={samples} configId={breaker.id} />
          </Suspense>
        </Card>
        <Stack>
          <SettingsCard breaker={breaker} canAdminister={canAdminister} />
          {canOperate ? <ManualControls breaker={breaker} override={override} /> : null}
        </Stack>
      </Row>
      <Row $columns="minmax(0, 1fr) minmax(0, 2fr)" $gap={20}>
        <BreakerServices configId={breaker.id} />
        <LoadTestHistory configId={breaker.id} />
      </Row>
      <Card aria-labelledby="journal-title">
        <SectionTitle id="journal-title">Transition journal</SectionTitle>
        <JournalReplay configId={breaker.id} />
      </Card>
    </Stack>
  );
}
