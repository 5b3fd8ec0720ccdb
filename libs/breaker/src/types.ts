export type BreakerState = 'CLOSED' | 'OPEN' | 'HALF_OPEN';
export type BreakerType = 'simple' | 'adaptive' | 'bulkhead';

/** A manual override, as resilience4j's actuator offers: none, forced open, forced closed, or disabled. */
export type BreakerOverride = 'none' | 'forced-open' | 'forced-closed' | 'disabled';

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface BreakerSettings {
  type: BreakerType;
  /** simple/bulkhead: consecutive failures that open the breaker. adaptive: the base of the rate threshold (×10 %). */
  failureThreshold: number;
  /** How long the breaker stays open before it lets a trial call through (ms). */
  timeout: number;
  /** simple/bulkhead: failures older than this are forgotten. adaptive: the sliding window (ms). */
  recoveryTime: number;
  /** Consecutive successful trial calls that close a half-open breaker. */
  successThreshold: number;
  /** adaptive: calls in the window before the rate counts. Default 10. */
  minimumCalls?: number;
  /** adaptive: a call slower than this counts as a failure (ms). Default 1000. */
  slowCallDuration?: number;
  /** bulkhead: calls allowed in flight at once. Default 10. */
  maxConcurrentCalls?: number;
  /** bulkhead: calls that may wait for a free slot. Default 0. */
  maxQueue?: number;
}

export type Admission = 'permitted' | 'short-circuited' | 'bulkhead-rejected';

export interface Transition {
  from: BreakerState;
  to: BreakerState;
  reason: string;
  at: number;
}
