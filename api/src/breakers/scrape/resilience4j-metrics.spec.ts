import { readResilience4jMetrics } from './resilience4j-metrics';
import { byName, get, stateSeries } from './resilience4j-metrics.test-kit';

/*
 * What the reader takes from each resilience4j and Micrometer version's metrics: states, rates, buffered and slow
 * calls, the calls timer and the not-permitted counter, under the names each version gave them. How it reads the
 * text format itself is in resilience4j-text-format.spec.ts; the period between two scrapes in
 * resilience4j-period-window.spec.ts.
 */

/**
 * An orders-service metric's samples in Micrometer's text, one per breaker (a value) or per breaker and kind (values
 * by kind): the values as strings, as Micrometer writes them.
 */
function samples(metric: string, values: Record<string, string | Record<string, string>>): string {
  return Object.entries(values)
    .flatMap(([name, value]) =>
      typeof value === 'string'
        ? [`${metric}{application="orders-service",name="${name}"} ${value}`]
        : Object.entries(value).map(([kind, sample]) => `${metric}{application="orders-service",kind="${kind}",name="${name}"} ${sample}`),
    )
    .join('\n');
}

/** The calls timer's count and sum of each breaker and kind, `[count, sum]`, each count next to its sum. */
function callsTimer(values: Record<string, Record<string, [string, string]>>): string {
  return Object.entries(values)
    .flatMap(([name, kinds]) =>
      Object.entries(kinds).map(([kind, [count, sum]]) =>
        [
          samples('resilience4j_circuitbreaker_calls_seconds_count', { [name]: { [kind]: count } }),
          samples('resilience4j_circuitbreaker_calls_seconds_sum', { [name]: { [kind]: sum } }),
        ].join('\n'),
      ),
    )
    .join('\n');
}

/** Spring Boot 3.4, resilience4j 2.2: six breakers, one in each state, among the JVM's own metrics. */
const SPRING_BOOT_3 = `# HELP jvm_memory_used_bytes The amount of used memory
# TYPE jvm_memory_used_bytes gauge
jvm_memory_used_bytes{application="orders-service",area="heap",id="G1 Eden Space"} 2.5165824E7
jvm_memory_used_bytes{application="orders-service",area="nonheap",id="Metaspace"} 6.1403136E7
# HELP http_server_requests_seconds
# TYPE http_server_requests_seconds summary
http_server_requests_seconds_count{application="orders-service",error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/orders"} 412
http_server_requests_seconds_sum{application="orders-service",error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/orders"} 3.918212
# HELP resilience4j_circuitbreaker_buffered_calls The number of buffered failed calls stored in the ring buffer
# TYPE resilience4j_circuitbreaker_buffered_calls gauge
${samples('resilience4j_circuitbreaker_buffered_calls', {
  payments: { failed: '3.0', successful: '7.0' },
  inventory: { failed: '60.0', successful: '40.0' },
  audit: { failed: '0.0', successful: '4.0' },
})}
# HELP resilience4j_circuitbreaker_calls_seconds Total number of successful calls
# TYPE resilience4j_circuitbreaker_calls_seconds summary
${callsTimer({
  payments: { failed: ['12', '6.0'], ignored: ['2', '0.1'], successful: ['86', '4.3'] },
  inventory: { failed: ['60', '1.2'], ignored: ['0', '0.0'], successful: ['40', '0.8'] },
})}
# HELP resilience4j_circuitbreaker_calls_seconds_max Total number of successful calls
# TYPE resilience4j_circuitbreaker_calls_seconds_max gauge
${samples('resilience4j_circuitbreaker_calls_seconds_max', {
  payments: { failed: '0.75', ignored: '0.05', successful: '0.25' },
  inventory: { failed: '0.0', ignored: '0.0', successful: '0.0' },
})}
# HELP resilience4j_circuitbreaker_failure_rate The failure rate of the circuit breaker
# TYPE resilience4j_circuitbreaker_failure_rate gauge
${samples('resilience4j_circuitbreaker_failure_rate', {
  payments: '30.0',
  inventory: '60.0',
  shipping: '50.0',
  fraud: '-1.0',
  legacy: '-1.0',
  audit: '-1.0',
})}
# HELP resilience4j_circuitbreaker_not_permitted_calls_total Total number of not permitted calls
# TYPE resilience4j_circuitbreaker_not_permitted_calls_total counter
${samples('resilience4j_circuitbreaker_not_permitted_calls_total', {
  payments: { not_permitted: '0.0' },
  inventory: { not_permitted: '317.0' },
  fraud: { not_permitted: '25.0' },
})}
# HELP resilience4j_circuitbreaker_slow_call_rate The slow call of the circuit breaker
# TYPE resilience4j_circuitbreaker_slow_call_rate gauge
${samples('resilience4j_circuitbreaker_slow_call_rate', { payments: '10.0', inventory: '0.0', audit: '-1.0' })}
# HELP resilience4j_circuitbreaker_slow_calls The number of slow successful which were slower than a certain threshold
# TYPE resilience4j_circuitbreaker_slow_calls gauge
${samples('resilience4j_circuitbreaker_slow_calls', { payments: { failed: '0.0', successful: '1.0' } })}
# HELP resilience4j_circuitbreaker_state The states of the circuit breaker
# TYPE resilience4j_circuitbreaker_state gauge
${stateSeries('payments', 'closed')}
${stateSeries('inventory', 'open')}
${stateSeries('shipping', 'half_open')}
${stateSeries('fraud', 'forced_open')}
${stateSeries('legacy', 'disabled')}
${stateSeries('audit', 'metrics_only')}
# HELP resilience4j_retry_calls_total The number of successful calls without a retry attempt
# TYPE resilience4j_retry_calls_total counter
resilience4j_retry_calls_total{application="orders-service",kind="successful_without_retry",name="payments"} 80.0
`;

