import { AGENT_PROTOCOL_LIMITS } from '@cbh/contracts';
import { DEFAULT_LATENCY_BOUNDS_MS, RollingWindow } from './rolling-window';

describe('RollingWindow', () => {
  it('counts each outcome, bins the latencies by their bounds and keeps the longest call', () => {
    const window = new RollingWindow([10, 100, 1000]);
    window.record('success', 0);
    window.record('success', 10); // at a bound: that bound's bin
    window.record('failure', 11);
    window.record('timeout', 1000);
    window.record('success', 5000); // above every bound: the overflow bin
    window.record('rejection', 0); // did not run: no latency
    expect(window.drain()).toEqual({
      successes: 3,
      failures: 1,
      timeouts: 1,
      rejections: 1,
      latencyHistogram: { boundsMs: [10, 100, 1000], counts: [2, 1, 1, 1] },
      longestCallMs: 5000,
    });
  });

  it('starts a new period at each drain', () => {
    const window = new RollingWindow();
    window.record('failure', 42);
    window.drain();
    const next = window.drain();
    expect(next).toMatchObject({ successes: 0, failures: 0, timeouts: 0, rejections: 0, longestCallMs: 0 });
    expect(next.latencyHistogram.counts).toEqual(new Array(DEFAULT_LATENCY_BOUNDS_MS.length + 1).fill(0));
  });

  it('counts slow calls only when it has a slow-call duration', () => {
    const window = new RollingWindow([100], 50);
    window.record('success', 50);
    window.record('success', 51);
    window.record('failure', 200);
    expect(window.drain().slowCalls).toBe(2);
    expect(new RollingWindow([100]).drain()).not.toHaveProperty('slowCalls');
  });

  it('refuses more bins than the protocol allows, and bounds that do not increase', () => {
    const bounds = Array.from({ length: AGENT_PROTOCOL_LIMITS.histogramBins }, (_, i) => i + 1);
    expect(() => new RollingWindow(bounds)).toThrow(/at most 32 bins/);
    expect(() => new RollingWindow(bounds.slice(1))).not.toThrow();
    expect(() => new RollingWindow([10, 10])).toThrow(/increase/);
  });

  it('keeps its memory fixed however many calls it counts', () => {
    const window = new RollingWindow();
    for (let i = 0; i < 100_000; i++) window.record(i % 7 === 0 ? 'failure' : 'success', i % 3000);
    const drained = window.drain();
    expect(drained.latencyHistogram.counts.reduce((sum, count) => sum + count, 0)).toBe(100_000);
    expect(drained.latencyHistogram.counts).toHaveLength(DEFAULT_LATENCY_BOUNDS_MS.length + 1);
    expect(drained.longestCallMs).toBe(2999);
  });
});
