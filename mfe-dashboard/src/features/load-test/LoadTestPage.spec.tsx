/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import type { BreakerHistory, BreakerStateName } from '@cbh/contracts';
import { authUser, breakerConfig, breakerStats, fakeApi, fakeLive } from '@cbh/test-support';
import { LoadTestPage } from './LoadTestPage';

const operator = authUser({
  email: 'otto@example.com',
  role: 'operator',
  permissions: ['circuit_breaker_view', 'circuit_breaker_operate'],
});
const BREAKER = breakerConfig({ id: 5, name: 'Payments' });
const stats = (state: BreakerStateName, errorPercentage: number, p99: number) =>
  breakerStats({
    configId: 5,
    state,
    successCount: 200 - 2 * errorPercentage,
    failureCount: 2 * errorPercentage,
    errorPercentage,
    requestsPerSecond: 20,
    latency: { mean: 40, p50: 30, p90: 60, p99, max: p99 },
  });

/** What the hub stored of the breaker: nothing but one move, a minute ago. */
function history(url: URL): BreakerHistory {
  const to = Date.now();
  return {
    range: url.searchParams.get('range') as BreakerHistory['range'],
    from: new Date(to - 300_000).toISOString(),
    to: new Date(to).toISOString(),
    stepSeconds: 1,
    points: [],
    transitions: [
      { id: 1, configId: 5, from: 'CLOSED', to: 'OPEN', reason: 'failures', at: new Date(to - 60_000).toISOString(), instanceId: null },
    ],
    transitionsCapped: false,
    stateBefore: 'CLOSED',
  };
}

it("charts the chosen breaker's state, error % and latency from each live metricsUpdate", async () => {
  const api = fakeApi({
    'GET /api/auth/user': operator,
    'GET /api/circuit-breakers': [BREAKER],
    'GET /api/metrics/latest': { stats: [stats('CLOSED', 0, 0)] },
    'GET /api/test-sessions': [],
    'GET /api/circuit-breakers/5/history': (_body: unknown, url: URL) => history(url),
  });
  const live = fakeLive();
  try {
    render(
      <Provider store={createAppStore()}>
        <LoadTestPage />
      </Provider>,
    );
    expect(await screen.findByRole('option', { name: 'Payments (simple)' })).toBeTruthy();
    expect(screen.getByText('Waiting for the first live figures…')).toBeTruthy();
    act(() => live.emit({ type: 'metricsUpdate', data: { stats: [stats('CLOSED', 20, 120)] } }));
    act(() => live.emit({ type: 'metricsUpdate', data: { stats: [stats('OPEN', 100, 250)] } }));
    expect(screen.getByRole('img', { name: 'Breaker state: State OPEN' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Error percentage: Errors 100%' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Latency percentiles: p50 30 ms, p90 60 ms, p99 250 ms' })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Start Test' })).toBeTruthy());

    // the last 5 minutes of what the hub stored, the same range picker as a breaker's page
    await waitFor(() => expect(screen.getByTestId('history-summary').textContent).toContain('Last 5 min'));
    const picker = within(screen.getByRole('group', { name: 'Time range of the charts' }));
    fireEvent.click(picker.getByRole('button', { name: '6 h' }));
    await waitFor(() => expect(api.callsTo('GET', '/api/circuit-breakers/5/history?range=6h')).toHaveLength(1));
  } finally {
    live.stop();
  }
});
