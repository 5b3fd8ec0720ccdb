/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import type { ActivityEntry, DashboardStats } from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { apiError, authUser, fakeApi } from '@cbh/test-support';
import { DashboardPage } from './DashboardPage';

const STATS: DashboardStats = {
  activeCircuitBreakers: 3,
  circuitBreakerChange: 1,
  totalRequests: 12345,
  requestsChange: -12.5,
  managedDomains: 0,
  domainsChange: 0,
  systemUptime: '99.9%',
};
const viewer = authUser({ email: 'vera@example.com', role: 'viewer', permissions: ['dashboard_view'] });

function renderDashboard() {
  render(
    <Provider store={createAppStore()}>
      <MemoryRouter>
        <DashboardPage />
      </MemoryRouter>
    </Provider>,
  );
}

it('shows the banner, the four figures with their changes, quick actions, status and activity', async () => {
  const activity: ActivityEntry[] = [{ action: 'Ada Lovelace created a circuit breaker', timestamp: '2026-11-22T10:00:00.000Z' }];
  fakeApi({ 'GET /api/auth/user': viewer, 'GET /api/dashboard/stats': STATS, 'GET /api/dashboard/activity': activity });
  renderDashboard();

  expect(await screen.findByText('Welcome back, Vera')).toBeTruthy();
  expect(screen.getByText('System Operational')).toBeTruthy();
  expect(screen.getByTestId('role-badge').textContent).toBe('Viewer');
  const card = (label: string) => within(screen.getByRole('region', { name: label }));
  await screen.findByRole('region', { name: 'Active Circuit Breakers' });
  expect(card('Active Circuit Breakers').getByText('3')).toBeTruthy();
  expect(card('Active Circuit Breakers').getByText('+1 in the last 24 h')).toBeTruthy();
  expect(card('Total Requests').getByText('12,345')).toBeTruthy();
  expect(card('Total Requests').getByText('-12.5% vs the previous 24 h')).toBeTruthy();
  expect(card('System Uptime').getByText('99.9%')).toBeTruthy();
  expect(card('System Uptime').getByText('over the last 30 days')).toBeTruthy();

  expect(screen.getByRole('link', { name: 'Create Circuit Breaker' }).getAttribute('href')).toBe('/circuit-breakers/new');
  expect(screen.getByRole('link', { name: 'Run Load Test' }).getAttribute('href')).toBe('/load-test');
  // the viewer holds neither domain_management nor user_management
  expect(screen.queryByRole('link', { name: 'Manage Domains' })).toBeNull();
  expect(screen.queryByRole('link', { name: 'User Management' })).toBeNull();
  expect(within(screen.getByRole('region', { name: 'System Status' })).getAllByText('Operational')).toHaveLength(3);
  expect(screen.queryByRole('link', { name: 'View all circuit breakers' })).toBeNull();
  expect(await screen.findByText('Ada Lovelace created a circuit breaker')).toBeTruthy();
});

it('links holders of circuit_breaker_view to the wall of circuit breakers from System Status', async () => {
  fakeApi({
    'GET /api/auth/user': { ...viewer, permissions: ['dashboard_view', 'circuit_breaker_view'] },
    'GET /api/dashboard/stats': STATS,
    'GET /api/dashboard/activity': [],
  });
  renderDashboard();
  const status = await screen.findByRole('region', { name: 'System Status' });
  expect(within(status).getByRole('link', { name: 'View all circuit breakers' }).getAttribute('href')).toBe('/circuit-breakers');
});

it('offers User Management to holders of user_management, and says when there is no activity', async () => {
  fakeApi({
    'GET /api/auth/user': { ...viewer, permissions: ['dashboard_view', 'user_management'] },
    'GET /api/dashboard/stats': STATS,
    'GET /api/dashboard/activity': [],
  });
  renderDashboard();
  expect(await screen.findByRole('link', { name: 'User Management' })).toBeTruthy();
  expect(await screen.findByText('No recent activity')).toBeTruthy();
});

it('offers Manage Domains to holders of domain_management', async () => {
  fakeApi({
    'GET /api/auth/user': { ...viewer, role: 'admin', permissions: ['dashboard_view', 'domain_management'] },
    'GET /api/dashboard/stats': STATS,
    'GET /api/dashboard/activity': [],
  });
  renderDashboard();
  expect((await screen.findByRole('link', { name: 'Manage Domains' })).getAttribute('href')).toBe('/domains');
});

it('asks a signed-out visitor to sign in', async () => {
  fakeApi({
    'GET /api/auth/user': apiError(401, 'Not signed in'),
    'GET /api/dashboard/stats': apiError(401, 'Not signed in'),
    'GET /api/dashboard/activity': apiError(401, 'Not signed in'),
  });
  renderDashboard();
  expect((await screen.findByRole('link', { name: 'Login' })).getAttribute('href')).toBe('/api/login');
});

it('keeps the figures’ place while they load and when they could not be loaded, hidden from assistive technology', async () => {
  let answer: (response: Response) => void = () => undefined;
  fakeApi({
    'GET /api/auth/user': viewer,
    'GET /api/dashboard/stats': () => new Promise<Response>((resolve) => (answer = resolve)),
    'GET /api/dashboard/activity': [],
  });
  renderDashboard();
  expect(await screen.findByRole('status', { name: 'Loading figures…' })).toBeTruthy();
  expect(screen.queryByRole('region', { name: 'Active Circuit Breakers' })).toBeNull();
  expect(screen.getByRole('status', { name: 'Loading figures…' }).querySelectorAll('section')).toHaveLength(4);
  answer(Response.json({ statusCode: 500, error: 'Internal Server Error', message: 'boom' }, { status: 500 }));
  expect(await screen.findByRole('status', { name: 'The figures could not be loaded.' })).toBeTruthy();
  expect(screen.queryByRole('region', { name: 'Active Circuit Breakers' })).toBeNull();
});
