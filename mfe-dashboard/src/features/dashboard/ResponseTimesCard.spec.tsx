/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import type { DashboardStats, ResponseTimesView } from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { authUser, fakeApi, rowsOf } from '@cbh/test-support';
import { DashboardPage } from './DashboardPage';

const STATS: DashboardStats = {
  activeCircuitBreakers: 3,
  circuitBreakerChange: 0,
  totalRequests: 10,
  requestsChange: 0,
  managedDomains: 0,
  domainsChange: 0,
  systemUptime: '100.0%',
};
const TIMES: ResponseTimesView = {
  days: 30,
  services: [
    { service: 'checkout', groups: 4, acknowledged: 3, resolved: 4, mttaSeconds: 240, mttrSeconds: 4800 },
    { service: null, groups: 2, acknowledged: 0, resolved: 1, mttaSeconds: null, mttrSeconds: 42 },
  ],
};

function renderDashboard(permissions: string[], times: unknown = TIMES) {
  const api = fakeApi({
    'GET /api/auth/user': authUser({ email: 'otto@example.com', role: 'operator', permissions }),
    'GET /api/dashboard/stats': STATS,
    'GET /api/dashboard/activity': [],
    'GET /api/dashboard/health': { open: 0, halfOpen: 0, unhealthy: [], transitions: [], openings: [] },
    'GET /api/alert-groups/response-times': times,
  });
  render(
    <Provider store={createAppStore()}>
      <MemoryRouter>
        <DashboardPage />
      </MemoryRouter>
    </Provider>,
  );
  return api;
}

it('shows each service’s groups and mean times to acknowledge and resolve over 30 days, in words', async () => {
  const api = renderDashboard(['dashboard_view', 'circuit_breaker_view']);
  const card = within(await screen.findByRole('region', { name: 'Response times (30 days)' }));
  const table = await card.findByRole('table', { name: 'Response times per service' });
  expect(
    within(table)
      .getAllByRole('columnheader')
      // a soft hyphen lets the long word break on a phone
      .map((th) => th.textContent?.replace(/\u00AD/g, '')),
  ).toEqual(['Service', 'Groups', 'Mean time to acknowledge', 'Mean time to resolve']);
  expect(rowsOf(table)).toEqual([
    ['checkout', '4', '4 min', '1 h 20 min'],
    ['Hub and other subjects', '2', '—', '42 s'],
  ]);
  expect(api.callsTo('GET', '/api/alert-groups/response-times?days=30')).toHaveLength(1);
  expect(card.getByRole('link', { name: 'Open On Call' }).getAttribute('href')).toBe('/on-call');
});

it('says when no group opened in the span', async () => {
  renderDashboard(['dashboard_view', 'circuit_breaker_view'], { days: 30, services: [] });
  const card = within(await screen.findByRole('region', { name: 'Response times (30 days)' }));
  expect(await card.findByText('No alert group opened in the last 30 days.')).toBeTruthy();
});

it('is neither shown nor asked for without circuit_breaker_view', async () => {
  const api = renderDashboard(['dashboard_view']);
  await screen.findByText('Welcome back, Otto');
  expect(screen.queryByRole('region', { name: 'Response times (30 days)' })).toBeNull();
  expect(api.calls.filter((call) => call.path.startsWith('/api/alert-groups'))).toEqual([]);
});
