import {
  latencyBinEdges,
  latencyBinOf,
  mergeWindows,
  METRICS_WINDOW_SECONDS,
  OUTCOMES,
  type WindowSnapshot,
  type WindowTotals,
} from '@cbh/breaker';
import {
  AGENT_STALE_PERIODS,
  isBadInstance,
  moreCautious,
  type AgentWindow,
  type BreakerInstanceView,
  type BreakerOverride,
  type BreakerStateName,
  type BreakerStats,
} from '@cbh/contracts';
import { BUCKET_SLOTS, bucketOf } from '../../platform';

/**
 * One reporting period of one instance, as breaker_instances keeps it (compact, since a few thousand rows are
 * rewritten every second): [end of the period in ms, successes, failures, timeouts, rejections, longest call,
 * sum of latencies, how long the period lasted in ms, then the latency histogram in the hub's bins as bin, count,
 * bin, count…].
 */
export type StoredPeriod = number[];

/**
 * A period in the hub's terms. The agent's histogram has the agent's bounds: each bin's calls go to the hub's bin
 * of its upper bound (the overflow bin's to the longest call's), so a percentile is never read below the truth;
 * the agent sends no sum of latencies, so the mean is estimated at each bin's middle.
 */
export function toStoredPeriod(window: AgentWindow, atMs: number, durationMs: number): StoredPeriod {
  const { boundsMs, counts } = window.latencyHistogram;
  const period: StoredPeriod = [
    atMs,
    window.successes,
    window.failures,
    window.timeouts,
    window.rejections,
    window.longestCallMs,
    0,
    Math.round(durationMs),
  ];
  let latencySum = 0;
  for (let i = 0; i < counts.length; i++) {
    const n = counts[i]!;
    if (n === 0) continue;
    const upper = i < boundsMs.length ? boundsMs[i]! : Math.max(window.longestCallMs, boundsMs[boundsMs.length - 1] ?? 0);
    const lower = i === 0 ? 0 : boundsMs[i - 1]!;
    const bin = latencyBinOf(upper);
    // the bounds increase, so the calls of one bin come one after the other: added to its pair when it is the last
    if (period.length > 8 && period[period.length - 2] === bin) period[period.length - 1]! += n;
    else period.push(bin, n);
    latencySum += n * ((lower + upper) / 2);
  }
  period[6] = Math.round(latencySum);
  return period;
}

/**
 * An instance's calls since it first reported, as breaker_instances keeps them (added up by the statement that
 * writes each report, whichever replica takes it): [successes, failures, timeouts, rejections, sum of latencies in
 * ms, then the calls in each bucket of LATENCY_BUCKETS_SECONDS and the slower ones]. /metrics writes its counters
 * from them.
 */
export type InstanceTotals = number[];
export const TOTALS_BUCKETS_AT = 5;

/**
 * What a period adds to its instance's totals, added to `kept` (the totals before it, element by element as the
 * statement that writes a report adds them; a new array). A latency bin's calls count in the bucket of its lower edge:
 * an agent's bound (10 ms, 100 ms…) lies in the bin its calls were put in, so an agent whose bounds are the buckets'
 * is read exactly.
 */
export function totalsOf(period: StoredPeriod, kept: readonly number[] = []): InstanceTotals {
  return addToTotals([...kept], period);
}

/** What a period adds to its instance's totals, added to `totals` itself (the merger's row, brought up to date in place). */
export function addToTotals(totals: InstanceTotals, period: StoredPeriod): InstanceTotals {
  while (totals.length < TOTALS_BUCKETS_AT + BUCKET_SLOTS) totals.push(0);
  for (let i = 0; i < 4; i++) totals[i]! += period[1 + i] ?? 0;
  totals[4]! += period[6] ?? 0;
  for (let i = 8; i + 1 < period.length; i += 2) totals[TOTALS_BUCKETS_AT + bucketOf(latencyBinEdges(period[i]!).lower)]! += period[i + 1]!;
  return totals;
}

/**
 * How far back an instance's figures reach: the rolling window, or two of its reporting periods where that is
 * longer (a target scraped every 15 s reports its calls of 15 s at once, and the next scrape ends a little later than
 * 15 s on), so that a breaker's figures never drop to nothing between two reports.
 */
export const spanOf = (periodMs: number) => Math.max(METRICS_WINDOW_SECONDS * 1000, 2 * periodMs);

