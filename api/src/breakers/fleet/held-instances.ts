import { LATENCY_BINS, windowTotals } from '@cbh/breaker';
import { isBadInstance, moreCautious, type BreakerOverride, type BreakerStateName, type BreakerStats } from '@cbh/contracts';
import {
  addToTotals,
  figuresFrom,
  isStale,
  mergedStats,
  spanOf,
  type InstanceChange,
  type InstanceRow,
  type StoredPeriod,
} from './instance-periods';

/** One instance row as the merger holds it: its window's sums at the last moment they were brought up to date. */
interface Held {
  row: InstanceRow;
  spanMs: number;
  /** The periods that end after this are counted (now - spanMs at the last update). */
  oldest: number;
  /** When the first counted period leaves the span (Infinity with none counted). */
  until: number;
  /** Counted in the breaker's histogram: the row was live at the last update. */
  live: boolean;
  successes: number;
  failures: number;
  timeouts: number;
  rejections: number;
  max: number;
  latencySum: number;
  coveredMs: number;
}

/**
 * One breaker's instance rows on the replica that merges the fleet's figures, with what merging them needs kept up
 * to date as rows arrive and periods leave the span, rather than every row's window summed again at every read.
 *
 * The merger reads twice a second and, at 1 s periods, every row of a breaker changes within a second (its instance
 * reports again, its oldest period leaves): summing every row's window again for each read built a few small arrays
 * and a map per row (and garbage collection was a quarter of the merger's CPU). Here a row's sums are plain numbers,
 * and the breaker's latency histogram is one array, that periods are added to as they come and taken off as they
 * leave the span (whole counts, so exactly); a row is summed again over its periods only when that cannot say it
 * (a row written twice between reads, a move between live and stale). The figures are those breakerFigures gives for the same rows
 * at the same moment (a spec compares them over a long random walk).
 */
export class HeldInstances {
  private readonly held = new Map<string, Held>();
  /** The live rows' calls in each latency bin. */
  private readonly histogram = new Float64Array(LATENCY_BINS);

  get size(): number {
    return this.held.size;
  }

  /** The rows held, in the order their instances first came. */
  *rows(): IterableIterator<InstanceRow> {
    for (const held of this.held.values()) yield held.row;
  }

  get(instance: string): InstanceRow | undefined {
    return this.held.get(instance)?.row;
  }

  /** A row read from breaker_instances (a new instance, or one that reported again), counted from `now` on. */
  put(row: InstanceRow, now: number): void {
    const before = this.held.get(row.instance);
    if (before) this.count(before, -1);
    const held = before ?? ({} as Held);
    held.row = row;
    held.spanMs = spanOf(row.periodMs);
    this.sum(held, now);
    held.live = !isStale(row, now);
    this.count(held, 1);
    if (!before) this.held.set(row.instance, held);
  }

  /**
   * An instance's next write (`change`, which added `newest` to its row), brought into the row held in place: its
   * fields set, the periods that left the span dropped and the newest added, its totals added to. The merger reads a
   * fleet's rows twice a second, and a row built anew at each report (its periods' array, its totals, the row itself)
   * lived long enough to be copied by the garbage collector and then promoted: a third of what the merging replica's
   * collector copied. False, and nothing changed, where put must sum the row again (a row written twice
   * between reads, a gap, a new period length, a move between live and stale).
   */
  reported(change: InstanceChange, newest: StoredPeriod, now: number): boolean {
    const held = this.held.get(change.instance);
    const row = held?.row;
    if (!held || !row || row.writes !== change.writes - 1 || !held.live || isStale(change, now)) return false;
    const spanMs = spanOf(change.periodMs);
    const oldest = now - spanMs;
    const periods = row.periods;
    const last = periods[periods.length - 1];
    if (spanMs !== held.spanMs || !(newest[0]! > oldest) || (last !== undefined && !(newest[0]! > last[0]!))) return false;
    this.leave(held, oldest);
    let gone = 0;
    while (gone < periods.length && !(periods[gone]![0]! > oldest)) gone++;
    if (gone > 0) periods.splice(0, gone);
    periods.push(newest);
    this.add(held, newest, 1);
    held.until = periods[0]![0]! + spanMs;
    row.state = change.state;
    row.override = change.override;
    row.reportedAt = change.reportedAt;
    row.periodMs = change.periodMs;
    row.lastMoveAt = change.lastMoveAt;
    row.writes = change.writes;
    addToTotals(row.totals, newest);
    return true;
  }

  /**
   * Takes off a live row's periods that left the span since its last update (those up to `oldest`) and moves its
   * span on; its longest call is found again among the periods left when one leaving held it.
   */
  private leave(held: Held, oldest: number): void {
    let longest = false;
    for (const period of held.row.periods) {
      if (!(period[0]! > held.oldest)) continue;
      if (period[0]! > oldest) break;
      longest ||= (period[5] ?? 0) >= held.max;
      this.add(held, period, -1);
    }
    held.oldest = oldest;
    if (!longest) return;
    held.max = 0;
    for (const period of held.row.periods) if (period[0]! > oldest) held.max = Math.max(held.max, period[5] ?? 0);
  }