/**
 * Spring Boot 2.3, resilience4j 1.4 (Prometheus simpleclient): a comma after the last label, doubles everywhere,
 * and the not-permitted calls as a counter under the calls timer's name.
 */
const SPRING_BOOT_2 = `# HELP resilience4j_circuitbreaker_calls_seconds Total number of successful calls
# TYPE resilience4j_circuitbreaker_calls_seconds summary
resilience4j_circuitbreaker_calls_seconds_count{kind="successful",name="backendA",} 5.0
resilience4j_circuitbreaker_calls_seconds_sum{kind="successful",name="backendA",} 0.5
resilience4j_circuitbreaker_calls_seconds_count{kind="failed",name="backendA",} 3.0
resilience4j_circuitbreaker_calls_seconds_sum{kind="failed",name="backendA",} 0.3
# HELP resilience4j_circuitbreaker_calls_seconds_max Total number of successful calls
# TYPE resilience4j_circuitbreaker_calls_seconds_max gauge
resilience4j_circuitbreaker_calls_seconds_max{kind="successful",name="backendA",} 0.2
resilience4j_circuitbreaker_calls_seconds_max{kind="failed",name="backendA",} 0.1
# HELP resilience4j_circuitbreaker_calls_total Total number of not permitted calls
# TYPE resilience4j_circuitbreaker_calls_total counter
resilience4j_circuitbreaker_calls_total{kind="not_permitted",name="backendA",} 9.0
# HELP resilience4j_circuitbreaker_state The states of the circuit breaker
# TYPE resilience4j_circuitbreaker_state gauge
resilience4j_circuitbreaker_state{name="backendA",state="closed",} 0.0
resilience4j_circuitbreaker_state{name="backendA",state="disabled",} 0.0
resilience4j_circuitbreaker_state{name="backendA",state="open",} 1.0
resilience4j_circuitbreaker_state{name="backendA",state="forced_open",} 0.0
resilience4j_circuitbreaker_state{name="backendA",state="half_open",} 0.0
resilience4j_circuitbreaker_state{name="backendA",state="metrics_only",} 0.0
# HELP resilience4j_circuitbreaker_failure_rate The failure rate of the circuit breaker
# TYPE resilience4j_circuitbreaker_failure_rate gauge
resilience4j_circuitbreaker_failure_rate{name="backendA",} 37.5
`;

