import {
  METRICS_UPDATE_INTERVAL_MS,
  type BreakerConfigView,
  type BreakerSource,
  type BreakerStateName,
  type BreakerStats,
  type BreakerTypeName,
} from '@cbh/contracts';
import type { MetricsSample } from '@cbh/breaker-widgets';

/** The sparkline draws the last minute of metricsUpdate samples. */
export const SPARKLINE_SAMPLES = 60_000 / METRICS_UPDATE_INTERVAL_MS;

export type WallSort = 'name' | 'errors' | 'state';
export interface WallFilters {
  sort: WallSort;
  state: 'all' | BreakerStateName;
  type: 'all' | BreakerTypeName;
  source: 'all' | BreakerSource;
  /** One service's breakers; null for every breaker, the hub's own included. */
  service: string | null;
}
export const DEFAULT_FILTERS: WallFilters = { sort: 'name', state: 'all', type: 'all', source: 'all', service: null };

/** One tile: the breaker's configuration and its latest cluster-wide figures (none until the API reports any). */
export interface WallTile {
  breaker: BreakerConfigView;
  stats: BreakerStats | undefined;
}

/** The state a tile shows: the live figures' once there are any, else the configuration's. */
export const tileState = ({ breaker, stats }: WallTile): BreakerStateName => stats?.state ?? breaker.state;

const STATE_RANK: Record<BreakerStateName, number> = { OPEN: 0, HALF_OPEN: 1, CLOSED: 2 };
const byName = (a: WallTile, b: WallTile) => a.breaker.name.localeCompare(b.breaker.name, 'en');
const COMPARE: Record<WallSort, (a: WallTile, b: WallTile) => number> = {
  name: byName,
  errors: (a, b) => (b.stats?.errorPercentage ?? 0) - (a.stats?.errorPercentage ?? 0) || byName(a, b),
  state: (a, b) => STATE_RANK[tileState(a)] - STATE_RANK[tileState(b)] || byName(a, b),
};

/** The tiles the filters let through, in the chosen order. */
export function wallTiles(breakers: readonly BreakerConfigView[], stats: readonly BreakerStats[], filters: WallFilters): WallTile[] {
  const statsById = new Map(stats.map((entry) => [entry.configId, entry]));
  const passes = (tile: WallTile) =>
    (filters.state === 'all' || tileState(tile) === filters.state) &&
    (filters.type === 'all' || tile.breaker.type === filters.type) &&
    (filters.source === 'all' || tile.breaker.source === filters.source) &&
    (filters.service === null || tile.breaker.service === filters.service);
  return breakers
    .map((breaker) => ({ breaker, stats: statsById.get(breaker.id) }))
    .filter(passes)
    .sort(COMPARE[filters.sort]);
}

/** The services whose breakers the list holds, by name: the Service filter's choices. */
export function wallServices(breakers: readonly BreakerConfigView[]): string[] {
  const services = new Set<string>();
  for (const breaker of breakers) if (breaker.service !== null) services.add(breaker.service);
  return [...services].sort((a, b) => a.localeCompare(b, 'en'));
}

/**
 * Each breaker's calls/s over the samples, oldest first, in one pass over them (a per-tile search would cost
 * breakers × breakers × samples with 200 breakers). A breaker missing from a sample simply has fewer points.
 */
export function callRateSeries(samples: readonly MetricsSample[]): Map<number, number[]> {
  const series = new Map<number, number[]>();
  for (const sample of samples) {
    for (const entry of sample.stats) {
      const points = series.get(entry.configId);
      if (points) points.push(entry.requestsPerSecond);
      else series.set(entry.configId, [entry.requestsPerSecond]);
    }
  }
  return series;
}

/** Whether the breaker took any call in the metrics window: without one, its error % and latencies mean nothing. */
export function hadTraffic(stats: BreakerStats): boolean {
  return stats.successCount + stats.failureCount + stats.timeoutCount + stats.shortCircuitedCount + stats.bulkheadRejectedCount > 0;
}
