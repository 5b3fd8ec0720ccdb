import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useGetAuthUserQuery, useGetBreakersQuery, useGetLatestMetricsQuery } from '@cbh/api-client';
import { useMetricsHistory } from '@cbh/breaker-widgets';
import { BREAKER_BULK_PERMISSIONS, canOpen, hasPermission, ROUTES, type AuthUser, type BreakerBulkAction } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { AccessRestricted, ButtonLink, Card, Muted, NARROW_SCREEN, PageHeader, plural, useSelection, WrapRow } from '@cbh/ui';
import { BreakerTile } from './BreakerTile';
import { useDrillMarks } from './drill-marks';
import { NowProvider } from '../shared/now-clock';
import { SampleDataOffer } from '../sample-data/SampleDataOffer';
import { useShownFigures, useVisibleTiles } from './visible-tiles';
import { WallControls } from './WallControls';
import { callRateSeries, DEFAULT_FILTERS, SPARKLINE_SAMPLES, wallServices, wallTiles } from './wall-view';

const TITLE = ROUTES.breakers.title;
const DESCRIPTION =
  'Every breaker at a glance. The figures are summed over every API replica, or over the live instances of the service a breaker runs in, and update every 2 s.';
export const NO_ACCESS_TEXT = 'You need the circuit_breaker_view permission to see the circuit breakers.';

// tiles of at least 220 px: four across at 1400 px beside the sidebar, one column on a phone
const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(220px, 100%), 1fr));
  gap: 12px;
`;

/* on a small desk the four actions take two rows at the right rather than squeeze the title into a column */
const HeaderActions = styled(WrapRow)`
  justify-content: flex-end;
  max-width: 40vw;
  ${NARROW_SCREEN} {
    justify-content: flex-start;
    max-width: none;
  }
`;

const Note = styled(Muted)`
  margin-bottom: 12px;
`;

const EmptyState = styled.div`
  display: grid;
  gap: 12px;
`;

const Empty = styled(Card)`
  display: grid;
  justify-items: start;
  gap: 12px;
