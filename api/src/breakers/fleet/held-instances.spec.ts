import type { BreakerOverride, BreakerStateName } from '@cbh/contracts';
import { randomFrom } from '../../../test/seeded-random';
import { HeldInstances } from './held-instances';
import { breakerFigures, keepRecent, spanOf, totalsOf, type InstanceRow, type StoredPeriod } from './instance-periods';

const T = 1_800_000_000_000;

describe("a breaker's instances held by the merger", () => {
  it('give the figures breakerFigures sums afresh, and hold the rows as written, at every read of a long walk of reports, lulls, stale and forgotten instances', () => {
    const random = randomFrom(11);
    const held = new HeldInstances();
    const rows = new Map<string, InstanceRow>();
    const states: BreakerStateName[] = ['CLOSED', 'CLOSED', 'CLOSED', 'OPEN', 'HALF_OPEN'];
    let now = T;
    let reads = 0;
    let withBad = 0;
    let withStale = 0;
    let inPlace = 0;
    for (let step = 0; step < 3000; step++) {
      now += Math.floor(random() * 400);
      const instance = `i-${Math.floor(random() * 12)}`;
      const action = random();
      if (action < 0.55) {
        // an instance reports: its period (an instance of its own, i-0, fails most calls), as the merger reads the row
        const before = rows.get(instance);
        const periodMs = instance === 'i-7' ? 15_000 : 1000;
        const failing = instance === 'i-0' ? 20 : Math.floor(random() * 2);
        const bins = random() < 0.2 ? [] : [Math.floor(random() * 40), 1 + Math.floor(random() * 9), 60 + Math.floor(random() * 3), 2];
        const period: StoredPeriod = [
          now,
          5 + Math.floor(random() * 30),
          failing,
          Math.floor(random() * 2),
          0,
          Math.floor(random() * 900),
          Math.floor(random() * 5000),
          periodMs,
          ...bins,
        ];
        const row: InstanceRow = {
          configId: 1,
          instance,
          state: states[Math.floor(random() * states.length)]!,
          override: 'none',
          reportedAt: now,
          periodMs,
          lastMoveAt: random() < 0.1 ? now - 50 : (before?.lastMoveAt ?? null),
          writes: (before?.writes ?? 0) + 1,
          periods: keepRecent([...(before?.periods ?? []), period], now, spanOf(periodMs)),
          totals: totalsOf(period, before?.totals),
        };
        rows.set(instance, row);
        // as the merger takes a row one write ahead of the one it holds: in place where it can, else put (a copy, as
        // the merger's rows are its own)
        const { periods: _, totals: __, ...fields } = row;
        if (held.reported({ ...fields, newest: period }, period, now)) inPlace++;
        else held.put({ ...row, periods: [...row.periods], totals: [...row.totals] }, now);
      } else if (action < 0.6) {
        // silent past the listing: forgotten
        rows.delete(instance);
        held.delete(instance);
      } else {
        const override: BreakerOverride = 'none';
        const expected = breakerFigures(1, override, [...rows.values()], now).stats;
        expect(held.stats(1, override, now)).toEqual(expected);
        expect([...held.rows()]).toEqual([...rows.values()]);
        reads++;
        if (expected.instances?.bad) withBad++;
        if (expected.instances?.stale) withStale++;
      }
      // now and then the merger's read comes after a long pause: every period has left the span
      if (random() < 0.01) now += 12_000;
    }
    expect(held.size).toBe(rows.size);
    // the walk went where it should: reads with a bad instance named, with stale instances, and many of them
    expect([reads > 1000, withBad > 50, withStale > 50, inPlace > 500]).toEqual([true, true, true, true]);
  });

  it('counts a stale instance again once it reports, and an instance forgotten not at all', () => {
    const held = new HeldInstances();
    const row = (instance: string, at: number, successes: number): InstanceRow => ({
      configId: 1,
      instance,
      state: 'CLOSED',
      override: 'none',
      reportedAt: at,
      periodMs: 1000,
      lastMoveAt: null,
      writes: 1,
      periods: [[at, successes, 0, 0, 0, 4, 40, 1000, 20, successes]],
      totals: [],
    });
    held.put(row('a', T, 10), T);
    held.put(row('b', T, 30), T);
    expect(held.stats(1, 'none', T)).toMatchObject({ successCount: 40, instances: { total: 2, stale: 0 } });
    // b falls silent: stale after three periods, its calls out of the sums (a's row holds its newest period only here)
    held.put(row('a', T + 3500, 5), T + 3500);
    expect(held.stats(1, 'none', T + 3500)).toMatchObject({ successCount: 5, instances: { total: 1, stale: 1 } });
    held.put(row('b', T + 4000, 7), T + 4000);
    expect(held.stats(1, 'none', T + 4000)).toMatchObject({ successCount: 12, instances: { total: 2, stale: 0 } });
    expect(held.stats(1, 'none', T + 4000).latency.p50).toBeGreaterThan(0);
    held.delete('a');
    expect(held.stats(1, 'none', T + 4000)).toMatchObject({ successCount: 7, instances: { total: 1, stale: 0 } });
    expect([...held.rows()].map((kept) => kept.instance)).toEqual(['b']);
  });
});
