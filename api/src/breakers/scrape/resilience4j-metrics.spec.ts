import { startResilience4jEndpoint, type Resilience4jEndpoint } from '../../../test/resilience4j-endpoint';
import { MAX_SCRAPED_BREAKERS, periodWindow, readResilience4jMetrics, type ScrapedBreaker } from './resilience4j-metrics';

/**
 * The six state series resilience4j writes for one breaker, the given one at 1 (Micrometer 1.13+ text: labels
 * sorted), tagged with the application unless it is null.
 */
function stateSeries(name: string, current: string, application: string | null = 'orders-service') {
  const tag = application === null ? '' : `application="${application}",`;
  return ['disabled', 'metrics_only', 'closed', 'open', 'forced_open', 'half_open']
    .map((state) => `resilience4j_circuitbreaker_state{${tag}name="${name}",state="${state}"} ${state === current ? '1.0' : '0.0'}`)
    .join('\n');
}

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

const byName = (text: string) => new Map(readResilience4jMetrics(text).breakers.map((breaker) => [breaker.name, breaker]));

function get(breakers: Map<string, ScrapedBreaker>, name: string): ScrapedBreaker {
  const breaker = breakers.get(name);
  if (!breaker) throw new Error(`no breaker ${name} among ${[...breakers.keys()].join(', ')}`);
  return breaker;
}

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

  it('reads series without TYPE lines, and the timer whatever order its count and sum come in', () => {
    const text = `resilience4j_circuitbreaker_state{name="a",state="open"} 1
resilience4j_circuitbreaker_calls_seconds_sum{kind="successful",name="a"} 2.5
resilience4j_circuitbreaker_calls_seconds_count{kind="failed",name="a"} 1
resilience4j_circuitbreaker_calls_seconds_count{kind="successful",name="a"} 5
resilience4j_circuitbreaker_failure_rate{name="a"} 16.6
`;
    expect(get(byName(text), 'a')).toMatchObject({
      state: 'OPEN',
      failureRate: 16.6,
      calls: { successful: { count: 5, sumSeconds: 2.5 }, failed: { count: 1, sumSeconds: 0 } },
    });
  });

  it('keeps the calls of a timer that publishes percentiles or a histogram', () => {
    const text = `${stateSeries('a', 'closed')}
# TYPE resilience4j_circuitbreaker_calls_seconds summary
resilience4j_circuitbreaker_calls_seconds{application="orders-service",kind="successful",name="a",quantile="0.5"} 0.01
resilience4j_circuitbreaker_calls_seconds{application="orders-service",kind="successful",name="a",quantile="0.99"} 0.2
resilience4j_circuitbreaker_calls_seconds_count{application="orders-service",kind="successful",name="a"} 40
resilience4j_circuitbreaker_calls_seconds_sum{application="orders-service",kind="successful",name="a"} 1.6
# TYPE http_server_requests_seconds histogram
http_server_requests_seconds_bucket{uri="/orders",le="0.1"} 3
http_server_requests_seconds_bucket{uri="/orders",le="+Inf"} 4
http_server_requests_seconds_count{uri="/orders"} 4
http_server_requests_seconds_sum{uri="/orders"} 0.9
`;
    expect(get(byName(text), 'a').calls.successful).toEqual({ count: 40, sumSeconds: 1.6, maxSeconds: 0 });
  });

  it('keys a breaker by name alone: several applications behind one endpoint sum their counters, the first state read gives the gauges', () => {
    const text = `# TYPE resilience4j_circuitbreaker_state gauge
${stateSeries('payments', 'open', 'orders-service')}
${stateSeries('payments', 'closed', 'billing-service')}
# TYPE resilience4j_circuitbreaker_failure_rate gauge
resilience4j_circuitbreaker_failure_rate{application="billing-service",name="payments"} 5.0
resilience4j_circuitbreaker_failure_rate{application="orders-service",name="payments"} 70.0
# TYPE resilience4j_circuitbreaker_buffered_calls gauge
resilience4j_circuitbreaker_buffered_calls{application="billing-service",kind="failed",name="payments"} 1.0
resilience4j_circuitbreaker_buffered_calls{application="billing-service",kind="successful",name="payments"} 19.0
resilience4j_circuitbreaker_buffered_calls{application="orders-service",kind="failed",name="payments"} 7.0
resilience4j_circuitbreaker_buffered_calls{application="orders-service",kind="successful",name="payments"} 3.0
# TYPE resilience4j_circuitbreaker_calls_seconds summary
resilience4j_circuitbreaker_calls_seconds_count{application="orders-service",kind="successful",name="payments"} 30
resilience4j_circuitbreaker_calls_seconds_sum{application="orders-service",kind="successful",name="payments"} 3.0
resilience4j_circuitbreaker_calls_seconds_count{application="billing-service",kind="successful",name="payments"} 10
resilience4j_circuitbreaker_calls_seconds_sum{application="billing-service",kind="successful",name="payments"} 0.5
# TYPE resilience4j_circuitbreaker_calls_seconds_max gauge
resilience4j_circuitbreaker_calls_seconds_max{application="orders-service",kind="successful",name="payments"} 0.3
resilience4j_circuitbreaker_calls_seconds_max{application="billing-service",kind="successful",name="payments"} 0.9
# TYPE resilience4j_circuitbreaker_not_permitted_calls_total counter
resilience4j_circuitbreaker_not_permitted_calls_total{application="orders-service",kind="not_permitted",name="payments"} 4.0
resilience4j_circuitbreaker_not_permitted_calls_total{application="billing-service",kind="not_permitted",name="payments"} 1.0
`;
    const { breakers: read } = readResilience4jMetrics(text);
    expect(read).toHaveLength(1);
    expect(read[0]).toMatchObject({
      name: 'payments',
      state: 'OPEN',
      failureRate: 70,
      bufferedCalls: 10,
      notPermittedCalls: 5,
      calls: { successful: { count: 40, sumSeconds: 3.5, maxSeconds: 0.9 } },
      labelSets: 2,
    });
  });

  it('takes NaN and infinite values as unreadable figures', () => {
    const text = `${stateSeries('a', 'closed', null)}
resilience4j_circuitbreaker_failure_rate{name="a"} NaN
resilience4j_circuitbreaker_slow_call_rate{name="a"} +Inf
resilience4j_circuitbreaker_buffered_calls{kind="successful",name="a"} NaN
resilience4j_circuitbreaker_buffered_calls{kind="failed",name="a"} 2.0
resilience4j_circuitbreaker_calls_seconds_count{kind="successful",name="a"} +Inf
resilience4j_circuitbreaker_calls_seconds_max{kind="successful",name="a"} -Inf
resilience4j_circuitbreaker_not_permitted_calls_total{kind="not_permitted",name="a"} 3.0
`;
    expect(get(byName(text), 'a')).toMatchObject({
      failureRate: null,
      slowCallRate: null,
      bufferedCalls: 2,
      notPermittedCalls: 3,
      calls: { successful: { count: 0, sumSeconds: 0, maxSeconds: 0 } },
    });
  });

  it('leaves out names without a state, with an unknown state, or that the hub cannot store', () => {
    const text = `${stateSeries('a', 'closed')}
resilience4j_circuitbreaker_failure_rate{name="stateless"} 10.0
resilience4j_circuitbreaker_state{name="future",state="forced_half_closed"} 1.0
resilience4j_circuitbreaker_state{name="",state="closed"} 1.0
resilience4j_circuitbreaker_state{state="closed"} 1.0
resilience4j_circuitbreaker_state{name="${'x'.repeat(201)}",state="closed"} 1.0
resilience4j_circuitbreaker_state{name="${'y'.repeat(200)}",state="closed"} 1.0
`;
    expect([...byName(text).keys()]).toEqual(['a', 'y'.repeat(200)]);
  });

  it("reads Micrometer's blank HELP lines of meters without description", () => {
    const text =
      '# HELP resilience4j_circuitbreaker_state  \n' +
      '# TYPE resilience4j_circuitbreaker_state gauge\n' +
      'resilience4j_circuitbreaker_state{name="a",state="open"} 1.0\n' +
      '# HELP orders_created_total  \n' +
      '# TYPE orders_created_total counter\n' +
      'orders_created_total{channel="web"} 1.0\n';
    expect(get(byName(text), 'a').state).toBe('OPEN');
  });

  it('reads the OpenMetrics text too', () => {
    const text = `# TYPE resilience4j_circuitbreaker_not_permitted_calls counter
# HELP resilience4j_circuitbreaker_not_permitted_calls Total number of not permitted calls
resilience4j_circuitbreaker_not_permitted_calls_total{kind="not_permitted",name="a"} 6.0
resilience4j_circuitbreaker_not_permitted_calls_created{kind="not_permitted",name="a"} 1.7e9
# TYPE resilience4j_circuitbreaker_state gauge
# HELP resilience4j_circuitbreaker_state The states of the circuit breaker
resilience4j_circuitbreaker_state{name="a",state="half_open"} 1.0
# EOF
`;
    expect(get(byName(text), 'a')).toMatchObject({ state: 'HALF_OPEN', notPermittedCalls: 6 });
  });

  it('takes every line starting with # for a comment', () => {
    const text = '#no space after the hash\n  # indented\n# EOF\nresilience4j_circuitbreaker_state{name="a",state="closed"} 1\n';
    expect([...byName(text).keys()]).toEqual(['a']);
  });

  it('unescapes label values', () => {
    const text = 'resilience4j_circuitbreaker_state{name="say \\"hi\\" \\\\ there",state="open"} 1.0\n';
    expect([...byName(text).keys()]).toEqual(['say "hi" \\ there']);
  });

  it('reads an exposition without breakers as none, and an empty one too', () => {
    expect(readResilience4jMetrics('')).toEqual({ breakers: [], truncated: false });
    expect(readResilience4jMetrics('# HELP up Up\n# TYPE up gauge\nup 1\n')).toEqual({ breakers: [], truncated: false });
    expect(readResilience4jMetrics('up 1\r\nprocess_uptime_seconds 12.5\r\n')).toEqual({ breakers: [], truncated: false });
  });

  it.each([
    ['an HTML login page', '<!DOCTYPE html>\n<html><head><title>Please sign in</title></head></html>'],
    ['JSON', '{"status":"UP","components":{"diskSpace":{"status":"UP"}}}'],
    ['words', 'hello world'],
    ['a sample without value', 'resilience4j_circuitbreaker_state{name="a",state="open"}'],
    ['a value that is no number', 'resilience4j_circuitbreaker_state{name="a",state="open"} one'],
    ['a broken TYPE line', '# TYPE resilience4j_circuitbreaker_state gauge extra\n'],
    ['an unquoted label value', 'resilience4j_circuitbreaker_state{name=a} 1'],
    ['a body cut off inside the labels', 'up 1\nresilience4j_circuitbreaker_state{name="a",sta'],
    ['a sample without name', 'up 1\n{name="a",state="open"} 1\n'],
  ])('refuses %s', (_what, text) => {
    expect(() => readResilience4jMetrics(text)).toThrow(/^not Prometheus text format: /);
  });

  it(`reads at most ${MAX_SCRAPED_BREAKERS} breakers, the first by name, and says it left some out`, () => {
    const names = (count: number) => Array.from({ length: count }, (_, i) => `cb-${String(count - i).padStart(4, '0')}`);
    const text = (count: number) =>
      names(count)
        .map((name) => stateSeries(name, 'closed'))
        .join('\n');

    const over = readResilience4jMetrics(text(MAX_SCRAPED_BREAKERS + 5));
    expect(over.truncated).toBe(true);
    expect(over.breakers).toHaveLength(MAX_SCRAPED_BREAKERS);
    expect(over.breakers[0]?.name).toBe('cb-0001');
    expect(over.breakers.at(-1)?.name).toBe(`cb-${String(MAX_SCRAPED_BREAKERS).padStart(4, '0')}`);

    const exactly = readResilience4jMetrics(text(MAX_SCRAPED_BREAKERS));
    expect(exactly.truncated).toBe(false);
    expect(exactly.breakers).toHaveLength(MAX_SCRAPED_BREAKERS);
  });
});

