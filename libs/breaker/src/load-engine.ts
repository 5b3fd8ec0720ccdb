import type { CircuitBreaker } from './circuit-breaker';
import type { CallOutcome } from './rolling-metrics';
import type { Admission } from './types';

export interface SimulatedDownstream {
  /** Percentage of calls that fail, 0–100. */
  failureRate: number;
  /** Mean latency of a call (exponentially distributed), ms. */
  meanLatencyMs: number;
  /** Changes a call's outcome before the breaker sees it: a drill's fault. Absent, calls are as drawn. */
  alter?: (call: { ok: boolean; latencyMs: number }) => { ok: boolean; latencyMs: number };
}

/**
 * Makes `count` calls through the breaker against a simulated downstream, synchronously: each call is
 * admitted or refused by the breaker, succeeds or fails by the downstream's failure rate, and is counted.
 */
export function runCalls(
  breaker: CircuitBreaker,
  count: number,
  downstream: SimulatedDownstream,
  record: (outcome: CallOutcome, latencyMs: number) => void,
  random: () => number = Math.random,
): void {
  for (let i = 0; i < count; i++) {
    const admission: Admission = breaker.admit();
    if (admission !== 'permitted') {
      record(admission, 0);
      continue;
    }
    let latency = -Math.log(1 - random()) * downstream.meanLatencyMs;
    let ok = random() * 100 >= downstream.failureRate;
    if (downstream.alter) ({ ok, latencyMs: latency } = downstream.alter({ ok, latencyMs: latency }));
    breaker.record(ok, latency);
    record(ok ? 'success' : 'failure', latency);
  }
}
