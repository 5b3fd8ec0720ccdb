import { METRICS_WINDOW_SECONDS } from '@cbh/breaker';
import { breakerFigures, type InstanceRow, type StoredPeriod } from './instance-periods';

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
