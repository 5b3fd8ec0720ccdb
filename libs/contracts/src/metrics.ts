/** One breaker's figures over the rolling window, as GET /api/metrics/latest and metricsUpdate carry them. */
export interface BreakerStats {
  configId: number;
  state: 'CLOSED' | 'OPEN' | 'HALF_OPEN';
  successCount: number;
  failureCount: number;
  timeoutCount: number;
  shortCircuitedCount: number;
  bulkheadRejectedCount: number;
  errorPercentage: number;
  requestsPerSecond: number;
  latency: { p50: number; p90: number; p99: number; max: number };
  /** How many live API replicas hold this breaker open, of how many. */
  replicas: { open: number; total: number };
}
