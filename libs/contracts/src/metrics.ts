import type { BreakerOverride, BreakerStateName } from './breaker-vocabulary';
import type { JournalEntry } from './breakers';
import type { HistoryRange } from './history-ranges';

/**
 * One breaker's figures over the rolling window, summed over every live API replica, as GET /api/metrics/latest,
 * metricsUpdate and /metrics report them: counts added, latency histograms merged bucket by bucket, and the state
 * the most cautious replica holds (OPEN over HALF_OPEN over CLOSED).
 */
export interface BreakerStats {
  configId: number;
  state: BreakerStateName;
  override: BreakerOverride;
  /** When the breaker last changed state on any live replica (ISO 8601), or null since the replicas started. */
  lastTransitionAt: string | null;
  successCount: number;
  failureCount: number;
  timeoutCount: number;
  shortCircuitedCount: number;
  bulkheadRejectedCount: number;
  errorPercentage: number;
  requestsPerSecond: number;
  latency: { mean: number; p50: number; p90: number; p99: number; max: number };
  /** How many live API replicas hold this breaker open, of how many report their figures. */
  replicas: { open: number; total: number };
  /**
   * Agent and scraped breakers: their service's instances that reported within AGENT_STALE_PERIODS periods (the
   * figures are their sum), how many hold it open, how many fell silent, and the single bad instance if one is.
   */
  instances?: { open: number; total: number; stale: number; bad: string | null };
}

/** One service instance of an agent or scraped breaker, as GET /api/circuit-breakers/{id}/instances lists it. */
export interface BreakerInstanceView {
  instance: string;
  state: BreakerStateName;
  override: BreakerOverride;
  /** ISO 8601 */
  lastReportAt: string;
  /** Silent for AGENT_STALE_PERIODS reporting periods: left out of the merged figures. */
  stale: boolean;
  /** Its error rate is far above the other live instances' (isBadInstance). */
  bad: boolean;
  successCount: number;
  failureCount: number;
  timeoutCount: number;
  shortCircuitedCount: number;
  errorPercentage: number;
  requestsPerSecond: number;
  latency: { mean: number; p50: number; p90: number; p99: number; max: number };
}

/** GET /api/circuit-breakers/{id}/instances: each instance (live first), and the live ones' merged figures. */
export interface BreakerInstancesPage {
  instances: BreakerInstanceView[];
  merged: BreakerStats | null;
}

/** How often every signed-in /ws client receives metricsUpdate with every breaker's figures. */
export const METRICS_UPDATE_INTERVAL_MS = 2000;

/** GET /api/dashboard/stats; each change compares the last 24 h with the 24 h before. */
export interface DashboardStats {
  activeCircuitBreakers: number;
  circuitBreakerChange: number;
  totalRequests: number;
  /** percent */
  requestsChange: number;
  managedDomains: number;
  domainsChange: number;
  /** e.g. "99.9%", over the last 30 days */
  systemUptime: string;
}

export interface ActivityEntry {
  /** who did what, e.g. 'Ada Lovelace created a circuit breaker' or 'An operator started a load test': never an e-mail address */
  action: string;
  timestamp: string;
}

/**
 * One step of a breaker's past, summed over every replica from the stored per-second buckets. The hub stores counts
 * only: latency has no past, it is live only.
 */
export interface BreakerHistoryPoint {
  /** The step's start (ISO 8601). */
  at: string;
  /** Every call of the step: succeeded, failed, timed out, short-circuited or refused by the bulkhead. */
  calls: number;
  callsPerSecond: number;
  /** Failed, timed out, short-circuited and refused calls as a percentage of the calls; null where there were none. */
  errorPercentage: number | null;
}

/** GET /api/circuit-breakers/{id}/history: every step of the range, oldest first, and the journal's moves in it. */
export interface BreakerHistory {
  range: HistoryRange;
  /** ISO 8601: the first step's start, and the end of the span. */
  from: string;
  to: string;
  stepSeconds: number;
  points: BreakerHistoryPoint[];
  /** The moves in the range, oldest first; at most HISTORY_MAX_TRANSITIONS (the newest), `transitionsCapped` then. */
  transitions: JournalEntry[];
  transitionsCapped: boolean;
  /** The state the breaker was in when the range began (the last move before it), or null when nothing is journalled. */
  stateBefore: BreakerStateName | null;
}
export const HISTORY_MAX_TRANSITIONS = 500;

/** How many breakers GET /api/dashboard/health lists as open or half-open now, and how many recent transitions. */
export const DASHBOARD_HEALTH_LIMITS = { unhealthy: 20, transitions: 8 } as const;
/** The hours the openings sparkline covers, the current one last. */
export const DASHBOARD_OPENINGS_HOURS = 24;

/** A breaker that refuses calls now (OPEN) or is trying them again (HALF_OPEN) on some live replica or instance. */
export interface UnhealthyBreaker {
  id: number;
  name: string;
  /** The service an agent's or scraped breaker belongs to; null for the hub's own. */
  service: string | null;
  state: Exclude<BreakerStateName, 'CLOSED'>;
  override: BreakerOverride;
  /** When it last changed state (ISO 8601), or null when no live replica saw the move. */
  since: string | null;
}

/** A move of the transition journal, the same move on several replicas or instances counted once. */
export interface HealthTransition {
  configId: number;
  name: string;
  service: string | null;
  from: BreakerStateName;
  to: BreakerStateName;
  reason: string;
  /** ISO 8601, the earliest of the rows it stands for */
  at: string;
  /** How many replicas or service instances journalled it (1 or more). */
  places: number;
}

/** GET /api/dashboard/health (circuit_breaker_view): how the breakers are doing now and over the last day. */
export interface DashboardHealth {
  /** How many breakers are OPEN and HALF_OPEN now, all of them (the list below holds at most DASHBOARD_HEALTH_LIMITS.unhealthy). */
  open: number;
  halfOpen: number;
  /** OPEN first, then HALF_OPEN; the most recently moved first within each. */
  unhealthy: UnhealthyBreaker[];
  /** The newest moves first, at most DASHBOARD_HEALTH_LIMITS.transitions. */
  transitions: HealthTransition[];
  /** CLOSED → OPEN moves per hour over the last DASHBOARD_OPENINGS_HOURS hours, oldest first (a breaker counted once a minute). */
  openings: { hour: string; count: number }[];
}
