/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore, invalidationFor } from '@cbh/api-client';
import type { DashboardHealth, DashboardStats, DomainAlertView } from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { authUser, fakeApi } from '@cbh/test-support';
import { DashboardPage } from './DashboardPage';

const STATS: DashboardStats = {
  activeCircuitBreakers: 3,
  circuitBreakerChange: 0,
  totalRequests: 10,
  requestsChange: 0,
  managedDomains: 1,
  domainsChange: 0,
  systemUptime: '100.0%',
};
const HOUR = 3_600_000;
const openings = (counts: Record<number, number>) =>
  Array.from({ length: 24 }, (_, i) => ({ hour: new Date(Date.now() - (23 - i) * HOUR).toISOString(), count: counts[i] ?? 0 }));
const HEALTH: DashboardHealth = {
  open: 1,
  halfOpen: 1,
  unhealthy: [
    { id: 7, name: 'Payments', service: null, state: 'OPEN', override: 'forced-open', since: new Date(Date.now() - 120_000).toISOString() },
    { id: 9, name: 'orders', service: 'checkout', state: 'HALF_OPEN', override: 'none', since: null },
  ],
  transitions: [
    {
      configId: 7,
      name: 'Payments',
      service: null,
      from: 'CLOSED',
      to: 'OPEN',
      reason: 'Forced open by Ada',
      at: new Date().toISOString(),
      places: 3,
    },
    {
      configId: 9,
      name: 'orders',
      service: 'checkout',
      from: 'OPEN',
      to: 'HALF_OPEN',
      reason: 'recovery time over',
      at: new Date().toISOString(),
      places: 1,
    },
  ],
  openings: openings({ 10: 1, 23: 2 }),
};
const EMPTY: DashboardHealth = { open: 0, halfOpen: 0, unhealthy: [], transitions: [], openings: openings({}) };
const alert = (id: number, status: DomainAlertView['status']): DomainAlertView => ({
  id,
  domainId: 1,
  alertType: 'site_down',
  severity: 'critical',
  status,
  triggeredAt: new Date().toISOString(),
  message: `Down ${id}`,
  resolvedAt: null,
});

function renderDashboard(permissions: string[], health: DashboardHealth = HEALTH, extra: Record<string, unknown> = {}) {
  const api = fakeApi({
    'GET /api/auth/user': authUser({ email: 'ada@example.com', role: 'admin', permissions }),
    'GET /api/dashboard/stats': STATS,
    'GET /api/dashboard/activity': [],
    'GET /api/dashboard/health': health,
    ...extra,
  });
  const store = createAppStore();
  render(
    <Provider store={store}>
      <MemoryRouter>
        <DashboardPage />
      </MemoryRouter>
    </Provider>,
  );
  return { api, store };
}

it('lists the breakers open now with links to their pages, the last moves and the day’s openings', async () => {
  const { api } = renderDashboard(['dashboard_view', 'circuit_breaker_view']);
  const health = within(await screen.findByRole('region', { name: 'Breaker Health' }));
  expect(await health.findByText('1 open')).toBeTruthy();
  expect(health.getByText('1 half-open')).toBeTruthy();
  const open = within(health.getByRole('list', { name: 'Breakers open now' }));
  expect(open.getByRole('link', { name: 'Payments' }).getAttribute('href')).toBe('/circuit-breakers/7');
  expect(open.getByRole('link', { name: 'orders' }).getAttribute('href')).toBe('/circuit-breakers/9');
  expect(open.getByText('forced')).toBeTruthy();
  expect(open.getByText('2 minutes ago')).toBeTruthy();
  expect(health.getByRole('img', { name: '3 openings in the last 24 hours, at most 2 in one hour' })).toBeTruthy();

  const moves = within(screen.getByRole('list', { name: 'Last transitions' })).getAllByRole('listitem');
  expect(moves[0]!.textContent).toContain('Closed → Open');
  expect(moves[0]!.textContent).toContain('Forced open by Ada (on 3 replicas or instances)');
  expect(moves[1]!.textContent).toContain('Open → Half-open');
  // not a domain manager: no domain alerts, not even asked for
  expect(screen.queryByRole('region', { name: 'Domain Alerts' })).toBeNull();
  expect(api.callsTo('GET', '/api/domain-alerts')).toHaveLength(0);
});

