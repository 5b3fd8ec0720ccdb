import { Injectable } from '@nestjs/common';
import {
  DASHBOARD_HEALTH_LIMITS,
  DASHBOARD_OPENINGS_HOURS,
  type BreakerStats,
  type DashboardHealth,
  type HealthTransition,
  type UnhealthyBreaker,
} from '@cbh/contracts';
import { MetricsService } from '../metrics/metrics.service';
import { DashboardRepository, type JournalRow } from './dashboard.repository';

/** Rows of one move on several replicas or instances are journalled within this of each other. */
const SAME_MOVE_MS = 5000;
/** Journal rows read to find the newest moves: enough for each to have been journalled by a few places. */
const ROWS_PER_MOVE = 4;

type Unhealthy = BreakerStats & { state: UnhealthyBreaker['state'] };

const isUnhealthy = (stats: BreakerStats): stats is Unhealthy => stats.state !== 'CLOSED';
const movedAt = (stats: BreakerStats) => (stats.lastTransitionAt ? Date.parse(stats.lastTransitionAt) : 0);

/** OPEN before HALF_OPEN, the most recently moved first. */
function byUrgency(a: Unhealthy, b: Unhealthy): number {
  if (a.state !== b.state) return a.state === 'OPEN' ? -1 : 1;
  return movedAt(b) - movedAt(a);
}

/**
 * Journal rows, newest first, as moves: a row that makes the same change as the breaker's move just after it (the
 * breaker's, whatever other breakers did meanwhile), within SAME_MOVE_MS, is that move made (and journalled) by
 * another replica or service instance.
 */
export function movesOf(rows: readonly JournalRow[]): HealthTransition[] {
  const moves: HealthTransition[] = [];
  for (const row of rows) {
    const at = row.at.getTime();
    const later = moves.findLast((move) => move.configId === row.configId);
    if (later && later.from === row.from && later.to === row.to && Date.parse(later.at) - at <= SAME_MOVE_MS) {
      later.places++;
      later.at = row.at.toISOString();
      continue;
    }
    const { configId, name, service, from, to, reason } = row;
    moves.push({ configId, name, service, from, to, reason, at: row.at.toISOString(), places: 1 });
  }
  return moves;
}

/** The dashboard's health overview: the breakers' states now, from memory; their moves, from the journal. */
@Injectable()
export class DashboardHealthService {
  constructor(
    private readonly metrics: MetricsService,
    private readonly aggregates: DashboardRepository,
  ) {}

  async health(): Promise<DashboardHealth> {
    const unhealthy = this.metrics.everyBreaker().filter(isUnhealthy).sort(byUrgency);
    const listed = unhealthy.slice(0, DASHBOARD_HEALTH_LIMITS.unhealthy);
    const [names, rows, openings] = await Promise.all([
      this.aggregates.breakerNames(listed.map((stats) => stats.configId)),
      this.aggregates.latestTransitions(DASHBOARD_HEALTH_LIMITS.transitions * ROWS_PER_MOVE),
      this.aggregates.openingsPerHour(DASHBOARD_OPENINGS_HOURS),
    ]);
    const named = new Map(names.map((breaker) => [breaker.id, breaker]));
    return {
      open: unhealthy.filter((stats) => stats.state === 'OPEN').length,
      halfOpen: unhealthy.filter((stats) => stats.state === 'HALF_OPEN').length,
      // a breaker deleted since the figures were taken is left out
      unhealthy: listed.flatMap((stats) => {
        const breaker = named.get(stats.configId);
        if (!breaker) return [];
        return [{ ...breaker, state: stats.state, override: stats.override, since: stats.lastTransitionAt }];
      }),
      // the oldest move may be missing some of its rows (cut by the limit): it is the one dropped when too many
      transitions: movesOf(rows).slice(0, DASHBOARD_HEALTH_LIMITS.transitions),
      openings: openings.map(({ hour, count }) => ({ hour: hour.toISOString(), count })),
    };
  }
}
