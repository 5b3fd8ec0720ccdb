import { RollingMetrics, type CallOutcome } from '@cbh/breaker';
import type { BreakerSettings } from '@cbh/contracts';
import { totalsOf, toStoredPeriod, windowOf } from '../../../api/src/breakers/fleet/instance-periods';
import { CallCounters } from '../../../api/src/breakers/metrics/call-counters';
import {
  breakerFamilies,
  type AgentInstance,
  type BreakerSeriesInput,
  type OwnBreaker,
} from '../../../api/src/breakers/metrics/prometheus';
import { exposition, LATENCY_BUCKETS_SECONDS } from '../../../api/src/platform';
import { HUB_LATENCY_BUCKETS_SECONDS, prometheusRules, type BreakerRef, type SloDefinition } from '../src';
import { testRules, type RuleTest } from '../src/promtool.test-kit';

/*
 * The rules against what the API really writes at /metrics: two scrapes of the API's own exposition (the breaker
 * series code of api/src/breakers/metrics), five minutes apart, are promtool's input, and the recorded error ratio is
 * the share of bad calls made between them. A renamed series or label in the API fails here.
 */

const NOW = 1_700_000_000_000;
const SETTINGS: BreakerSettings = { type: 'simple', failureThreshold: 5, timeout: 30_000, recoveryTime: 60_000, successThreshold: 3 };

/** A hub breaker on this replica after `calls` ([outcome, ms, how many]). */
function own(name: string, settings: Partial<BreakerSettings>, calls: [CallOutcome, number, number][]): OwnBreaker {
  const counters = new CallCounters();
  for (const [outcome, ms, count] of calls) for (let i = 0; i < count; i++) counters.record(outcome, ms, NOW);
  return {
    name,
    settings: { ...SETTINGS, ...settings },
    state: 'CLOSED',
    override: 'none',
    callsInFlight: 0,
    window: new RollingMetrics().snapshot(NOW),
    counters,
  };
}

/** The checkout service's `stock` breaker on one instance, as its agent reported its calls. */
function agent(successes: number, failures: number, timeouts: number, rejections: number): AgentInstance {
  const calls = successes + failures + timeouts;
  const period = toStoredPeriod(
    { successes, failures, timeouts, rejections, latencyHistogram: { boundsMs: [10, 100], counts: [calls, 0, 0] }, longestCallMs: 9 },
    NOW,
    1000,
  );
  const window = windowOf([period], NOW).window;
  return {
    service: 'checkout',
    name: 'stock',
    instance: 'checkout-1',
    state: 'CLOSED',
    override: 'none',
    window,
    totals: totalsOf(period),
  };
}

/** The exposition's samples: series → value. */
function scrape(own: OwnBreaker[], agents: AgentInstance[]): Map<string, number> {
  const input: BreakerSeriesInput = { own, agents, agentsLeftOut: 0, cluster: [], replicas: 1, now: NOW };
  const samples = new Map<string, number>();
  for (const line of exposition(breakerFamilies(input)).split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

/** Two scrapes as promtool's input series, five minutes apart (a series missing from the first was 0). */
function inputSeries(before: Map<string, number>, after: Map<string, number>): RuleTest['input_series'] {
  return [...after].map(([series, value]) => ({ series, values: `${before.get(series) ?? 0} ${value}` }));
}

const BREAKERS: BreakerRef[] = [
  { id: 1, name: 'Payment Gateway', service: null },
  { id: 2, name: 'Pool', service: null },
  { id: 3, name: 'stock', service: 'checkout' },
];
const before = scrape([own('Payment Gateway', {}, []), own('Pool', { type: 'bulkhead', maxConcurrentCalls: 2 }, [])], [agent(0, 0, 0, 0)]);
const after = scrape(
  [
    // 96 calls ran (6 failed, slowly), 4 short-circuited
    own('Payment Gateway', {}, [
      ['success', 50, 90],
      ['failure', 2000, 6],
      ['short-circuited', 0, 4],
    ]),
    // 10 ran, 5 turned away by the full bulkhead
    own('Pool', { type: 'bulkhead', maxConcurrentCalls: 2 }, [
      ['success', 50, 10],
      ['bulkhead-rejected', 0, 5],
    ]),
  ],
  // 10 ran (1 failed, 1 timed out), 2 refused
  [agent(8, 1, 1, 2)],
);

/** promtool's reading of `expr` five minutes on, as the nearest whole number. */
function recorded(slo: SloDefinition, expr: string, value: number) {
  return testRules(prometheusRules(slo, { breakers: BREAKERS }), [
    {
      name: slo.name,
      input_series: inputSeries(before, after),
      interval: '5m',
      promql_expr_test: [{ expr: `round(sum(${expr}))`, eval_time: '5m', exp_samples: [{ value }] }],
    },
  ]);
}

const slo = (indicator: SloDefinition['indicator']): SloDefinition => ({ name: 'Payments', target: 99, window: '30d', indicator });

describe("the rules over the API's own /metrics", () => {
  it('count failed, timed-out, short-circuited and bulkhead-refused calls as bad, over hub and agent breakers', () => {
    // bad: 6 + 4 (gateway), 5 (pool), 2 + 2 (stock) = 19 of 100 + 15 + 12 = 127 calls
    const run = recorded(slo({ kind: 'breaker-calls', breakers: [1, 2, 3] }), 'slo:sli_error:ratio_rate5m * 127', 19);
    expect({ status: run.status, output: run.output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('count the calls that ran slower than the threshold as bad, from the histogram bucket the API writes', () => {
    // 6 of the 116 calls that ran took over a second; a bucket of whole seconds is written le="1"
    expect(after.has('cbh_circuitbreaker_call_duration_seconds_bucket{name="Payment Gateway",le="1"}')).toBe(true);
    const run = recorded(slo({ kind: 'breaker-latency', breakers: [1, 2, 3], thresholdMs: 1000 }), 'slo:sli_error:ratio_rate5m * 116', 6);
    expect({ status: run.status, output: run.output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });

  it("read the service's breakers by their service label", () => {
    const run = recorded(slo({ kind: 'breaker-calls', service: 'checkout' }), 'slo:sli_error:ratio_rate5m * 12', 4);
    expect({ status: run.status, output: run.output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });

  it("use the API's latency buckets", () => {
    expect(HUB_LATENCY_BUCKETS_SECONDS).toEqual(LATENCY_BUCKETS_SECONDS);
  });
});
