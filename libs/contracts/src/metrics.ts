import type { BreakerStateName } from './breakers';

/** One breaker's figures over the rolling window, as GET /api/metrics/latest and metricsUpdate carry them. */
export interface BreakerStats {
  configId: number;
  state: BreakerStateName;
  successCount: number;
  failureCount: number;
  timeoutCount: number;
  shortCircuitedCount: number;
  bulkheadRejectedCount: number;
  errorPercentage: number;
  requestsPerSecond: number;
  latency: { mean: number; p50: number; p90: number; p99: number; max: number };
  /** How many live API replicas hold this breaker open, of how many. */
  replicas: { open: number; total: number };
}

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
  action: string;
  timestamp: string;
}