`;

/*
 * Fetched only for the people who get them, on first use: every dashboard route loads this remote's routes module,
 * and the bulk toolbar and the configuration buttons would otherwise weigh on all of them.
 */
const BreakerBulkActions = lazy(() => import('./BreakerBulkActions').then((module) => ({ default: module.BreakerBulkActions })));
const ConfigurationActions = lazy(() => import('@cbh/config-ui').then((module) => ({ default: module.ConfigurationActions })));

/** A breaker with no figures yet has no points. */
const NO_POINTS: readonly number[] = [];

/**
 * What the wall offers to do to many breakers at once. Disabling, which turns protection off, is left to each
 * breaker's page (and to the API): on the wall a slip of 'Select all shown' would unguard the whole fleet.
 */
const WALL_BULK_ACTIONS: readonly BreakerBulkAction[] = ['force-open', 'force-closed', 'reset', 'delete'];

/** The wall's actions on many breakers this person may take: bulk_operations and each action's own permission. */
function wallBulkActions(user: AuthUser | null | undefined): BreakerBulkAction[] {
  if (!hasPermission(user, 'bulk_operations')) return [];
  return WALL_BULK_ACTIONS.filter((action) => hasPermission(user, BREAKER_BULK_PERMISSIONS[action]));
}

/** The wall itself, for an account that may see it: its reads start only once it is shown. */
function BreakerWall({
  canCreate,
  bulkActions,
  seesDrills,
}: {
  canCreate: boolean;
  bulkActions: readonly BreakerBulkAction[];
  /** Whether the account may read the drills (circuit_breaker_admin): their breakers are marked. */
  seesDrills: boolean;
}) {
  const breakers = useGetBreakersQuery();
  // no polling: the shell's live connection writes every metricsUpdate and stateChange into this cache entry
  const metrics = useGetLatestMetricsQuery();
  const samples = useMetricsHistory(SPARKLINE_SAMPLES);
  const callRates = useMemo(() => callRateSeries(samples), [samples]);
  const [filters, setFilters] = useState(DEFAULT_FILTERS);
  const tiles = useMemo(() => wallTiles(breakers.data ?? [], metrics.data?.stats ?? [], filters), [breakers.data, metrics.data, filters]);
  const services = useMemo(() => wallServices(breakers.data ?? []), [breakers.data]);
  const grid = useRef<HTMLDivElement>(null);
  const visible = useVisibleTiles(grid, tiles.map((tile) => tile.breaker.id).join());
  const shownFigures = useShownFigures(visible);
  const { selected, toggle, selectAll, setSelected } = useSelection();
  const drills = useDrillMarks(seesDrills);
  const selectable = bulkActions.length > 0;

  // an error first: RTK Query keeps the last list when a refetch fails, and it would be shown as current
  if (breakers.isError)
    return <Muted role="alert">The circuit breakers could not be loaded. {apiErrorMessage(breakers.error) ?? ''}</Muted>;
  if (!breakers.data) return <Muted role="status">Loading circuit breakers…</Muted>;
  if (breakers.data.length === 0) {
    return (
      <EmptyState>
        <Empty>
          <strong>No circuit breakers yet</strong>
          {canCreate ? (
            <ButtonLink as={Link} to={ROUTES.createBreaker.path}>
              {ROUTES.createBreaker.title}
            </ButtonLink>
          ) : (
            <Muted>An administrator can create one.</Muted>
          )}
        </Empty>
        {/* a super admin may try the hub with sample data instead */}
        <SampleDataOffer part="offer" />
      </EmptyState>
    );
  }

  return (
    <>
      <WallControls filters={filters} services={services} onChange={setFilters} />
      {selectable ? (
        <Suspense fallback={null}>
          <BreakerBulkActions
            shown={tiles.map((tile) => tile.breaker)}
            selected={selected}
            actions={bulkActions}
            selectAll={selectAll}
            setSelected={setSelected}
          />
        </Suspense>
      ) : null}
      <Note role="status">
        Showing {tiles.length} of {plural(breakers.data.length, 'breaker')}
      </Note>
      {metrics.isError ? (
        <Note role="alert">
          The live figures could not be loaded; they will appear with the next update. {apiErrorMessage(metrics.error) ?? ''}
        </Note>
      ) : null}
      {tiles.length === 0 ? (
        <Muted>No circuit breaker matches these filters.</Muted>
      ) : (
        <NowProvider>
          <Grid ref={grid}>
            {tiles.map(({ breaker, stats }) => {
              const shown = shownFigures(breaker, { stats, callRates: callRates.get(breaker.id) ?? NO_POINTS });
              return (
                <BreakerTile
                  key={breaker.id}
                  breaker={breaker}
                  stats={shown.stats}
                  callRates={shown.callRates}
                  selected={selected.has(breaker.id)}
                  onToggle={selectable ? toggle : undefined}
                  drill={drills.get(breaker.id)}
                />
              );
            })}
          </Grid>
        </NowProvider>
      )}
    </>
  );
}

/** /circuit-breakers: the operators' console, every breaker as a live tile in the manner of Hystrix's dashboard. */
export function BreakerWallPage() {
  const { data: user, isLoading } = useGetAuthUserQuery();
  if (isLoading) {
    return (
      <>
        <PageHeader title={TITLE} />
        <Muted role="status">Loading…</Muted>
      </>
    );
  }
  if (!hasPermission(user, 'circuit_breaker_view')) {
    return (
      <>
        <PageHeader title={TITLE} />
        <AccessRestricted message={NO_ACCESS_TEXT} />
      </>
    );
  }
  return (
    <>
      <PageHeader title={TITLE} description={DESCRIPTION}>
        <HeaderActions>
          {hasPermission(user, 'export_data') || hasPermission(user, 'import_data') ? (
            <Suspense fallback={null}>
              <ConfigurationActions />
            </Suspense>
          ) : null}
          {canOpen(user, ROUTES.scrapeTargets) ? (
            <ButtonLink as={Link} to={ROUTES.scrapeTargets.path} $variant="outline">
              {ROUTES.scrapeTargets.title}
            </ButtonLink>
          ) : null}
          {hasPermission(user, 'circuit_breaker_admin') ? (
            <ButtonLink as={Link} to={ROUTES.createBreaker.path}>
              New breaker
            </ButtonLink>
          ) : null}
        </HeaderActions>
      </PageHeader>
      <SampleDataOffer part="loaded" />
      <BreakerWall
        canCreate={hasPermission(user, 'circuit_breaker_admin')}
        bulkActions={wallBulkActions(user)}
        seesDrills={hasPermission(user, 'circuit_breaker_admin')}
      />
    </>
  );
}