it('is read again when a breaker moves', async () => {
  const { api, store } = renderDashboard(['dashboard_view', 'circuit_breaker_view']);
  await screen.findByText('1 open');
  const message = {
    type: 'stateChange',
    data: { configId: 7, from: 'OPEN', to: 'CLOSED', reason: 'reset', at: new Date().toISOString(), instanceId: null },
  } as const;
  act(() => {
    store.dispatch(invalidationFor(message)!);
  });
  await waitFor(() => expect(api.callsTo('GET', '/api/dashboard/health')).toHaveLength(2));
});

it('shows each empty list with the one action that fills it', async () => {
  renderDashboard(['dashboard_view', 'circuit_breaker_view', 'circuit_breaker_operate', 'circuit_breaker_admin'], EMPTY, {
    'GET /api/dashboard/stats': { ...STATS, activeCircuitBreakers: 0 },
  });
  const health = within(await screen.findByRole('region', { name: 'Breaker Health' }));
  expect((await health.findByRole('link', { name: 'Create Circuit Breaker' })).getAttribute('href')).toBe('/circuit-breakers/new');
  const moves = within(screen.getByRole('region', { name: 'Last Transitions' }));
  expect(moves.getByRole('link', { name: 'Run Load Test' }).getAttribute('href')).toBe('/load-test');
  expect(health.getByRole('img', { name: '0 openings in the last 24 hours' })).toBeTruthy();
});

it('says every breaker is closed when there are breakers and none is open', async () => {
  renderDashboard(['dashboard_view', 'circuit_breaker_view'], EMPTY);
  expect(await screen.findByText(/Every breaker is closed/)).toBeTruthy();
});

it('lists the firing domain alerts to a domain manager, not the resolved ones', async () => {
  const { api } = renderDashboard(['dashboard_view', 'domain_management'], HEALTH, {
    'GET /api/domain-alerts': [alert(2, 'open'), alert(1, 'resolved')],
    'GET /api/domains': [
      { id: 1, domain: 'shop.example.com', status: 'active', registrar: null, expiresAt: null, createdAt: new Date().toISOString() },
    ],
  });
  const alerts = within(await screen.findByRole('region', { name: 'Domain Alerts' }));
  const rows = within(await alerts.findByRole('list', { name: 'Firing domain alerts' })).getAllByRole('listitem');
  expect(rows).toHaveLength(1);
  expect(rows[0]!.textContent).toContain('shop.example.com');
  expect(rows[0]!.textContent).toContain('Down 2');
  expect(alerts.getByRole('link', { name: 'Open Domains' }).getAttribute('href')).toBe('/domains');
  // without circuit_breaker_view, the breakers' health is neither shown nor asked for
  expect(screen.queryByRole('region', { name: 'Breaker Health' })).toBeNull();
  expect(api.callsTo('GET', '/api/dashboard/health')).toHaveLength(0);
});

it('keeps the health card’s rows in place while its figures load, so the cards below do not move when they come', async () => {
  let answer: (response: Response) => void = () => undefined;
  renderDashboard(['dashboard_view', 'circuit_breaker_view'], HEALTH, {
    'GET /api/dashboard/health': () => new Promise<Response>((resolve) => (answer = resolve)),
  });
  const health = within(await screen.findByRole('region', { name: 'Breaker Health' }));
  const pending = health.getByRole('status', { name: 'Loading…' });
  // the loaded card's rows, hidden from assistive technology: its badges, both headings and the chart's place
  expect(pending.textContent).toContain('– open');
  expect(pending.textContent).toContain('Open now');
  expect(pending.textContent).toContain('Openings in the last 24 h');
  expect(pending.querySelector('[aria-hidden]')).not.toBeNull();
  answer(Response.json(HEALTH));
  expect(await health.findByText('1 open')).toBeTruthy();
  expect(health.queryByRole('status', { name: 'Loading…' })).toBeNull();
});
