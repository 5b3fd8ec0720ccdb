/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { apiError, authUser, breakerConfig, breakerStats, buttonTexts } from '@cbh/test-support';
import { NO_ACCESS_TEXT } from './BreakerWallPage';
import {
  admin,
  BREAKERS,
  choose,
  liveConnectionForThisFile,
  renderWall,
  STATS,
  tile,
  tileNames,
  viewer,
  wallApi,
} from './BreakerWallPage.test-kit';

// The wall as it loads: who may see it, its tiles, toolbar and header, sorting and filtering, and an empty or
// unreadable list. Live updates are in BreakerWallPage.live.spec.tsx, acting on many breakers in BreakerBulkActions.spec.tsx.
liveConnectionForThisFile();

it('shows the access card and reads nothing without circuit_breaker_view', async () => {
  const api = wallApi(authUser({ email: 'dora@example.com', role: 'viewer', permissions: ['dashboard_view'] }));
  renderWall();
  expect(await screen.findByRole('heading', { name: 'Access Restricted' })).toBeTruthy();
  expect(screen.getByText(NO_ACCESS_TEXT)).toBeTruthy();
  await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
  expect(api.calls.map((call) => call.path)).toEqual(['/api/auth/user']);
});

it('draws a tile per breaker with its link, type, state, override, figures and last change', async () => {
  wallApi(viewer);
  renderWall();
  await waitFor(() => expect(screen.getAllByTestId('breaker-tile')).toHaveLength(3));
  expect(screen.getByRole('heading', { name: 'Circuit Breakers' })).toBeTruthy();
  expect(
    screen.getByText(/summed over every API replica, or over the live instances of the service a breaker runs in, and update every 2 s/),
  ).toBeTruthy();
  expect(screen.getByRole('status').textContent).toBe('Showing 3 of 3 breakers');

  const payments = within(tile('payments'));
  expect(payments.getByRole('link', { name: 'payments' }).getAttribute('href')).toBe('/circuit-breakers/1');
  expect(payments.getByText('simple')).toBeTruthy();
  expect(payments.getByTestId('state-badge').textContent).toBe('CLOSED');
  const figures = Array.from(tile('payments').querySelectorAll('dt')).map(
    (dt) => `${dt.textContent} ${dt.nextElementSibling!.textContent}`,
  );
  expect(figures).toEqual(['Calls/s 12.5', 'Errors 4%', 'p50 31 ms', 'p99 120 ms']);
  expect(payments.getByText('no change since start')).toBeTruthy();

  expect(tile('accounts').dataset.state).toBe('OPEN');
  expect(within(tile('accounts')).getByTestId('override-badge').textContent).toBe('Override: forced open');
  expect(within(tile('payments')).queryByTestId('override-badge')).toBeNull();
  expect(tile('accounts').textContent).toContain('changed 2 minutes ago');
  expect(tile('search').dataset.state).toBe('HALF_OPEN');
});

it("offers Export and Import in the wall's toolbar to holders of export_data and import_data only", async () => {
  wallApi(authUser({ email: 'ida@example.com', role: 'operator', permissions: ['circuit_breaker_view', 'export_data', 'import_data'] }));
  renderWall();
  const toolbar = await screen.findByRole('group', { name: 'Configuration' });
  expect(buttonTexts(toolbar)).toEqual(['Export', 'Import']);
  fireEvent.click(within(toolbar).getByRole('button', { name: 'Import' }));
  expect(await screen.findByRole('dialog', { name: 'Import configuration' })).toBeTruthy();
});

it('shows no configuration buttons to a viewer', async () => {
  wallApi(viewer);
  renderWall();
  await waitFor(() => expect(screen.getAllByTestId('breaker-tile')).toHaveLength(3));
  expect(screen.queryByRole('group', { name: 'Configuration' })).toBeNull();
});

it('sorts by error % or state and filters by state and type, counting what it shows', async () => {
  wallApi(viewer);
  renderWall();
  await waitFor(() => expect(tileNames()).toEqual(['accounts', 'payments', 'search']));
  choose('Sort by', 'errors');
  expect(tileNames()).toEqual(['accounts', 'search', 'payments']);
  choose('Sort by', 'state');
  expect(tileNames()).toEqual(['accounts', 'search', 'payments']);

  choose('State', 'HALF_OPEN');
  expect(tileNames()).toEqual(['search']);
  expect(screen.getByRole('status').textContent).toBe('Showing 1 of 3 breakers');
  choose('State', 'all');
  choose('Type', 'simple');
  expect(tileNames()).toEqual(['payments']);
  choose('State', 'OPEN');
  expect(screen.queryAllByTestId('breaker-tile')).toHaveLength(0);
  expect(screen.getByText('No circuit breaker matches these filters.')).toBeTruthy();
});

