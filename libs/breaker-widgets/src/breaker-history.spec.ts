import type { BreakerHistory } from '@cbh/contracts';
import { historySeries } from './breaker-history';
import type { MetricsSample } from './metrics-history';

const NOW = 1_800_000_000;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

const history: BreakerHistory = {
  range: '5m',
  from: iso(NOW - 300),
  to: iso(NOW - 10),
  stepSeconds: 1,
  points: [
    { at: iso(NOW - 400), calls: 5, callsPerSecond: 5, errorPercentage: 0 },
    { at: iso(NOW - 200), calls: 4, callsPerSecond: 4, errorPercentage: 50 },
    { at: iso(NOW - 100), calls: 0, callsPerSecond: 0, errorPercentage: null },
  ],
  transitions: [{ id: 1, configId: 5, from: 'CLOSED', to: 'OPEN', reason: 'failures', at: iso(NOW - 150), instanceId: null }],
  transitionsCapped: false,
  stateBefore: 'CLOSED',
};

const sample = (at: number, calls: number, state: 'CLOSED' | 'OPEN' = 'OPEN'): MetricsSample => ({
  at,
  stats: [
    {
      configId: 5,
      state,
      override: 'none',
      lastTransitionAt: null,
      successCount: calls,
      failureCount: 0,
      timeoutCount: 0,
      shortCircuitedCount: 0,
      bulkheadRejectedCount: 0,
      errorPercentage: 0,
      requestsPerSecond: calls / 10,
      latency: { mean: 0, p50: calls ? 12 : 0, p90: 0, p99: 0, max: 0 },
      replicas: { open: 0, total: 1 },
    },
  ],
});

it('keeps the stored steps of the range, then the live samples after them, with no error % or latency without calls', () => {
  const series = historySeries(history, [sample(NOW - 20, 30), sample(NOW - 4, 0), sample(NOW - 2, 10)], 5, '5m', NOW, 'CLOSED');
  // the step before the range is left out; the live sample stored already (before `to`) too
  // every chart begins at the range's start, with nothing drawn there
  expect(series.throughput).toEqual([
    [NOW - 300, NOW - 200, NOW - 100, NOW - 4, NOW - 2],
    [null, 4, 0, 0, 1],
  ]);
  expect(series.errors[1]).toEqual([null, 50, null, null, 0]);
  expect(series.latency).toEqual([
    [NOW - 300, NOW - 4, NOW - 2],
    [null, null, 12],
    [null, null, 0],
    [null, null, 0],
  ]);
  expect(series.busySteps).toBe(2);
});

it('colours the state from the state before the range and each move, and marks the moves', () => {
  const series = historySeries(history, [sample(NOW - 2, 10, 'CLOSED')], 5, '5m', NOW, 'CLOSED');
  expect(series.marks).toEqual([{ at: NOW - 150, to: 'OPEN' }]);
  expect(series.spans).toEqual([
    { from: NOW - 300, to: NOW - 150, state: 'CLOSED' },
    { from: NOW - 150, to: NOW - 2, state: 'OPEN' },
    { from: NOW - 2, to: NOW, state: 'CLOSED' },
  ]);
  expect(series.state).toEqual([
    [NOW - 300, NOW - 150, NOW - 2, NOW],
    [0, 2, 0, 0],
  ]);
});

it('says no traffic for a range with no calls, and takes the current state when the journal says nothing', () => {
  const series = historySeries({ ...history, points: [], transitions: [], stateBefore: null }, [], 5, '1h', NOW, 'OPEN');
  expect(series.busySteps).toBe(0);
  expect(series.spans).toEqual([{ from: NOW - 3600, to: NOW, state: 'OPEN' }]);
});