function scraped(
  calls: Partial<Record<'successful' | 'failed' | 'ignored', [number, number, number?]>>,
  more: Partial<ScrapedBreaker> = {},
): ScrapedBreaker {
  const timer = (entry?: [number, number, number?]) => ({
    count: entry?.[0] ?? 0,
    sumSeconds: entry?.[1] ?? 0,
    maxSeconds: entry?.[2] ?? 0,
  });
  return {
    name: 'payments',
    state: 'CLOSED',
    override: 'none',
    resilience4jState: 'closed',
    failureRate: null,
    slowCallRate: null,
    bufferedCalls: 0,
    maxBufferedCalls: null,
    slowCalls: 0,
    notPermittedCalls: 0,
    calls: { successful: timer(calls.successful), failed: timer(calls.failed), ignored: timer(calls.ignored) },
    labelSets: 1,
    ...more,
  };
}

describe('periodWindow', () => {
  it('takes the increase of every counter between two scrapes', () => {
    const before = scraped({ successful: [100, 5], failed: [10, 2], ignored: [1, 0.1] }, { notPermittedCalls: 4 });
    const after = scraped(
      { successful: [130, 6.5, 0.25], failed: [20, 4, 0.4], ignored: [1, 0.1, 0.05] },
      { notPermittedCalls: 9, bufferedCalls: 100, slowCalls: 10 },
    );
    expect(periodWindow(before, after, 10_000)).toEqual({
      successes: 30,
      failures: 10,
      ignored: 0,
      rejections: 5,
      // a tenth of the window is slow: a tenth of the period's 40 calls
      slowCalls: 4,
      longestCallMs: 400,
      // 3.5 s over 40 calls
      meanMs: 87.5,
      requestsPerSecond: 4.5,
    });
  });

  it('counts from zero the counters that went down, as after a restart', () => {
    const before = scraped({ successful: [500, 50], failed: [40, 8] }, { notPermittedCalls: 90 });
    const after = scraped({ successful: [12, 1.2, 0.2], failed: [50, 9] }, { notPermittedCalls: 3 });
    const window = periodWindow(before, after, 5000);
    expect(window).toMatchObject({ successes: 12, failures: 10, rejections: 3 });
    expect(window.meanMs).toBeCloseTo(((1.2 + 1) / 22) * 1000, 3);
  });

  it('takes a timer whose sum went down though its count did not as restarted', () => {
    const before = scraped({ successful: [10, 9] });
    const after = scraped({ successful: [10, 0.5] });
    expect(periodWindow(before, after, 1000)).toMatchObject({ successes: 10, meanMs: 50 });
  });

  it("sets the baseline at a breaker's first scrape", () => {
    const first = scraped({ successful: [1000, 20, 0.3] }, { notPermittedCalls: 50, bufferedCalls: 10, slowCalls: 10 });
    expect(periodWindow(undefined, first, 15_000)).toEqual({
      successes: 0,
      failures: 0,
      ignored: 0,
      rejections: 0,
      slowCalls: 0,
      longestCallMs: 0,
      meanMs: null,
      requestsPerSecond: 0,
    });
  });

  it('reports no slowest call when none ran, whatever the decaying max still says', () => {
    const before = scraped({ successful: [10, 1, 0.9] }, { notPermittedCalls: 2 });
    const after = scraped({ successful: [10, 1, 0.9] }, { notPermittedCalls: 7 });
    expect(periodWindow(before, after, 0)).toMatchObject({
      successes: 0,
      rejections: 5,
      longestCallMs: 0,
      meanMs: null,
      requestsPerSecond: 0,
    });
  });
});

