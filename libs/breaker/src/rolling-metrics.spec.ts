import { mergeWindows, RollingMetrics } from './rolling-metrics';

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

  it('merges windows bin by bin: the percentiles of all calls, not an average of percentiles', () => {
    const now = 1_700_000_000_000;
    const fast = new RollingMetrics();
    const slow = new RollingMetrics();
    // 99 fast calls on one replica, 1 very slow call on another: together p99 is fast, max is slow.
    for (let i = 0; i < 99; i++) fast.record('success', 10, now);
    slow.record('failure', 4000, now);
    const merged = mergeWindows([fast.snapshot(now), slow.snapshot(now)]);
    expect(merged.counts).toMatchObject({ success: 99, failure: 1 });
    expect(merged.total).toBe(100);
    expect(merged.latency.p99).toBeLessThanOrEqual(11);
    expect(merged.latency.max).toBe(4000);
    // averaging each replica's p99 would have said about 2 s
    expect((fast.totals(now).latency.p99 + slow.totals(now).latency.p99) / 2).toBeGreaterThan(2000);
    expect(merged.latency.mean).toBe(Math.round((99 * 10 + 4000) / 100));
    // a snapshot survives JSON, as it travels between replicas
    expect(mergeWindows([JSON.parse(JSON.stringify(fast.snapshot(now)))])).toEqual(fast.totals(now));
  });
});
