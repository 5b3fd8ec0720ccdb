import type { BreakerOverride, BreakerStateName } from './breaker-vocabulary';

/*
 * resilience4j's words on Prometheus, defined once: the API writes its breakers in them at /metrics (so that
 * resilience4j's Grafana dashboard and alerts work on the hub as they are) and reads a Java service's breakers in
 * them when it scrapes one. They are those of resilience4j-micrometer (CircuitBreakerMetricNames, BulkheadMetricNames,
 * AbstractCircuitBreakerMetrics) as Micrometer's Prometheus registry writes them: dots become underscores, a timer
 * is <name>_seconds_count and _sum plus a <name>_seconds_max gauge, a counter ends in _total. Every series carries
 * `name` (the breaker); the calls carry `kind`, the state gauge `state`.
 */

const BREAKER = 'resilience4j_circuitbreaker';
const BULKHEAD = 'resilience4j_bulkhead';

export const RESILIENCE4J_METRICS = {
  /** One series per state, 1 for the current one and 0 for the others. */
  state: `${BREAKER}_state`,
  /** Percent of the window's calls that failed; -1 while the window holds fewer calls than the minimum. */
  failureRate: `${BREAKER}_failure_rate`,
  slowCallRate: `${BREAKER}_slow_call_rate`,
  /** The window's calls, kind successful or failed. */
  bufferedCalls: `${BREAKER}_buffered_calls`,
  /** The ring buffer's size (resilience4j before 1.0). */
  maxBufferedCalls: `${BREAKER}_max_buffered_calls`,
  slowCalls: `${BREAKER}_slow_calls`,
  /** The calls timer, kind successful, failed or ignored: <calls>_count and <calls>_sum. */
  calls: `${BREAKER}_calls_seconds`,
  /** The timer's max, a gauge: the slowest recent call of each kind. */
  callsMax: `${BREAKER}_calls_seconds_max`,
  /** The calls as a plain counter, as resilience4j before 1.6 also wrote them. */
  callsCounter: `${BREAKER}_calls_total`,
  notPermittedCalls: `${BREAKER}_not_permitted_calls_total`,
  bulkheadAvailableCalls: `${BULKHEAD}_available_concurrent_calls`,
  bulkheadMaxAllowedCalls: `${BULKHEAD}_max_allowed_concurrent_calls`,
} as const;

/** resilience4j's CircuitBreaker.State, as its state gauge's `state` label writes it. */
export const RESILIENCE4J_STATES = ['closed', 'open', 'half_open', 'forced_open', 'disabled', 'metrics_only'] as const;
export type Resilience4jState = (typeof RESILIENCE4J_STATES)[number];

/** The calls timer's kinds; the not-permitted counter's kind is `not_permitted`. */
export const RESILIENCE4J_CALL_KINDS = ['successful', 'failed', 'ignored'] as const;
export type Resilience4jCallKind = (typeof RESILIENCE4J_CALL_KINDS)[number];
export const NOT_PERMITTED_KIND = 'not_permitted';

/** The overrides a resilience4j state can mean: resilience4j has no forced-closed state. */
export type Resilience4jOverride = Extract<BreakerOverride, 'none' | 'forced-open' | 'disabled'>;

/** What each of resilience4j's states is in the hub's words (a scraped breaker's state). */
export const RESILIENCE4J_STATE_WORDS: Record<Resilience4jState, { state: BreakerStateName; override: Resilience4jOverride }> = {
  closed: { state: 'CLOSED', override: 'none' },
  open: { state: 'OPEN', override: 'none' },
  half_open: { state: 'HALF_OPEN', override: 'none' },
  // forced open and disabled are what an operator set through the actuator, the hub's overrides of the same names
  forced_open: { state: 'OPEN', override: 'forced-open' },
  disabled: { state: 'CLOSED', override: 'disabled' },
  // metrics-only lets every call through and counts them: read as CLOSED without override, as nobody here forced it
  metrics_only: { state: 'CLOSED', override: 'none' },
};

/**
 * A hub breaker's state in resilience4j's words (what /metrics writes). Forced closed is metrics_only, resilience4j's
 * state that lets every call through, keeps counting them and never trips; the other overrides have states of the
 * same names.
 */
export function resilience4jStateOf(state: BreakerStateName, override: BreakerOverride): Resilience4jState {
  if (override === 'forced-open') return 'forced_open';
  if (override === 'disabled') return 'disabled';
  if (override === 'forced-closed') return 'metrics_only';
  return state === 'OPEN' ? 'open' : state === 'HALF_OPEN' ? 'half_open' : 'closed';
}