  /** Adds one counted period of a live row to its sums and the breaker's histogram (sign 1), or takes it off (-1). */
  private add(held: Held, period: StoredPeriod, sign: 1 | -1) {
    held.successes += sign * (period[1] ?? 0);
    held.failures += sign * (period[2] ?? 0);
    held.timeouts += sign * (period[3] ?? 0);
    held.rejections += sign * (period[4] ?? 0);
    if (sign > 0) held.max = Math.max(held.max, period[5] ?? 0);
    held.latencySum += sign * (period[6] ?? 0);
    held.coveredMs += sign * (period[7] ?? 0);
    this.addBins(period, sign);
  }

  delete(instance: string): void {
    const held = this.held.get(instance);
    if (!held) return;
    this.count(held, -1);
    this.held.delete(instance);
  }

  /**
   * The breaker's figures at `now`, as breakerFigures gives them: first every row whose periods left the span, or
   * that turned stale, since the last update is brought up to `now`.
   */
  stats(configId: number, override: BreakerOverride, now: number): BreakerStats {
    let successes = 0;
    let failures = 0;
    let timeouts = 0;
    let rejections = 0;
    let max = 0;
    let latencySum = 0;
    let perSecond = 0;
    let liveCount = 0;
    let open = 0;
    let lastMove = 0;
    let state: BreakerStateName = 'CLOSED';
    for (const held of this.held.values()) {
      const live = !isStale(held.row, now);
      if (now >= held.until || now - held.spanMs < held.oldest || live !== held.live) {
        // periods that left the span are taken off a row that stays live; anything else is summed again
        if (live && held.live && now - held.spanMs >= held.oldest) {
          this.leave(held, now - held.spanMs);
          held.until = this.untilOf(held);
        } else {
          this.count(held, -1);
          this.sum(held, now);
          held.live = live;
          this.count(held, 1);
        }
      }
      lastMove = Math.max(lastMove, held.row.lastMoveAt ?? 0);
      if (!live) continue;
      liveCount++;
      successes += held.successes;
      failures += held.failures;
      timeouts += held.timeouts;
      rejections += held.rejections;
      max = Math.max(max, held.max);
      latencySum += held.latencySum;
      const calls = held.successes + held.failures + held.timeouts + held.rejections;
      perSecond += held.coveredMs > 0 ? (1000 * calls) / held.coveredMs : 0;
      if (held.row.state === 'OPEN') open++;
      state = moreCautious(state, held.row.state);
    }
    const figures = figuresFrom(windowTotals([successes, failures, timeouts, rejections, 0], this.histogram, max, latencySum), perSecond);
    // an instance far worse than the others taken together is named when it is the only one
    let bad: string | null = null;
    let bads = 0;
    for (const held of this.held.values()) {
      if (!held.live) continue;
      const mine = held.failures + held.timeouts + held.rejections;
      const own = { errors: mine, calls: held.successes + mine };
      if (isBadInstance(own, { errors: figures.errors - own.errors, calls: figures.calls - own.calls })) {
        bads++;
        bad = held.row.instance;
      }
    }
    return mergedStats(configId, override, {
      state,
      lastMove,
      figures,
      open,
      live: liveCount,
      stale: this.held.size - liveCount,
      bad: bads === 1 ? bad : null,
    });
  }

  /** A row's window at `now` summed again over its periods (a few numbers each; nothing built). */
  private sum(held: Held, now: number) {
    const oldest = now - held.spanMs;
    held.oldest = oldest;
    held.successes = held.failures = held.timeouts = held.rejections = 0;
    held.max = held.latencySum = held.coveredMs = 0;
    let first = Infinity;
    for (const period of held.row.periods) {
      if (!(period[0]! > oldest)) continue;
      first = Math.min(first, period[0]!);
      held.successes += period[1] ?? 0;
      held.failures += period[2] ?? 0;
      held.timeouts += period[3] ?? 0;
      held.rejections += period[4] ?? 0;
      held.max = Math.max(held.max, period[5] ?? 0);
      held.latencySum += period[6] ?? 0;
      held.coveredMs += period[7] ?? 0;
    }
    held.until = first + held.spanMs;
  }

  /** When the first period counted leaves the span (Infinity with none counted). */
  private untilOf(held: Held): number {
    for (const period of held.row.periods) if (period[0]! > held.oldest) return period[0]! + held.spanMs;
    return Infinity;
  }

  /** Adds a live row's counted periods to the breaker's histogram (sign 1) or takes them off (-1). */
  private count(held: Held, sign: 1 | -1) {
    if (!held.live) return;
    for (const period of held.row.periods) if (period[0]! > held.oldest) this.addBins(period, sign);
  }

  private addBins(period: StoredPeriod, sign: 1 | -1) {
    for (let i = 8; i + 1 < period.length; i += 2) {
      const bin = period[i]!;
      if (bin >= 0 && bin < LATENCY_BINS) this.histogram[bin]! += sign * period[i + 1]!;
    }
  }
}
