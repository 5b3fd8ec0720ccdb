import type { Admission } from './types';

/** How a call through a breaker ended. */
export type CallOutcome = 'success' | 'failure' | 'timeout' | Exclude<Admission, 'permitted'>;

/** The rolling window of the figures, as Hystrix's default. */
export const METRICS_WINDOW_SECONDS = 10;

export const OUTCOMES: readonly CallOutcome[] = ['success', 'failure', 'timeout', 'short-circuited', 'bulkhead-rejected'];
const OUTCOME_INDEX = Object.fromEntries(OUTCOMES.map((outcome, index) => [outcome, index])) as Record<CallOutcome, number>;
/** Latency histogram: bin 0 is < 1 ms, then 8 bins per doubling up to about a minute. */
const BINS_PER_DOUBLING = 8;
const BINS = 1 + 16 * BINS_PER_DOUBLING;

/** The histogram bin of a latency in ms (bin 0 is < 1 ms). */
export const latencyBinOf = (ms: number) => (ms < 1 ? 0 : Math.min(BINS - 1, 1 + Math.floor(Math.log2(ms) * BINS_PER_DOUBLING)));
const upperEdge = (bin: number) => (bin === 0 ? 1 : 2 ** (bin / BINS_PER_DOUBLING));
/** The latencies a histogram bin holds, in ms: above `lower`, up to `upper` (the last bin holds everything slower). */
export const latencyBinEdges = (bin: number) => ({ lower: bin === 0 ? 0 : upperEdge(bin - 1), upper: upperEdge(bin) });

export interface WindowTotals {
  counts: Record<CallOutcome, number>;
  total: number;
  latency: { mean: number; p50: number; p90: number; p99: number; max: number };
}

/**
 * A window's figures as one replica shares them: counts per outcome (in OUTCOMES order), the latency histogram as
 * [bin, count] pairs of its non-empty bins, the longest call and the sum of latencies.
 */
export interface WindowSnapshot {
  counts: number[];
  histogram: [number, number][];
  max: number;
  latencySum: number;
}

export const EMPTY_WINDOW: WindowSnapshot = { counts: OUTCOMES.map(() => 0), histogram: [], max: 0, latencySum: 0 };

/**
 * The figures of several windows taken together (one breaker on several replicas): counts added and histograms
 * added bin by bin, so the percentiles are those of all the calls, not an average of each replica's percentiles.
 */
export function mergeWindows(windows: readonly WindowSnapshot[]): WindowTotals {
  const counts = new Array<number>(OUTCOMES.length).fill(0);
  const histogram = new Array<number>(BINS).fill(0);
  let max = 0;
  let latencySum = 0;
  for (const window of windows) {
    for (let i = 0; i < OUTCOMES.length; i++) counts[i]! += window.counts[i] ?? 0;
    for (const [bin, n] of window.histogram) if (bin >= 0 && bin < BINS) histogram[bin]! += n;
    max = Math.max(max, window.max);
    latencySum += window.latencySum;
  }
  return windowTotals(counts, histogram, max, latencySum);
}

/** How many bins a latency histogram has (latencyBinOf gives 0 to LATENCY_BINS - 1). */
export const LATENCY_BINS = BINS;

/**
 * A window's figures from its counts per outcome (in OUTCOMES order), its calls in each latency bin (LATENCY_BINS of
 * them), its longest call and its sum of latencies: the percentiles are read from the bins.
 */
export function windowTotals(counts: ArrayLike<number>, histogram: ArrayLike<number>, max: number, latencySum: number): WindowTotals {
  let measured = 0;
  for (let bin = 0; bin < BINS; bin++) measured += histogram[bin] ?? 0;
  const percentile = (p: number) => {
    if (measured === 0) return 0;
    let seen = 0;
    for (let bin = 0; bin < BINS; bin++) {
      seen += histogram[bin] ?? 0;
      if (seen >= p * measured) return Math.min(max, Math.round(upperEdge(bin)));
    }
    return max;
  };
  let total = 0;
  for (let i = 0; i < OUTCOMES.length; i++) total += counts[i] ?? 0;
  return {
    counts: Object.fromEntries(OUTCOMES.map((outcome, i) => [outcome, counts[i] ?? 0])) as Record<CallOutcome, number>,
    total,
    latency: {
      mean: measured ? Math.round(latencySum / measured) : 0,
      p50: percentile(0.5),
      p90: percentile(0.9),
      p99: percentile(0.99),
      max: Math.round(max),
    },
  };
}

/** One breaker's call counts and latencies over a rolling window of one-second buckets. */
export class RollingMetrics {
  private readonly seconds = new Float64Array(METRICS_WINDOW_SECONDS).fill(-1);
  private readonly counts = new Int32Array(METRICS_WINDOW_SECONDS * OUTCOMES.length);
  private readonly histogram = new Int32Array(METRICS_WINDOW_SECONDS * BINS);
  private readonly max = new Float64Array(METRICS_WINDOW_SECONDS);
  private readonly latencySum = new Float64Array(METRICS_WINDOW_SECONDS);

  record(outcome: CallOutcome, latencyMs: number, now: number) {
    const slot = this.slotFor(Math.floor(now / 1000));
    this.counts[slot * OUTCOMES.length + OUTCOME_INDEX[outcome]]!++;
    if (outcome === 'short-circuited' || outcome === 'bulkhead-rejected') return;
    this.histogram[slot * BINS + latencyBinOf(latencyMs)]!++;
    if (latencyMs > this.max[slot]!) this.max[slot] = latencyMs;
    this.latencySum[slot]! += latencyMs;
  }

  totals(now: number): WindowTotals {
    return mergeWindows([this.snapshot(now)]);
  }

  /** The window as it stands, in a form another process can add to its own (see mergeWindows). */
  snapshot(now: number): WindowSnapshot {
    const oldest = Math.floor(now / 1000) - METRICS_WINDOW_SECONDS + 1;
    const counts = new Array<number>(OUTCOMES.length).fill(0);
    const histogram = new Array<number>(BINS).fill(0);
    let max = 0;
    let latencySum = 0;
    for (let slot = 0; slot < METRICS_WINDOW_SECONDS; slot++) {
      if (this.seconds[slot]! < oldest) continue;
      for (let i = 0; i < OUTCOMES.length; i++) counts[i]! += this.counts[slot * OUTCOMES.length + i]!;
      for (let bin = 0; bin < BINS; bin++) histogram[bin]! += this.histogram[slot * BINS + bin]!;
      max = Math.max(max, this.max[slot]!);
      latencySum += this.latencySum[slot]!;
    }
    const sparse: [number, number][] = [];
    histogram.forEach((n, bin) => n > 0 && sparse.push([bin, n]));
    return { counts, histogram: sparse, max, latencySum };
  }

  private slotFor(second: number): number {
    const slot = second % METRICS_WINDOW_SECONDS;
    if (this.seconds[slot] !== second) {
      this.seconds[slot] = second;
      this.counts.fill(0, slot * OUTCOMES.length, (slot + 1) * OUTCOMES.length);
      this.histogram.fill(0, slot * BINS, (slot + 1) * BINS);
      this.max[slot] = 0;
      this.latencySum[slot] = 0;
    }
    return slot;
  }
}