it("filters by source and by the services in the list, and tells a service's tiles by service and instances", async () => {
  const agent = breakerConfig({ id: 4, name: 'charge', type: 'adaptive', source: 'agent', service: 'checkout', library: 'opossum' });
  const scraped = breakerConfig({ id: 5, name: 'stock', type: 'adaptive', source: 'scrape', service: 'orders', library: 'resilience4j' });
  wallApi(viewer, {
    'GET /api/circuit-breakers': [...BREAKERS, agent, scraped],
    'GET /api/metrics/latest': {
      stats: [...STATS, breakerStats({ configId: 4, instances: { open: 0, total: 3, stale: 0, bad: 'checkout-2' } })],
    },
  });
  renderWall();
  await waitFor(() => expect(tileNames()).toEqual(['accounts', 'charge', 'payments', 'search', 'stock']));
  expect(within(tile('charge')).getByText('checkout · opossum (agent)')).toBeTruthy();
  expect(within(tile('charge')).getByText('3 instances')).toBeTruthy();
  expect(within(tile('charge')).getByText(/Bad instance: checkout-2/)).toBeTruthy();
  expect(within(tile('stock')).getByText('orders · resilience4j (scrape, read-only)')).toBeTruthy();

  const options = (label: string) => Array.from((screen.getByLabelText(label) as HTMLSelectElement).options).map((option) => option.text);
  expect(options('Source')).toEqual(['All', 'Hub', 'Agent', 'Scrape']);
  expect(options('Service')).toEqual(['All', 'checkout', 'orders']);

  choose('Source', 'hub');
  expect(tileNames()).toEqual(['accounts', 'payments', 'search']);
  choose('Source', 'scrape');
  expect(tileNames()).toEqual(['stock']);
  choose('Source', 'all');
  choose('Service', 'checkout');
  expect(tileNames()).toEqual(['charge']);
  expect(screen.getByRole('status').textContent).toBe('Showing 1 of 5 breakers');
  choose('Service', '');
  expect(tileNames()).toHaveLength(5);
});

it('links circuit_breaker_admin holders to the scrape targets and a new breaker in the header, and no one else', async () => {
  wallApi(admin);
  renderWall();
  expect((await screen.findByRole('link', { name: 'Scrape Targets' })).getAttribute('href')).toBe('/scrape-targets');
  const header = within(screen.getByRole('heading', { name: 'Circuit Breakers', level: 1 }).closest('header')!);
  expect(header.getByRole('link', { name: 'New breaker' }).getAttribute('href')).toBe('/circuit-breakers/new');
  cleanup();
  wallApi(viewer);
  renderWall();
  await waitFor(() => expect(screen.getAllByTestId('breaker-tile')).toHaveLength(3));
  expect(screen.queryByRole('link', { name: 'Scrape Targets' })).toBeNull();
  expect(screen.queryByRole('link', { name: 'New breaker' })).toBeNull();
});

it('offers an administrator a link to create the first breaker', async () => {
  wallApi(admin, { 'GET /api/circuit-breakers': [], 'GET /api/metrics/latest': { stats: [] } });
  renderWall();
  expect(await screen.findByText('No circuit breakers yet')).toBeTruthy();
  expect(screen.getByRole('link', { name: 'Create Circuit Breaker' }).getAttribute('href')).toBe('/circuit-breakers/new');
});

it('tells a viewer with no breakers who can create one', async () => {
  wallApi(viewer, { 'GET /api/circuit-breakers': [], 'GET /api/metrics/latest': { stats: [] } });
  renderWall();
  expect(await screen.findByText('No circuit breakers yet')).toBeTruthy();
  expect(screen.getByText('An administrator can create one.')).toBeTruthy();
  expect(screen.queryByRole('link', { name: 'Create Circuit Breaker' })).toBeNull();
});

it('says while the list loads, and when it could not be read', async () => {
  wallApi(viewer, { 'GET /api/circuit-breakers': apiError(500, 'database unavailable') });
  renderWall();
  expect(await screen.findByText('Loading circuit breakers…')).toBeTruthy();
  expect(await screen.findByText('The circuit breakers could not be loaded. database unavailable')).toBeTruthy();
  expect(screen.queryByTestId('breaker-tile')).toBeNull();
});
