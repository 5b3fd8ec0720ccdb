import { budgetRemainingOf, burnRateOf, firingBurnAlerts, sliOf, sloStatusOf } from './slo-vocabulary';

describe('the SLO arithmetic', () => {
  it('reads the SLI as good of all, in percent, and nothing without events', () => {
    expect(sliOf({ good: 9_990, total: 10_000 })).toBeCloseTo(99.9, 10);
    expect(sliOf({ good: 0, total: 0 })).toBeNull();
  });

  it('burns at 1 when bad events are exactly the share the target allows', () => {
    // 99.9 %: 1 bad in 1,000 is the budget's pace; 144 bad in 10,000 is 14.4 times it
    expect(burnRateOf({ good: 999, total: 1000 }, 99.9)).toBeCloseTo(1, 10);
    expect(burnRateOf({ good: 10_000 - 144, total: 10_000 }, 99.9)).toBeCloseTo(14.4, 10);
    expect(burnRateOf({ good: 50, total: 100 }, 99)).toBeCloseTo(50, 10);
    expect(burnRateOf({ good: 0, total: 0 }, 99.9)).toBeNull();
  });

  it('leaves the whole budget without events, none once the window burned at 1, and goes below 0 past it', () => {
    expect(budgetRemainingOf({ good: 0, total: 0 }, 99.9)).toBe(1);
    expect(budgetRemainingOf({ good: 1_000_000, total: 1_000_000 }, 99.9)).toBe(1);
    expect(budgetRemainingOf({ good: 999_750, total: 1_000_000 }, 99.9)).toBeCloseTo(0.75, 10);
    expect(budgetRemainingOf({ good: 999_000, total: 1_000_000 }, 99.9)).toBeCloseTo(0, 10);
    expect(budgetRemainingOf({ good: 998_000, total: 1_000_000 }, 99.9)).toBeCloseTo(-1, 10);
  });

  it('fires an alert only while both its windows burn faster than its rate', () => {
    expect(firingBurnAlerts({ '1h': 20, '5m': 10 })).toEqual([]);
    expect(firingBurnAlerts({ '1h': 20, '5m': 15 }).map((alert) => `${alert.severity} ${alert.long}`)).toEqual(['page 1h']);
    expect(firingBurnAlerts({ '6h': 7, '30m': 6.5, '1d': 4, '2h': 3.5 }).map((alert) => `${alert.severity} ${alert.long}`)).toEqual([
      'page 6h',
      'ticket 1d',
    ]);
    expect(firingBurnAlerts({ '3d': 1.2, '6h': 1.1 }).map((alert) => `${alert.severity} ${alert.long}`)).toEqual(['ticket 3d']);
    expect(firingBurnAlerts({ '3d': null, '6h': 2 })).toEqual([]);
  });

  it('says exhausted once the budget is spent, else breaching on a page, warning on a ticket', () => {
    expect(sloStatusOf(0, {})).toBe('exhausted');
    expect(sloStatusOf(0.5, { '1h': 15, '5m': 15 })).toBe('breaching');
    expect(sloStatusOf(0.5, { '1d': 3.5, '2h': 4 })).toBe('warning');
    expect(sloStatusOf(0.5, { '1h': 15, '5m': 1 })).toBe('ok');
  });
});