/**
 * The periods of an instance that ended in the span before now, how long they lasted in all (ms), and until when
 * that holds: a period counts while now - spanMs < its end, so the first of them to leave the span ends the sum.
 */
export function windowOf(
  periods: readonly StoredPeriod[],
  now: number,
  spanMs = METRICS_WINDOW_SECONDS * 1000,
): { window: WindowSnapshot; coveredMs: number; until: number } {
  const counts = OUTCOMES.map(() => 0);
  // the periods' bins added up here: a window of ten periods holds each bin once, not ten times, for every sum of it
  const bins = new Map<number, number>();
  let max = 0;
  let latencySum = 0;
  let coveredMs = 0;
  let oldestKept = Infinity;
  const oldest = now - spanMs;
  for (const period of periods) {
    if (!(period[0]! > oldest)) continue;
    oldestKept = Math.min(oldestKept, period[0]!);
    // OUTCOMES: success, failure, timeout, short-circuited (the agent's rejections), bulkhead-rejected (none)
    for (let i = 0; i < 4; i++) counts[i]! += period[1 + i] ?? 0;
    max = Math.max(max, period[5] ?? 0);
    latencySum += period[6] ?? 0;
    coveredMs += period[7] ?? 0;
    for (let i = 8; i + 1 < period.length; i += 2) bins.set(period[i]!, (bins.get(period[i]!) ?? 0) + period[i + 1]!);
  }
  const histogram = [...bins];
  return { window: { counts, histogram, max, latencySum }, coveredMs, until: oldestKept + spanMs };
}

/**
 * A row's periods one report on: those of `periods` (oldest first) still in the span, then `newest`, in one pass (a
 * row one write ahead that the merger could not bring up to date in place, HeldInstances.reported).
 */
export function withNewest(periods: readonly StoredPeriod[], newest: StoredPeriod, now: number, spanMs: number): StoredPeriod[] {
  const oldest = now - spanMs;
  const kept: StoredPeriod[] = [];
  for (const period of periods) if (period[0]! > oldest) kept.push(period);
  if (!(newest[0]! > oldest)) return kept;
  kept.push(newest);
  // a period that ends before one held (a clock set back) goes in its place
  return kept.length > 1 && kept[kept.length - 2]![0]! > newest[0]! ? kept.sort((a, b) => a[0]! - b[0]!) : kept;
}

/** Keeps the periods still inside the span, oldest first. */
export function keepRecent(periods: readonly StoredPeriod[], now: number, spanMs: number): StoredPeriod[] {
  const oldest = now - spanMs;
  return periods.filter((period) => period[0]! > oldest).sort((a, b) => a[0]! - b[0]!);
}

/** One instance of one breaker as breaker_instances has it. */
export interface InstanceRow {
  configId: number;
  instance: string;
  state: BreakerStateName;
  override: BreakerOverride;
  reportedAt: number;
  periodMs: number;
  /** The newest move this instance reported (ms), or null. */
  lastMoveAt: number | null;
  /** How many times its row was written. */
  writes: number;
  periods: StoredPeriod[];
  /** Its calls since it first reported (empty before the first report after the column was added). */
  totals: InstanceTotals;
}

/** A row as a read of what changed finds it: its newest period (null before the column was added) rather than all of them. */
export type InstanceChange = Omit<InstanceRow, 'periods' | 'totals'> & { newest: StoredPeriod | null };

type Figures = Omit<BreakerInstanceView, 'instance' | 'state' | 'override' | 'lastReportAt' | 'stale' | 'bad'>;

/**
 * The figures of windows taken together; calls per second are the sum of each window's calls over the time its
 * periods lasted (a report that covers an outage of the hub's spreads its calls over the outage, not over a second).
 */
function figuresOf(windows: readonly { window: WindowSnapshot; coveredMs: number }[]): Figures & { errors: number; calls: number } {
  const perSecond = windows.reduce(
    (sum, { window, coveredMs }) => sum + (coveredMs > 0 ? (1000 * window.counts.reduce((a, b) => a + b, 0)) / coveredMs : 0),
    0,
  );
  return figuresFrom(mergeWindows(windows.map((entry) => entry.window)), perSecond);
}

