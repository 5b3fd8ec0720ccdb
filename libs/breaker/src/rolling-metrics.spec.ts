import { RollingMetrics } from './rolling-metrics';

describe('rolling metrics', () => {
  it('counts outcomes and measures latency percentiles over the last 10 seconds', () => {
    const metrics = new RollingMetrics();
    const now = 1_700_000_000_000;
    for (let i = 1; i <= 100; i++) metrics.record(i <= 90 ? 'success' : 'failure', i, now);
    metrics.record('short-circuited', 0, now);
    metrics.record('bulkhead-rejected', 0, now);
    metrics.record('timeout', 5000, now);
    const totals = metrics.totals(now);
    expect(totals.counts).toEqual({ success: 90, failure: 10, timeout: 1, 'short-circuited': 1, 'bulkhead-rejected': 1 });
    expect(totals.total).toBe(103);
    // Histogram bins are 1/8 of a doubling wide: a percentile is within 9 % above the true value.
    expect(totals.latency.p50).toBeGreaterThanOrEqual(50);
    expect(totals.latency.p50).toBeLessThanOrEqual(55);
    expect(totals.latency.p90).toBeGreaterThanOrEqual(90);
    expect(totals.latency.p90).toBeLessThanOrEqual(99);
    expect(totals.latency.max).toBe(5000);
    // (1 + … + 100 + 5000) / 101 calls that ran; rejected calls have no latency.
    expect(totals.latency.mean).toBe(Math.round((5050 + 5000) / 101));
  });

  it('forgets seconds that left the window', () => {
    const metrics = new RollingMetrics();
    const now = 1_700_000_000_000;
    metrics.record('failure', 10, now);
    metrics.record('success', 10, now + 9_000);
    expect(metrics.totals(now + 9_000).total).toBe(2);
    expect(metrics.totals(now + 10_000).counts).toMatchObject({ failure: 0, success: 1 });
    metrics.record('success', 10, now + 20_000);
    expect(metrics.totals(now + 20_000).total).toBe(1);
  });
});
