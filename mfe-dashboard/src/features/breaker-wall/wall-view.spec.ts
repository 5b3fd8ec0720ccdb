import type { BreakerConfigView, BreakerStats } from '@cbh/contracts';
import { breakerStats } from '@cbh/test-support';
import { callRateSeries, DEFAULT_FILTERS, hadTraffic, wallServices, wallTiles } from './wall-view';

const config = (id: number, name: string, type: BreakerConfigView['type'], origin: Partial<BreakerConfigView> = {}) =>
  ({ id, name, type, state: 'CLOSED', override: 'none', source: 'hub', service: null, ...origin }) as BreakerConfigView;
const BREAKERS = [
  config(1, 'payments', 'simple'),
  config(2, 'Accounts', 'adaptive', { source: 'agent', service: 'checkout' }),
  config(3, 'search', 'bulkhead', { source: 'agent', service: 'catalog' }),
  config(4, 'mail', 'simple', { source: 'scrape', service: 'checkout' }),
];
const STATS = [
  breakerStats({ configId: 1, state: 'OPEN', errorPercentage: 80 }),
  breakerStats({ configId: 2, state: 'CLOSED', errorPercentage: 5 }),
  breakerStats({ configId: 3, state: 'HALF_OPEN', errorPercentage: 80 }),
];
const names = (filters = {}) => wallTiles(BREAKERS, STATS, { ...DEFAULT_FILTERS, ...filters }).map((tile) => tile.breaker.name);

describe('wallTiles', () => {
  it('sorts by name, by error % highest first, or by state with OPEN first, ties by name', () => {
    expect(names()).toEqual(['Accounts', 'mail', 'payments', 'search']);
    // mail has no figures yet: it counts as 0 % and as its configured state
    expect(names({ sort: 'errors' })).toEqual(['payments', 'search', 'Accounts', 'mail']);
    expect(names({ sort: 'state' })).toEqual(['payments', 'search', 'Accounts', 'mail']);
  });

  it('filters by the live state and by type', () => {
    expect(names({ state: 'OPEN' })).toEqual(['payments']);
    expect(names({ state: 'CLOSED' })).toEqual(['Accounts', 'mail']);
    expect(names({ type: 'simple' })).toEqual(['mail', 'payments']);
    expect(names({ type: 'simple', state: 'HALF_OPEN' })).toEqual([]);
  });

  it("filters by where the breakers run and by service, the hub's own having none", () => {
    expect(names({ source: 'hub' })).toEqual(['payments']);
    expect(names({ source: 'agent' })).toEqual(['Accounts', 'search']);
    expect(names({ source: 'scrape' })).toEqual(['mail']);
    expect(names({ service: 'checkout' })).toEqual(['Accounts', 'mail']);
    expect(names({ service: 'checkout', source: 'agent' })).toEqual(['Accounts']);
    expect(names({ service: 'checkout', source: 'hub' })).toEqual([]);
  });
});

it('offers each service of the list once, by name', () => {
  expect(wallServices(BREAKERS)).toEqual(['catalog', 'checkout']);
  expect(wallServices([])).toEqual([]);
});

it("gathers each breaker's calls/s over the samples, oldest first", () => {
  const sample = (at: number, rates: Record<number, number>) => ({
    at,
    stats: Object.entries(rates).map(([id, requestsPerSecond]) => breakerStats({ configId: Number(id), requestsPerSecond })),
  });
  const series = callRateSeries([sample(1, { 1: 10 }), sample(3, { 1: 12, 2: 3 }), sample(5, { 1: 9, 2: 4 })]);
  expect(series.get(1)).toEqual([10, 12, 9]);
  expect(series.get(2)).toEqual([3, 4]);
  expect(series.get(3)).toBeUndefined();
});

it('tells a breaker that took calls in the window from one that took none', () => {
  const quiet = { successCount: 0, failureCount: 0, timeoutCount: 0, shortCircuitedCount: 0, bulkheadRejectedCount: 0 } as BreakerStats;
  expect(hadTraffic(quiet)).toBe(false);
  expect(hadTraffic({ ...quiet, shortCircuitedCount: 1 })).toBe(true);
  expect(hadTraffic({ ...quiet, successCount: 3 })).toBe(true);
});
