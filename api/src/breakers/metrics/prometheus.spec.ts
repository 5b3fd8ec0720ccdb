import { RollingMetrics } from '@cbh/breaker';
import type { BreakerSettings, BreakerStats } from '@cbh/contracts';
import { totalsOf, toStoredPeriod, windowOf } from '../fleet/instance-periods';
import { CallCounters } from './call-counters';
import { exposition } from '../../platform/observability/exposition';
import { breakerFamilies, type AgentInstance, type BreakerSeriesInput, type OwnBreaker } from './prometheus';

const NOW = 1_700_000_000_000;

function own(
  name: string,
  settings: Partial<BreakerSettings>,
  calls: [boolean, number][] = [],
  extra: Partial<OwnBreaker> = {},
): OwnBreaker {
  const window = new RollingMetrics();
  const counters = new CallCounters();
  for (const [ok, ms] of calls) {
    window.record(ok ? 'success' : 'failure', ms, NOW);
    counters.record(ok ? 'success' : 'failure', ms, NOW);
  }
  return {
    name,
    settings: { type: 'simple', failureThreshold: 5, timeout: 30_000, recoveryTime: 60_000, successThreshold: 3, ...settings },
    state: 'CLOSED',
    override: 'none',
    callsInFlight: 0,
    window: window.snapshot(NOW),
    counters: calls.length ? counters : undefined,
    ...extra,
  };
}

const input = (partial: Partial<BreakerSeriesInput>): BreakerSeriesInput => ({
  own: [],
  agents: null,
  agentsLeftOut: 0,
  cluster: [],
  replicas: 1,
  now: NOW,
  ...partial,
});

