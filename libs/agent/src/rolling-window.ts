import { AGENT_PROTOCOL_LIMITS, type AgentWindow } from '@cbh/contracts';

/** What became of one call through a breaker. */
export type CallOutcome = 'success' | 'failure' | 'timeout' | 'rejection';

/** The histogram's bounds when none are given: 1 ms to 10 s, then the overflow bin (15 bins). */
export const DEFAULT_LATENCY_BOUNDS_MS: readonly number[] = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000];

/**
 * One breaker's calls since the last drain(): counts per outcome, a latency histogram with fixed bounds, the
 * longest call. Its memory is fixed when it is made (typed arrays); record() allocates nothing and costs O(1)
 * (at most 31 bounds to compare); drain() hands over the period and starts the next.
 */
export class RollingWindow {
  readonly boundsMs: readonly number[];
  private readonly bounds: Float64Array;
  private readonly counts: Uint32Array;
  private successes = 0;
  private failures = 0;
  private timeouts = 0;
  private rejections = 0;
  private slowCalls = 0;
  private longestCallMs = 0;

  /** slowCallMs: calls slower than this are also counted as slow (the window then reports slowCalls). */
  constructor(
    boundsMs: readonly number[] = DEFAULT_LATENCY_BOUNDS_MS,
    public slowCallMs?: number,
  ) {
    if (boundsMs.length + 1 > AGENT_PROTOCOL_LIMITS.histogramBins) {
      throw new RangeError(`a latency histogram has at most ${AGENT_PROTOCOL_LIMITS.histogramBins} bins (${boundsMs.length + 1} asked)`);
    }
    for (let i = 1; i < boundsMs.length; i++) {
      if (!((boundsMs[i] as number) > (boundsMs[i - 1] as number))) throw new RangeError('latency bounds must increase');
    }
    this.boundsMs = [...boundsMs];
    this.bounds = Float64Array.from(boundsMs);
    this.counts = new Uint32Array(boundsMs.length + 1);
  }

  /** Counts one call; a rejected call did not run, so it has no latency. */
  record(outcome: CallOutcome, durationMs: number): void {
    if (outcome === 'rejection') {
      this.rejections++;
      return;
    }
    if (outcome === 'success') this.successes++;
    else if (outcome === 'failure') this.failures++;
    else this.timeouts++;
    const bounds = this.bounds;
    let bin = 0;
    while (bin < bounds.length && durationMs > (bounds[bin] as number)) bin++;
    this.counts[bin] = (this.counts[bin] as number) + 1;
    if (durationMs > this.longestCallMs) this.longestCallMs = durationMs;
    if (this.slowCallMs !== undefined && durationMs > this.slowCallMs) this.slowCalls++;
  }

  /** The period's figures, and a new period begins. */
  drain(): AgentWindow {
    const window: AgentWindow = {
      successes: this.successes,
      failures: this.failures,
      timeouts: this.timeouts,
      rejections: this.rejections,
      latencyHistogram: { boundsMs: [...this.boundsMs], counts: Array.from(this.counts) },
      longestCallMs: this.longestCallMs,
    };
    if (this.slowCallMs !== undefined) window.slowCalls = this.slowCalls;
    this.successes = this.failures = this.timeouts = this.rejections = this.slowCalls = this.longestCallMs = 0;
    this.counts.fill(0);
    return window;
  }
}