/** Instances' figures from their windows' totals and their calls per second, with the errors and calls for finding a bad one. */
export function figuresFrom(totals: WindowTotals, perSecond: number): Figures & { errors: number; calls: number } {
  const { counts } = totals;
  const errors = counts.failure + counts.timeout + counts['short-circuited'] + counts['bulkhead-rejected'];
  return {
    successCount: counts.success,
    failureCount: counts.failure,
    timeoutCount: counts.timeout,
    shortCircuitedCount: counts['short-circuited'],
    errorPercentage: totals.total ? Math.round((1000 * errors) / totals.total) / 10 : 0,
    requestsPerSecond: Math.round(10 * perSecond) / 10,
    latency: totals.latency,
    errors,
    calls: totals.total,
  };
}

/** Whether an instance fell silent: no report for AGENT_STALE_PERIODS of its periods. */
export const isStale = (row: Pick<InstanceRow, 'reportedAt' | 'periodMs'>, now: number) =>
  now - row.reportedAt > AGENT_STALE_PERIODS * row.periodMs;

/** A window's errors and calls, without its percentiles: all that finding a bad instance needs. */
function countsOf(window: WindowSnapshot): { errors: number; calls: number } {
  const [success = 0, ...others] = window.counts;
  const errors = others.reduce((sum, n) => sum + n, 0);
  return { errors, calls: success + errors };
}

/**
 * One breaker's instances and their merged figures: the live instances are summed (counts added, histograms
 * added bin by bin), the most cautious live state is the breaker's, and an instance whose error rate is far above
 * the others' taken together is marked bad. Stale instances are listed but left out of every sum.
 *
 * Summed afresh from the rows: the instances page and a breaker no instance reports for. The merger keeps its rows'
 * sums as they come instead (HeldInstances), whose figures must stay these. The list of instances with each one's own
 * figures is built only when asked for.
 */
export function breakerFigures(
  configId: number,
  override: BreakerOverride,
  rows: readonly InstanceRow[],
  now: number,
): { stats: BreakerStats; instances: () => BreakerInstanceView[] } {
  const live = rows.filter((row) => !isStale(row, now));
  const windows = new Map(rows.map((row) => [row, windowOf(row.periods, now, spanOf(row.periodMs))]));
  const merged = figuresOf(live.map((row) => windows.get(row)!));
  const bad = new Set(
    live.filter((row) => {
      const mine = countsOf(windows.get(row)!.window);
      return isBadInstance(mine, { errors: merged.errors - mine.errors, calls: merged.calls - mine.calls });
    }),
  );
  const moves = rows.map((row) => row.lastMoveAt ?? 0);
  const state = live.reduce<BreakerStateName>((worst, row) => moreCautious(worst, row.state), 'CLOSED');
  const open = live.filter((row) => row.state === 'OPEN').length;
  let instances: BreakerInstanceView[] | undefined;
  const listInstances = () =>
    [...rows]
      .sort((a, b) => Number(isStale(a, now)) - Number(isStale(b, now)) || a.instance.localeCompare(b.instance))
      .map((row) => {
        const { errors: _e, calls: _c, ...mine } = figuresOf([windows.get(row)!]);
        return {
          instance: row.instance,
          state: row.state,
          override: row.override,
          lastReportAt: new Date(row.reportedAt).toISOString(),
          stale: isStale(row, now),
          bad: bad.has(row),
          ...mine,
        };
      });
  return {
    stats: mergedStats(configId, override, {
      state,
      lastMove: Math.max(0, ...moves),
      figures: merged,
      open,
      live: live.length,
      stale: rows.length - live.length,
      bad: bad.size === 1 ? [...bad][0]!.instance : null,
    }),
    instances: () => (instances ??= listInstances()),
  };
}

/** What merging a breaker's instances found: what mergedStats makes its figures of. */
export interface Merging {
  /** The most cautious live state. */
  state: BreakerStateName;
  /** The newest move any instance reported (ms), 0 for none. */
  lastMove: number;
  figures: Figures & { errors: number; calls: number };
  /** Live instances open, live, and stale. */
  open: number;
  live: number;
  stale: number;
  /** The one bad instance, or null (none, or several). */
  bad: string | null;
}

/** A breaker's merged figures as every screen reads them. */
export function mergedStats(configId: number, override: BreakerOverride, merging: Merging): BreakerStats {
  const { errors: _errors, calls: _calls, ...figures } = merging.figures;
  return {
    configId,
    state: merging.state,
    override,
    lastTransitionAt: merging.lastMove === 0 ? null : new Date(merging.lastMove).toISOString(),
    ...figures,
    bulkheadRejectedCount: 0,
    replicas: { open: merging.open, total: merging.live },
    instances: { open: merging.open, total: merging.live, stale: merging.stale, bad: merging.bad },
  };
}
