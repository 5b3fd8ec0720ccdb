import { lazy, Suspense } from 'react';
import styled from 'styled-components';
import { useGetLatestMetricsQuery, useGetSlosQuery } from '@cbh/api-client';
import { JournalReplay, OverrideBadge, useMetricsHistory } from '@cbh/breaker-widgets';
import { canOpen, hasPermission, readOnlyBreakerMessage, ROUTES, type AuthUser, type BreakerConfigView } from '@cbh/contracts';
import { Badge, Card, Columns, Muted, PageHeader, SectionTitle, SIDE_BY_SIDE, StateBadge, theme, WrapRow } from '@cbh/ui';
import { SOURCE_LABELS } from '../shared/breaker-origin';
import { termsAndValues } from '../shared/figure-styles';
import { BreakerServices } from './BreakerServices';
import { DeleteBreaker } from './DeleteBreaker';
import { DependsOnCard } from './DependsOnCard';
import { LiveCharts } from './LiveCharts';
import { LiveFigures } from './LiveFigures';
import { LoadTestHistory } from './LoadTestHistory';
import { ManualControls } from './ManualControls';
import { SettingsCard } from './SettingsCard';

// only a service's breaker has these: a hub breaker's page does not download them
const LibrarySettingsCard = lazy(() => import('./LibrarySettingsCard').then((module) => ({ default: module.LibrarySettingsCard })));
const BreakerInstances = lazy(() => import('./BreakerInstances').then((module) => ({ default: module.BreakerInstances })));
// only an open breaker's page, for those who may manage status pages, asks which of their components include it
const IncidentOffer = lazy(() => import('./IncidentOffer').then((module) => ({ default: module.IncidentOffer })));
// only a breaker that feeds an SLO downloads the card: most feed none, and the page's first load is at its budget
const BreakerSlosCard = lazy(() => import('./BreakerSlosCard').then((module) => ({ default: module.BreakerSlosCard })));

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
// What an operator sent here by an alert came for comes first: the manual controls, then the settings. Stacked (a
// phone), both come before the charts, so Force open and Reset are on the first screen rather than after four
// charts; side by side, the charts keep the wide left column.
const ChartsCard = styled(Card)`
  ${SIDE_BY_SIDE} {
    order: -1;
  }
`;
const Origin = styled.dl`
  display: flex;
  flex-wrap: wrap;
  gap: 4px 20px;
  margin: 0;
  font-size: 14px;
  div {
    display: flex;
    gap: 6px;
  }
  ${termsAndValues}
`;
const ReadOnly = styled.p`
  margin: 0;
  padding: 8px 12px;
  border-left: 4px solid ${theme.colors.grey};
  background: ${theme.colors.background};
  font-size: 14px;
`;

const HUB_DESCRIPTION =
  'The charts open on the last hour of stored calls and state changes, then add the live figures every 2 seconds; every state change is kept in the journal below.';
const SERVICE_DESCRIPTION =
  'Live figures, summed over the live instances of its service, arrive every 2 seconds; every state change is kept in the journal below.';

/** Where a service's breaker runs: its service, how the hub learns of it, and its library. */
function BreakerOrigin({ breaker }: { breaker: BreakerConfigView }) {
  const facts: [string, string][] = [
    ['Service', breaker.service ?? 'unknown'],
    ['Source', breaker.source === 'scrape' ? `${SOURCE_LABELS.scrape} (read-only)` : SOURCE_LABELS[breaker.source]],
    ['Library', [breaker.library, breaker.libraryType].filter(Boolean).join(' · ') || 'unknown'],
  ];
  return (
    <Origin aria-label="Where it runs" data-testid="breaker-origin">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </Origin>
  );
}

const Loading = () => <Muted role="status">Loading…</Muted>;

/**
 * The SLOs the breaker feeds, once read; nothing while there are none (or they cannot be read). Read once a visit: a
 * budget moves over hours, and their own page follows it by the minute.
 */
