import { MAX_SCRAPED_BREAKERS, readResilience4jMetrics } from './resilience4j-metrics';
import { byName, get, stateSeries } from './resilience4j-metrics.test-kit';

/*
 * How the reader reads the Prometheus text format whatever writes it: series in any order or without TYPE lines,
 * timers with percentiles, several applications behind one endpoint, unreadable values, comments, escapes,
 * OpenMetrics, what it refuses as no exposition at all, and how many breakers it keeps.
 */

describe('readResilience4jMetrics', () => {
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
