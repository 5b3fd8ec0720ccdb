import { METRICS_WINDOW_SECONDS } from '@cbh/breaker';
import { breakerFigures, keepRecent, totalsOf, withNewest, type InstanceRow, type StoredPeriod } from './instance-periods';

const SPAN_MS = METRICS_WINDOW_SECONDS * 1000;
const T = 1_800_000_000_000;

/** A period that ended at `at`: `successes` and `failures` over a second, no latencies. */
const period = (at: number, successes: number, failures = 0): StoredPeriod => [at, successes, failures, 0, 0, 0, 0, 1000];

/** An instance's row; heard at the end of the span, so that it is live at every moment the tests ask of. */
const rowOf = (instance: string, periods: StoredPeriod[]): InstanceRow => ({
  configId: 1,
  instance,
  state: 'CLOSED',
  override: 'none',
  reportedAt: T + SPAN_MS,
  periodMs: 1000,
  lastMoveAt: null,
  writes: periods.length,
  periods,
  totals: [],
});

describe("a breaker's figures summed afresh from its rows", () => {
  it("gives a breaker's merged figures as they were, as the instances' periods leave the span", () => {
    const rows = [rowOf('a', [period(T, 10, 10), period(T + 1000, 30)]), rowOf('b', [period(T + 1000, 40)])];
    const at = (now: number) => breakerFigures(1, 'none', rows, now).stats;
    expect(at(T + 1000)).toMatchObject({ successCount: 80, failureCount: 10 });
    expect(at(T + SPAN_MS)).toMatchObject({ successCount: 70, failureCount: 0 });
    expect(at(T + 1000)).toMatchObject({ successCount: 80, failureCount: 10 });
  });
});

describe("a row's periods and totals one report on, as the merger brings them up to date", () => {
  it('keeps the periods still in the span and adds the newest, oldest first, as the same objects', () => {
    const held = [period(T, 1), period(T + 1000, 2), period(T + 2000, 3)];
    const cases: [StoredPeriod, number][] = [
      [period(T + 3000, 4), T + 3000],
      [period(T + 3000, 4), T + SPAN_MS + 1000],
      [period(T + 1500, 4), T + 3000],
      [period(T - 1000, 4), T + SPAN_MS + 500],
    ];
    for (const [newest, now] of cases) {
      const periods = withNewest(held, newest, now, SPAN_MS);
      expect(periods).toEqual(keepRecent([...held, newest], now, SPAN_MS));
      for (const kept of periods) expect([...held, newest]).toContain(kept);
    }
    expect(withNewest(held, period(T + 3000, 4), T + SPAN_MS + 1000, SPAN_MS).map((kept) => kept[0])).toEqual([T + 2000, T + 3000]);
    expect(withNewest(held, period(T + 1500, 4), T + 3000, SPAN_MS).map((kept) => kept[0])).toEqual([T, T + 1000, T + 1500, T + 2000]);
  });

  it("adds a period's calls to the totals kept, element by element, in a new array", () => {
    const first: StoredPeriod = [T, 5, 1, 0, 2, 40, 300, 1000, 3, 4, 9, 2];
    const second: StoredPeriod = [T + 1000, 7, 0, 1, 0, 20, 90, 1000, 3, 8];
    const kept = totalsOf(first);
    const both = totalsOf(second, kept);
    expect(both).toEqual(kept.map((total, i) => total + totalsOf(second)[i]!));
    expect(both.slice(0, 5)).toEqual([12, 1, 1, 2, 390]);
    expect(kept).toEqual(totalsOf(first));
    expect(both).not.toBe(kept);
  });
});
