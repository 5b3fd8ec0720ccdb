import type { BreakerOverride, BreakerStateName } from './breaker-vocabulary';

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
