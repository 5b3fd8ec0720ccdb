import { startResilience4jEndpoint, type Resilience4jEndpoint } from '../../../test/resilience4j-endpoint';
import { periodWindow, readResilience4jMetrics, type ScrapedBreaker } from './resilience4j-metrics';
import { byName, get } from './resilience4j-metrics.test-kit';

/*
 * What a breaker did between two scrapes, from the counters of each (periodWindow), and the same read over HTTP off
 * the test's resilience4j endpoint, as the scraper reads a service's.
 */

/** A closed breaker as a scrape reads it, its calls timer's `[count, sum, max]` by kind, the rest from `more`. */
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