function FedSlos({ breakerId }: { breakerId: number }) {
  const { data: slos } = useGetSlosQuery({ breaker: breakerId });
  return slos?.length ? (
    <Suspense fallback={null}>
      <BreakerSlosCard slos={slos} />
    </Suspense>
  ) : null;
}

export interface BreakerConsoleProps {
  breaker: BreakerConfigView;
  user: AuthUser;
}

/**
 * One breaker's console: what it does now, what it is set to, what the operators may do with it, and its past. A
 * breaker that runs in a service (source agent or scrape) shows its instances instead of the hub's services and load
 * tests, which never call through it, and its library's settings instead of the hub's four; a scraped one is
 * read-only, as the hub cannot push to it.
 */
export function BreakerConsole({ breaker, user }: BreakerConsoleProps) {
  // the shell writes each metricsUpdate into this cache and moves the state at once on stateChange: no polling
  const { data: metrics } = useGetLatestMetricsQuery();
  const samples = useMetricsHistory();
  const stats = metrics?.stats.find((entry) => entry.configId === breaker.id);
  const canAdminister = hasPermission(user, 'circuit_breaker_admin');
  const canOperate = hasPermission(user, 'circuit_breaker_operate') && breaker.source !== 'scrape';
  const override = stats?.override ?? breaker.override;
  const hub = breaker.source === 'hub';
  const state = stats?.state ?? breaker.state;

  return (
    <Stack>
      <HeaderRow>
        <PageHeader title={breaker.name} description={hub ? HUB_DESCRIPTION : SERVICE_DESCRIPTION}>
          <WrapRow>
            <Badge $color={theme.colors.grey} data-testid="breaker-type">
              {breaker.type}
            </Badge>
            <StateBadge state={state} />
            <OverrideBadge override={override} />
          </WrapRow>
          {hub ? null : <BreakerOrigin breaker={breaker} />}
          {breaker.source === 'scrape' ? (
            <ReadOnly role="note">{readOnlyBreakerMessage(breaker.name, breaker.service ?? 'its service')}.</ReadOnly>
          ) : null}
        </PageHeader>
      </HeaderRow>
      {state === 'OPEN' && canOpen(user, ROUTES.statusPages) ? (
        <Suspense fallback={null}>
          <IncidentOffer breakerId={breaker.id} />
        </Suspense>
      ) : null}
      <LiveFigures stats={stats} external={!hub} />
      <Row $columns="minmax(0, 2fr) minmax(280px, 1fr)" $gap={20}>
        <Stack>
          {canOperate ? <ManualControls breaker={breaker} override={override} /> : null}
          {hub ? (
            <SettingsCard breaker={breaker} canAdminister={canAdminister} />
          ) : (
            <Suspense fallback={<Loading />}>
              <LibrarySettingsCard breaker={breaker} canAdminister={canAdminister} />
            </Suspense>
          )}
          <DependsOnCard breaker={breaker} user={user} />
          <FedSlos breakerId={breaker.id} />
        </Stack>
        <ChartsCard aria-labelledby="live-charts-title">
          <SectionTitle id="live-charts-title">Metrics</SectionTitle>
          <LiveCharts samples={samples} breaker={breaker} state={state} />
        </ChartsCard>
      </Row>
      {hub ? (
        <Row $columns="minmax(0, 1fr) minmax(0, 2fr)" $gap={20}>
          <BreakerServices configId={breaker.id} />
          <LoadTestHistory configId={breaker.id} />
        </Row>
      ) : (
        <Suspense fallback={<Loading />}>
          <BreakerInstances breaker={breaker} />
        </Suspense>
      )}
      <Card aria-labelledby="journal-title">
        <SectionTitle id="journal-title">Transition journal</SectionTitle>
        <JournalReplay configId={breaker.id} />
      </Card>
      {canAdminister ? <DeleteBreaker breaker={breaker} /> : null}
    </Stack>
  );
}