describe('readResilience4jMetrics', () => {
  const breakers = byName(SPRING_BOOT_3);

  it('reads one breaker per name, sorted, and nothing of the other metrics', () => {
    expect([...breakers.keys()]).toEqual(['audit', 'fraud', 'inventory', 'legacy', 'payments', 'shipping']);
    expect(readResilience4jMetrics(SPRING_BOOT_3).truncated).toBe(false);
  });

  it.each([
    ['payments', 'closed', 'CLOSED', 'none'],
    ['inventory', 'open', 'OPEN', 'none'],
    ['shipping', 'half_open', 'HALF_OPEN', 'none'],
    ['fraud', 'forced_open', 'OPEN', 'forced-open'],
    ['legacy', 'disabled', 'CLOSED', 'disabled'],
    ['audit', 'metrics_only', 'CLOSED', 'none'],
  ])('maps %s in state %s to %s with override %s', (name, raw, state, override) => {
    expect(get(breakers, name)).toMatchObject({ resilience4jState: raw, state, override });
  });

  it('reads the rates, null while below the minimum number of calls or absent', () => {
    expect(get(breakers, 'payments')).toMatchObject({ failureRate: 30, slowCallRate: 10 });
    expect(get(breakers, 'inventory')).toMatchObject({ failureRate: 60, slowCallRate: 0 });
    expect(get(breakers, 'audit')).toMatchObject({ failureRate: null, slowCallRate: null });
    expect(get(breakers, 'shipping')).toMatchObject({ failureRate: 50, slowCallRate: null });
  });

  it('sums the buffered and slow calls over their kinds', () => {
    expect(get(breakers, 'payments')).toMatchObject({ bufferedCalls: 10, slowCalls: 1, maxBufferedCalls: null });
    expect(get(breakers, 'inventory')).toMatchObject({ bufferedCalls: 100, slowCalls: 0 });
    expect(get(breakers, 'legacy')).toMatchObject({ bufferedCalls: 0, slowCalls: 0 });
  });

  it('reads the calls timer by kind and the not-permitted counter', () => {
    expect(get(breakers, 'payments')).toMatchObject({
      notPermittedCalls: 0,
      calls: {
        successful: { count: 86, sumSeconds: 4.3, maxSeconds: 0.25 },
        failed: { count: 12, sumSeconds: 6, maxSeconds: 0.75 },
        ignored: { count: 2, sumSeconds: 0.1, maxSeconds: 0.05 },
      },
      labelSets: 1,
    });
    expect(get(breakers, 'inventory').notPermittedCalls).toBe(317);
    expect(get(breakers, 'fraud')).toMatchObject({
      notPermittedCalls: 25,
      calls: { successful: { count: 0, sumSeconds: 0, maxSeconds: 0 } },
    });
  });

  it('reads the simpleclient text of Spring Boot 2 and resilience4j before 1.5', () => {
    const old = get(byName(SPRING_BOOT_2), 'backendA');
    expect(old).toMatchObject({
      state: 'OPEN',
      override: 'none',
      failureRate: 37.5,
      slowCallRate: null,
      notPermittedCalls: 9,
      calls: { successful: { count: 5, sumSeconds: 0.5, maxSeconds: 0.2 }, failed: { count: 3, sumSeconds: 0.3, maxSeconds: 0.1 } },
    });
  });

  it("reads resilience4j 1.5.0's not-permitted counter, whose default name lacked a dot", () => {
    const text = `${stateSeries('a', 'closed', null)}
# TYPE resilience4j_circuitbreakernot_permitted_calls_total counter
resilience4j_circuitbreakernot_permitted_calls_total{kind="not_permitted",name="a",} 4.0
`;
    expect(get(byName(text), 'a').notPermittedCalls).toBe(4);
  });

  it('reads the ring buffer size of resilience4j before 1.0', () => {
    const text = `${stateSeries('a', 'half_open', null)}
# TYPE resilience4j_circuitbreaker_max_buffered_calls gauge
resilience4j_circuitbreaker_max_buffered_calls{name="a",} 10.0
`;
    expect(get(byName(text), 'a')).toMatchObject({ state: 'HALF_OPEN', maxBufferedCalls: 10 });
  });

  it('counts calls from a bare calls counter where there is no timer, and prefers the timer', () => {
    const text = `${stateSeries('a', 'closed', null)}
# TYPE resilience4j_circuitbreaker_calls_total counter
resilience4j_circuitbreaker_calls_total{kind="successful",name="a"} 7.0
resilience4j_circuitbreaker_calls_total{kind="failed",name="a"} 2.0
# TYPE resilience4j_circuitbreaker_calls_seconds summary
resilience4j_circuitbreaker_calls_seconds_count{kind="failed",name="a"} 3
resilience4j_circuitbreaker_calls_seconds_sum{kind="failed",name="a"} 0.3
`;
    expect(get(byName(text), 'a').calls).toEqual({
      successful: { count: 7, sumSeconds: 0, maxSeconds: 0 },
      failed: { count: 3, sumSeconds: 0.3, maxSeconds: 0 },
      ignored: { count: 0, sumSeconds: 0, maxSeconds: 0 },
    });
  });
});
