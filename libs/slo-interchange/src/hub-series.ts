import { RESILIENCE4J_METRICS, type SloIndicator } from '@cbh/contracts';

/*
 * What the hub writes at /metrics that an SLO's indicator can be read from, and the PromQL of an indicator's error
 * ratio over a window. Every replica writes its own breakers' calls and one replica the agents' instances, so a sum over
 * all series counts each call once (see the API's breakers/metrics/prometheus.ts).
 */

/** The series of the breakers' calls: successful and failed (a timeout is a failed call) by `kind`, and the refused. */
export const HUB_SERIES = {
  /** A summary's count, by kind successful, failed or ignored (the hub ignores nothing). */
  calls: `${RESILIENCE4J_METRICS.calls}_count`,
  /** Calls refused by an open breaker (an agent's also counts those its bulkhead turned away). */
  notPermitted: RESILIENCE4J_METRICS.notPermittedCalls,
  /** Calls refused by a hub bulkhead that was full. */
  bulkheadRejected: 'cbh_bulkhead_rejected_calls_total',
  /** How long the calls that ran took, all kinds together. */
  duration: 'cbh_circuitbreaker_call_duration_seconds',
} as const;

/** The buckets of the latency histogram, in seconds (the API's LATENCY_BUCKETS_SECONDS). */
export const HUB_LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** A breaker as GET /api/circuit-breakers names it: what an indicator's breaker ids stand for at /metrics. */
export interface BreakerRef {
  id: number;
  name: string;
  /** The agent's or scrape target's service; null for a breaker that runs in the hub. */
  service: string | null;
}

/** An indicator the hub's /metrics cannot express. */
export class UnsupportedIndicatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedIndicatorError';
  }
}

/** A PromQL string literal's content. */
const quoted = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
/** A name matched literally inside a regular expression (RE2), then quoted. */
const literally = (value: string) => quoted(value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

/**
 * The label matchers of the indicator's breakers, one set per service: a service's breakers by `service`, the hub's
 * own by their names and no `service` label (service="" matches a series without it). Series of two sets never
 * overlap, so `or` joins them into one vector to sum.
 */
function breakerMatchers(indicator: { breakers?: number[]; service?: string }, known: readonly BreakerRef[]): string[] {
  if (indicator.service !== undefined) return [`service="${quoted(indicator.service)}"`];
  const byService = new Map<string, string[]>();
  for (const id of indicator.breakers ?? []) {
    const breaker = known.find((candidate) => candidate.id === id);
    if (!breaker) {
      throw new Error(`breaker ${id} is not among the breakers given: pass the hub's breakers (GET /api/circuit-breakers) to name it`);
    }
    const names = byService.get(breaker.service ?? '') ?? [];
    byService.set(breaker.service ?? '', [...names, breaker.name]);
  }
  // an empty sum() is no PromQL; the hub's indicators name at least one breaker, a hand-made one may not
  if (byService.size === 0) throw new Error('the indicator names no breakers and no service');
  return [...byService].map(([service, names]) => `name=~"${names.map(literally).join('|')}",service="${quoted(service)}"`);
}

/** sum over the breakers' series of one metric (`extra` matchers first), as a per-second rate over `window`. */
function summedRate(metric: string, extra: string, groups: readonly string[], window: string): string {
  const vectors = groups.map((group) => `rate(${metric}{${extra ? `${extra},` : ''}${group}}[${window}])`);
  return `sum(${vectors.join(' or ')})`;
}

/**
 * A bucket's `le` as the series carries it: the hub writes String(seconds) ("1", "0.5"), and Prometheus 3 rewrites a
 * whole number as "1.0" when it scrapes the text format, so whole seconds match either.
 */
function bucketMatcher(seconds: number): string {
  return Number.isInteger(seconds) ? `le=~"${seconds}|${seconds}\\\\.0"` : `le="${seconds}"`;
}

/**
 * The share of the indicator's events over `window` that were bad, as PromQL; nothing (no sample) while the window
 * had no events, so that a quiet spell neither spends nor earns budget and the long windows' averages stay numbers.
 * Throws UnsupportedIndicatorError for the indicators the hub's /metrics has no series for.
 */
export function errorRatioExpr(indicator: SloIndicator, window: string, breakers: readonly BreakerRef[] = []): string {
  switch (indicator.kind) {
    case 'breaker-calls': {
      const groups = breakerMatchers(indicator, breakers);
      const refused =
        `(${summedRate(HUB_SERIES.notPermitted, '', groups, window)} or vector(0))` +
        `\n+ (${summedRate(HUB_SERIES.bulkheadRejected, '', groups, window)} or vector(0))`;
      const failed = summedRate(HUB_SERIES.calls, 'kind="failed"', groups, window);
      const ran = summedRate(HUB_SERIES.calls, 'kind=~"successful|failed"', groups, window);
      return `(\n${failed}\n+ ${refused}\n)\n/\n((\n${ran}\n+ ${refused}\n) > 0)`;
    }
    case 'breaker-latency': {
      const seconds = indicator.thresholdMs / 1000;
      if (!(HUB_LATENCY_BUCKETS_SECONDS as readonly number[]).includes(seconds)) {
        const bounds = HUB_LATENCY_BUCKETS_SECONDS.map((bound) => bound * 1000).join(', ');
        throw new UnsupportedIndicatorError(
          `breaker-latency under ${indicator.thresholdMs} ms cannot be read from the hub's /metrics: ${HUB_SERIES.duration} counts calls in buckets of ${bounds} ms, so the threshold must be one of them`,
        );
      }
      const groups = breakerMatchers(indicator, breakers);
      const fast = summedRate(`${HUB_SERIES.duration}_bucket`, bucketMatcher(seconds), groups, window);
      const all = summedRate(`${HUB_SERIES.duration}_count`, '', groups, window);
      return `1 - (\n${fast}\n/\n(${all} > 0)\n)`;
    }
    case 'domain-uptime':
      throw new UnsupportedIndicatorError(
        "domain-uptime cannot be read from the hub's /metrics: cbh_domain_checks_total counts checks by kind and outcome, not by domain",
      );
    case 'remote-loads':
      throw new UnsupportedIndicatorError("remote-loads cannot be read from the hub's /metrics: it has no series of the remotes' loads");
  }
}
