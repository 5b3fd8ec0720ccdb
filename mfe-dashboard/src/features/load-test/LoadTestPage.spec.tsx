/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import type { BreakerStateName } from '@cbh/contracts';
import { authUser, breakerConfig, breakerStats, fakeApi, fakeLive } from '@cbh/test-support';
import { LoadTestPage } from './LoadTestPage';

const operator = authUser({
  email: 'otto@example.com',
  role: 'operator',
  permissions: ['circuit_breaker_view', 'circuit_breaker_operate'],
});
const BREAKER = breakerConfig({ id: 5, name: 'Payments' });
const stats = (state: BreakerStateName, errorPercentage: number, p99: number) =>
  breakerStats({ configId: 5, state, errorPercentage, requestsPerSecond: 20, latency: { mean: 40, p50: 30, p90: 60, p99, max: p99 } });

it("charts the chosen breaker's state, error % and latency from each live metricsUpdate", async () => {
  fakeApi({
    'GET /api/auth/user': operator,
    'GET /api/circuit-breakers': [BREAKER],
    'GET /api/metrics/latest': { stats: [stats('CLOSED', 0, 0)] },
    'GET /api/test-sessions': [],
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
  } finally {
    live.stop();
  }
});