/** The samples of the text as `series value` lines, comments left out. */
const samples = (text: string) => text.split('\n').filter((line) => line && !line.startsWith('#'));
const value = (text: string, series: string) => {
  const line = samples(text).find((sample) => sample.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('/metrics breaker series', () => {
  it("writes one series per state of resilience4j's six, 1 for the breaker's, the overrides in their own states", () => {
    const text = exposition(
      breakerFamilies(
        input({
          own: [
            own('closed', {}),
            own('tripped', {}, [], { state: 'OPEN' }),
            own('forced', {}, [], { state: 'OPEN', override: 'forced-open' }),
            own('off', {}, [], { override: 'disabled' }),
            own('counting', {}, [], { override: 'forced-closed' }),
          ],
        }),
      ),
    );
    const current = samples(text)
      .filter((line) => line.startsWith('resilience4j_circuitbreaker_state{') && line.endsWith(' 1'))
      .map((line) => line.replace(/^resilience4j_circuitbreaker_state/, ''));
    expect(current).toEqual([
      '{name="closed",state="closed"} 1',
      '{name="tripped",state="open"} 1',
      '{name="forced",state="forced_open"} 1',
      '{name="off",state="disabled"} 1',
      '{name="counting",state="metrics_only"} 1',
    ]);
    expect(samples(text).filter((line) => line.startsWith('resilience4j_circuitbreaker_state{'))).toHaveLength(5 * 6);
    // no copy of a series under another label value
    expect(text).not.toMatch(/replica=/);
  });

  it('writes the calls as a timer and a counter by kind, the latencies as a histogram, and the rates -1 below the minimum of calls', () => {
    const calls: [boolean, number][] = [
      [true, 3],
      [true, 40],
      [false, 700],
      [true, 1500],
    ];
    const text = exposition(
      breakerFamilies(
        input({ own: [own('adaptive', { type: 'adaptive', minimumCalls: 4 }, calls), own('young', { type: 'adaptive' }, calls)] }),
      ),
    );
    expect(value(text, 'resilience4j_circuitbreaker_calls_seconds_count{name="adaptive",kind="successful"}')).toBe(3);
    expect(value(text, 'resilience4j_circuitbreaker_calls_seconds_sum{name="adaptive",kind="successful"}')).toBeCloseTo(1.543);
    expect(value(text, 'resilience4j_circuitbreaker_calls_seconds_count{name="adaptive",kind="failed"}')).toBe(1);
    expect(value(text, 'resilience4j_circuitbreaker_calls_seconds_count{name="adaptive",kind="ignored"}')).toBe(0);
    expect(value(text, 'resilience4j_circuitbreaker_calls_seconds_max{name="adaptive",kind="failed"}')).toBe(0.7);
    expect(value(text, 'resilience4j_circuitbreaker_calls_total{name="adaptive",kind="successful"}')).toBe(3);
    expect(value(text, 'resilience4j_circuitbreaker_buffered_calls{name="adaptive",kind="failed"}')).toBe(1);
    expect(value(text, 'resilience4j_circuitbreaker_failure_rate{name="adaptive"}')).toBe(25);
    // the 1.5 s call is slower than the default slow-call duration of 1 s
    expect(value(text, 'resilience4j_circuitbreaker_slow_call_rate{name="adaptive"}')).toBe(25);
    expect(value(text, 'resilience4j_circuitbreaker_max_buffered_calls{name="adaptive"}')).toBe(4);
    // 4 calls, fewer than the default minimum of 10
    expect(value(text, 'resilience4j_circuitbreaker_failure_rate{name="young"}')).toBe(-1);
    expect(value(text, 'resilience4j_circuitbreaker_slow_call_rate{name="young"}')).toBe(-1);
    expect(value(text, 'cbh_circuitbreaker_call_duration_seconds_bucket{name="adaptive",le="0.005"}')).toBe(1);
    expect(value(text, 'cbh_circuitbreaker_call_duration_seconds_bucket{name="adaptive",le="1"}')).toBe(3);
    expect(value(text, 'cbh_circuitbreaker_call_duration_seconds_bucket{name="adaptive",le="+Inf"}')).toBe(4);
    expect(value(text, 'cbh_circuitbreaker_call_duration_seconds_count{name="adaptive"}')).toBe(4);
    expect(text).toContain('# TYPE resilience4j_circuitbreaker_calls_seconds summary');
    expect(text).toContain('# TYPE cbh_circuitbreaker_call_duration_seconds histogram');
    expect(text).not.toMatch(/quantile=/);
  });

  it("writes a bulkhead's permissions, and its refused calls apart from the breaker's", () => {
    const pool = own('pool', { type: 'bulkhead', maxConcurrentCalls: 4 }, [], { callsInFlight: 3 });
    pool.counters = new CallCounters();
    pool.counters.record('bulkhead-rejected', 0, NOW);
    pool.counters.record('short-circuited', 0, NOW);
    const text = exposition(breakerFamilies(input({ own: [pool, own('plain', {})] })));
    expect(value(text, 'resilience4j_bulkhead_available_concurrent_calls{name="pool"}')).toBe(1);
    expect(value(text, 'resilience4j_bulkhead_max_allowed_concurrent_calls{name="pool"}')).toBe(4);
    expect(value(text, 'cbh_bulkhead_rejected_calls_total{name="pool"}')).toBe(1);
    expect(value(text, 'resilience4j_circuitbreaker_not_permitted_calls_total{name="pool",kind="not_permitted"}')).toBe(1);
    expect(text).not.toContain('resilience4j_bulkhead_available_concurrent_calls{name="plain"}');
  });

  it("writes each agent instance's breaker with its service and instance, only on the replica that writes them", () => {
    const period = toStoredPeriod(
      {
        successes: 8,
        failures: 1,
        timeouts: 1,
        rejections: 2,
        latencyHistogram: { boundsMs: [10, 100], counts: [6, 4, 0] },
        longestCallMs: 90,
      },
      NOW,
      1000,
    );
    const agent: AgentInstance = {
      service: 'checkout',
      name: 'payments',
      instance: 'checkout-1',
      state: 'OPEN',
      override: 'forced-open',
      window: windowOf([period], NOW).window,
      totals: totalsOf(period),
    };
    const writer = exposition(breakerFamilies(input({ agents: [agent] })));
    const labels = 'name="payments",service="checkout",instance="checkout-1"';
    expect(value(writer, `resilience4j_circuitbreaker_state{${labels},state="forced_open"}`)).toBe(1);
    expect(value(writer, `resilience4j_circuitbreaker_calls_seconds_count{${labels},kind="successful"}`)).toBe(8);
    expect(value(writer, `resilience4j_circuitbreaker_calls_seconds_count{${labels},kind="failed"}`)).toBe(2);
    expect(value(writer, `resilience4j_circuitbreaker_not_permitted_calls_total{${labels},kind="not_permitted"}`)).toBe(2);
    expect(value(writer, `resilience4j_circuitbreaker_failure_rate{${labels}}`)).toBe(20);
    // the agent's bins: 6 calls up to 10 ms, 4 up to 100 ms
    expect(value(writer, `cbh_circuitbreaker_call_duration_seconds_bucket{${labels},le="0.01"}`)).toBe(6);
    expect(value(writer, `cbh_circuitbreaker_call_duration_seconds_bucket{${labels},le="0.1"}`)).toBe(10);
    expect(value(writer, 'cbh_agent_series_writer')).toBe(1);

    const other = exposition(breakerFamilies(input({ agents: null })));
    expect(other).not.toContain('service="checkout"');
    expect(value(other, 'cbh_agent_series_writer')).toBe(0);
  });

  it("writes the cluster's view under names of its own", () => {
    const stats = { configId: 1, state: 'OPEN', override: 'none', errorPercentage: 50, requestsPerSecond: 2.5 } as BreakerStats;
    const text = exposition(breakerFamilies(input({ cluster: [{ name: 'hub', service: null, stats }], replicas: 3 })));
    expect(value(text, 'cbh_cluster_replicas')).toBe(3);
    expect(value(text, 'cbh_cluster_circuitbreaker_state{name="hub",state="open"}')).toBe(1);
    expect(value(text, 'cbh_cluster_circuitbreaker_error_percentage{name="hub"}')).toBe(50);
    expect(text).not.toContain('resilience4j_circuitbreaker_state{name="hub"');
  });

  it('escapes label values', () => {
    const text = exposition(breakerFamilies(input({ own: [own('a "quoted"\\name', {})] })));
    expect(text).toContain('resilience4j_circuitbreaker_state{name="a \\"quoted\\"\\\\name",state="closed"} 1');
  });
});
