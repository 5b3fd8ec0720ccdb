/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import type { AuthUser, SampleDataView } from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { apiError, authUser, breakerConfig, fakeApi } from '@cbh/test-support';
import { Toaster } from '@cbh/ui';
import { BreakerWallPage } from '../breaker-wall/BreakerWallPage';
import { DashboardPage } from '../dashboard/DashboardPage';
import { OFFER_TEXT, OFFER_TITLE } from './SampleDataOffer';

const superAdmin = authUser({ email: 'sue@example.com', role: 'super_admin', permissions: [] });
const admin = authUser({ email: 'ada@example.com', role: 'admin', permissions: ['circuit_breaker_view', 'circuit_breaker_admin'] });

const NOT_LOADED: SampleDataView = { loaded: false, loadedAt: null, items: [], refused: null };
const LOADED: SampleDataView = {
  loaded: true,
  loadedAt: '2026-11-22T10:00:00.000Z',
  items: [
    { kind: 'breaker', name: 'Checkout API' },
    { kind: 'breaker', name: 'Email Relay' },
    { kind: 'service', name: 'Storefront' },
    { kind: 'domain', name: 'status.example.test' },
    { kind: 'channel', name: 'Sample log' },
  ],
  refused: null,
};

function hubApi(me: AuthUser, routes: Record<string, unknown> = {}) {
  return fakeApi({
    'GET /api/auth/user': me,
    'GET /api/circuit-breakers': [],
    'GET /api/metrics/latest': { stats: [] },
    'GET /api/dashboard/stats': {
      activeCircuitBreakers: 0,
      circuitBreakerChange: 0,
      totalRequests: 0,
      requestsChange: 0,
      managedDomains: 0,
      domainsChange: 0,
      systemUptime: '100%',
    },
    'GET /api/dashboard/activity': [],
    'GET /api/sample-data': NOT_LOADED,
    ...routes,
  });
}

function renderPage(page: 'wall' | 'dashboard') {
  render(
    <Provider store={createAppStore()}>
      <MemoryRouter>{page === 'wall' ? <BreakerWallPage /> : <DashboardPage />}</MemoryRouter>
      <Toaster />
    </Provider>,
  );
}

const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
const loadButton = () => screen.queryByRole('button', { name: 'Load sample data' });

it("offers sample data in the wall's empty state to a super admin", async () => {
  hubApi(superAdmin);
  renderPage('wall');
  expect(await screen.findByText('No circuit breakers yet')).toBeTruthy();
  const offer = await screen.findByRole('region', { name: OFFER_TITLE });
  expect(within(offer).getByText(OFFER_TEXT)).toBeTruthy();
  expect(within(offer).getByRole('button', { name: 'Load sample data' })).toBeTruthy();
});

it('offers it on the dashboard of an empty hub too', async () => {
  hubApi(superAdmin);
  renderPage('dashboard');
  expect(await screen.findByRole('region', { name: OFFER_TITLE })).toBeTruthy();
});

it('neither offers it to an admin nor asks the API about it', async () => {
  const api = hubApi(admin);
  renderPage('wall');
  expect(await screen.findByText('No circuit breakers yet')).toBeTruthy();
  await settle();
  expect(loadButton()).toBeNull();
  expect(api.callsTo('GET', '/api/sample-data')).toHaveLength(0);
});

it('does not offer it on a hub that has breakers, nor where the hub refuses it', async () => {
  hubApi(superAdmin, { 'GET /api/circuit-breakers': [breakerConfig({ id: 1, name: 'payments' })] });
  renderPage('dashboard');
  expect(await screen.findByText('Welcome back, Sue')).toBeTruthy();
  await settle();
  expect(loadButton()).toBeNull();
  cleanup();

  hubApi(superAdmin, { 'GET /api/sample-data': { ...NOT_LOADED, refused: 'Sample data is not for production (NODE_ENV=production)' } });
  renderPage('wall');
  expect(await screen.findByText('No circuit breakers yet')).toBeTruthy();
  await settle();
  expect(loadButton()).toBeNull();
});

it('loads it with a POST, says so, and then offers to remove it', async () => {
  const api = hubApi(superAdmin, { 'POST /api/sample-data': () => Response.json(LOADED, { status: 201 }) });
  renderPage('wall');
  fireEvent.click(await screen.findByRole('button', { name: 'Load sample data' }));
  expect(await screen.findByText('Sample data loaded')).toBeTruthy();
  expect(api.callsTo('POST', '/api/sample-data')).toHaveLength(1);
  expect(await screen.findByText('Sample data is loaded (5 items).')).toBeTruthy();
  expect(loadButton()).toBeNull();
  // the wall's list is read again
  await waitFor(() => expect(api.callsTo('GET', '/api/circuit-breakers')).toHaveLength(2));
});

it("shows the server's reason when loading is refused", async () => {
  hubApi(superAdmin, { 'POST /api/sample-data': apiError(409, 'The hub already has breaker Checkout API') });
  renderPage('dashboard');
  fireEvent.click(await screen.findByRole('button', { name: 'Load sample data' }));
  expect(await screen.findByText('The hub already has breaker Checkout API')).toBeTruthy();
  // the toast may show before the button leaves its Loading… state: it comes back, to try again
  expect(await screen.findByRole('button', { name: 'Load sample data' })).toBeTruthy();
});

it('asks before removing it, naming what goes, then removes it with a DELETE', async () => {
  const api = hubApi(superAdmin, {
    'GET /api/circuit-breakers': [breakerConfig({ id: 1, name: 'Checkout API' })],
    'GET /api/sample-data': LOADED,
    'DELETE /api/sample-data': NOT_LOADED,
  });
  renderPage('wall');
  expect(await screen.findByText('Sample data is loaded (5 items).')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Remove sample data' }));
  const dialog = await screen.findByRole('alertdialog', { name: 'Remove sample data?' });
  expect(within(dialog).getByText(/removes exactly what the sample data added, and nothing else/)).toBeTruthy();
  for (const line of ['2 breakers: Checkout API, Email Relay', '1 service: Storefront', '1 domain: status.example.test']) {
    expect(within(dialog).getByText(line)).toBeTruthy();
  }
  expect(within(dialog).getByText('1 notification channel: Sample log')).toBeTruthy();
  expect(api.callsTo('DELETE', '/api/sample-data')).toHaveLength(0);

  fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
  expect(await screen.findByText('Sample data removed')).toBeTruthy();
  expect(api.callsTo('DELETE', '/api/sample-data')).toHaveLength(1);
  await waitFor(() => expect(screen.queryByText('Sample data is loaded (5 items).')).toBeNull());
});

it("keeps it when the confirmation is cancelled, and shows the server's reason when removal is refused", async () => {
  const api = hubApi(superAdmin, {
    'GET /api/sample-data': LOADED,
    'DELETE /api/sample-data': apiError(409, 'Some sample data could not be removed: Checkout API: a load test is running'),
  });
  renderPage('dashboard');
  fireEvent.click(await screen.findByRole('button', { name: 'Remove sample data' }));
  fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  expect(api.callsTo('DELETE', '/api/sample-data')).toHaveLength(0);

  fireEvent.click(screen.getByRole('button', { name: 'Remove sample data' }));
  fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
  expect(await screen.findByText('Some sample data could not be removed: Checkout API: a load test is running')).toBeTruthy();
  // what is left is read again
  await waitFor(() => expect(api.callsTo('GET', '/api/sample-data')).toHaveLength(2));
});