describe('a resilience4j endpoint over HTTP', () => {
  let endpoint: Resilience4jEndpoint;
  const scrape = async (token?: string) => {
    const response = await fetch(endpoint.url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    return { status: response.status, text: await response.text(), contentType: response.headers.get('content-type') };
  };
  const read = async (token?: string) => byName((await scrape(token)).text);

  beforeEach(async () => {
    endpoint = await startResilience4jEndpoint({
      bearerToken: 's3cret',
      breakers: [
        { name: 'payments', minimumNumberOfCalls: 10, slowCallDurationThresholdMs: 500 },
        { name: 'inventory', state: 'open' },
      ],
    });
  });
  afterEach(() => endpoint.close());

  it('refuses a request without the bearer token, or with another', async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape('wrong')).status).toBe(401);
    expect(endpoint.requests).toEqual({ count: 2, lastAuthorization: 'Bearer wrong' });
    const ok = await scrape('s3cret');
    expect(ok.status).toBe(200);
    expect(ok.contentType).toBe('text/plain;version=0.0.4;charset=utf-8');
    expect(endpoint.requests).toEqual({ count: 3, lastAuthorization: 'Bearer s3cret' });
  });

  it('serves what the reader reads, and follows the calls the test records', async () => {
    const first = await read('s3cret');
    expect([...first.keys()]).toEqual(['inventory', 'payments']);
    expect(get(first, 'inventory')).toMatchObject({ state: 'OPEN', override: 'none', resilience4jState: 'open' });
    expect(get(first, 'payments')).toMatchObject({ state: 'CLOSED', failureRate: null, slowCallRate: null, bufferedCalls: 0 });

    endpoint.recordCalls('payments', { successful: 6, failed: 2, durationMs: 100 });
    endpoint.recordCalls('payments', { successful: 1, failed: 1, ignored: 3, durationMs: 800 });
    endpoint.recordCalls('inventory', { notPermitted: 12 });
    const second = await read('s3cret');
    const payments = get(second, 'payments');
    expect(payments).toMatchObject({
      failureRate: 30,
      slowCallRate: 20,
      bufferedCalls: 10,
      slowCalls: 2,
      calls: {
        successful: { count: 7, maxSeconds: 0.8 },
        failed: { count: 3, maxSeconds: 0.8 },
        ignored: { count: 3, maxSeconds: 0.8 },
      },
    });
    expect(payments.calls.successful.sumSeconds).toBeCloseTo(1.4, 9);
    expect(get(second, 'inventory').notPermittedCalls).toBe(12);

    const window = periodWindow(get(first, 'payments'), payments, 2000);
    expect(window).toMatchObject({ successes: 7, failures: 3, ignored: 3, rejections: 0, slowCalls: 2, longestCallMs: 800 });
    // 1.4 s successful, 1.0 s failed, 2.4 s ignored over 13 calls
    expect(window.meanMs).toBeCloseTo(((1.4 + 1.0 + 2.4) / 13) * 1000, 3);
    expect(periodWindow(get(first, 'inventory'), get(second, 'inventory'), 2000).rejections).toBe(12);
  });

  it('shows every state the test sets, and a restart as counters from zero', async () => {
    endpoint.recordCalls('payments', { successful: 40 });
    const before = get(await read('s3cret'), 'payments');
    for (const [state, words] of [
      ['forced_open', { state: 'OPEN', override: 'forced-open' }],
      ['disabled', { state: 'CLOSED', override: 'disabled' }],
      ['metrics_only', { state: 'CLOSED', override: 'none' }],
      ['half_open', { state: 'HALF_OPEN', override: 'none' }],
    ] as const) {
      endpoint.setBreaker('payments', { state });
      expect(get(await read('s3cret'), 'payments')).toMatchObject({ ...words, resilience4jState: state });
    }

    endpoint.restart();
    endpoint.recordCalls('payments', { successful: 4 });
    const after = get(await read('s3cret'), 'payments');
    expect(periodWindow(before, after, 1000)).toMatchObject({ successes: 4, failures: 0 });
  });

  it('answers as the test sets it, which the reader refuses when it is no exposition', async () => {
    endpoint.respondWith({ status: 200, body: '<html><body>Whitelabel Error Page</body></html>', contentType: 'text/html' });
    const page = await scrape('s3cret');
    expect(page.status).toBe(200);
    expect(() => readResilience4jMetrics(page.text)).toThrow(/^not Prometheus text format: /);
    endpoint.respondWith({ status: 503 });
    expect((await scrape('s3cret')).status).toBe(503);
    endpoint.respondWith(null);
    expect((await scrape('s3cret')).status).toBe(200);
  });
});
