/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider, useDispatch } from 'react-redux';
import { createAppStore, useLiveConnection } from '@cbh/api-client';
import type { AuthUser, BreakerConfigView, BreakerStats } from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { apiError, authUser, breakerConfig, breakerStats, buttonTexts, clickAndSettle, fakeApi, fakeLive } from '@cbh/test-support';
import { Toaster } from '@cbh/ui';
import { BreakerWallPage, NO_ACCESS_TEXT } from './BreakerWallPage';
import { tileState } from './wall-view';

// counted: a tile works out its state once per render
jest.mock('./wall-view', () => {
  const actual = jest.requireActual('./wall-view');
  return { ...actual, tileState: jest.fn(actual.tileState) };
});

const viewer = authUser({ email: 'vera@example.com', role: 'viewer', permissions: ['dashboard_view', 'circuit_breaker_view'] });
const admin = authUser({ email: 'ada@example.com', role: 'admin', permissions: ['circuit_breaker_view', 'circuit_breaker_admin'] });

const breaker = (id: number, name: string, type: BreakerConfigView['type']) => breakerConfig({ id, name, type });
const BREAKERS = [breaker(1, 'payments', 'simple'), breaker(2, 'accounts', 'adaptive'), breaker(3, 'search', 'bulkhead')];
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const STATS = [
  breakerStats({
    configId: 1,
    successCount: 120,
    failureCount: 5,
    requestsPerSecond: 12.5,
    errorPercentage: 4,
    latency: { mean: 40, p50: 31, p90: 80, p99: 120.4, max: 200 },
  }),
  breakerStats({ configId: 2, state: 'OPEN', override: 'forced-open', errorPercentage: 60, lastTransitionAt: minutesAgo(2) }),
  breakerStats({ configId: 3, state: 'HALF_OPEN', errorPercentage: 20 }),
];

function wallApi(me: AuthUser | null, routes: Record<string, unknown> = {}) {
  return fakeApi({
    'GET /api/auth/user': me,
    'GET /api/circuit-breakers': BREAKERS,
    'GET /api/metrics/latest': { stats: STATS },
    ...routes,
  });
}

/** What the shell does for a signed-in visitor: runs the live connection, which writes live data into the cache. */
function LiveBridge() {
  useLiveConnection(true, useDispatch());
  return null;
}

function renderWall() {
  render(
    <Provider store={createAppStore()}>
      <LiveBridge />
      <MemoryRouter initialEntries={['/circuit-breakers']}>
        <BreakerWallPage />
      </MemoryRouter>
      <Toaster />
    </Provider>,
  );
}

const tile = (name: string) => screen.getByRole('article', { name });
const tileNames = () => screen.getAllByTestId('breaker-tile').map((element) => element.getAttribute('aria-label'));
const choose = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

let live: ReturnType<typeof fakeLive>;
beforeEach(async () => {
  await act(async () => void (live = fakeLive()));
});
// inside act: the page is still mounted, and its connection status changes
afterEach(() => act(() => live.stop()));

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

it('follows each metricsUpdate and turns a tile red on a stateChange, with no further request', async () => {
  const api = wallApi(viewer);
  renderWall();
  await waitFor(() => expect(screen.getAllByTestId('breaker-tile')).toHaveLength(3));
  const update = (requestsPerSecond: number): BreakerStats[] =>
    STATS.map((entry) => (entry.configId === 1 ? { ...entry, requestsPerSecond } : entry));

  // upserting the cache entry takes a few ticks
  act(() => live.emit({ type: 'metricsUpdate', data: { stats: update(30) } }));
  await waitFor(() => expect(within(tile('payments')).getByText('30')).toBeTruthy());
  // one sample is a point, two are a line
  expect(tile('payments').querySelector('polyline')).toBeNull();
  act(() => live.emit({ type: 'metricsUpdate', data: { stats: update(40) } }));
  await waitFor(() => expect(within(tile('payments')).getByText('40')).toBeTruthy());
  expect(tile('payments').querySelector('polyline')).not.toBeNull();

  // the tile's top edge has its state badge's colour: green, then red
  const edge = () => getComputedStyle(tile('payments')).borderTopColor;
  const badge = () => getComputedStyle(within(tile('payments')).getByTestId('state-badge')).backgroundColor;
  const closedEdge = edge();
  expect(closedEdge).toBe(badge());
  const at = new Date().toISOString();
  act(() =>
    live.emit({
      type: 'stateChange',
      data: { configId: 1, from: 'CLOSED', to: 'OPEN', reason: '5 consecutive failures', at, instanceId: 'api-1' },
    }),
  );
  expect(tile('payments').dataset.state).toBe('OPEN');
  expect(within(tile('payments')).getByTestId('state-badge').textContent).toBe('OPEN');
  expect(tile('payments').textContent).toContain('changed just now');
  expect(edge()).toBe(badge());
  expect(edge()).not.toBe(closedEdge);

  expect(api.callsTo('GET', '/api/metrics/latest')).toHaveLength(1);
  expect(api.callsTo('GET', '/api/circuit-breakers')).toHaveLength(1);
});

it('keeps a tile off screen as it was, and brings it up to date when it scrolls into view', async () => {
  // a stand-in IntersectionObserver: the test says which tiles are on screen
  const observers: { callback: IntersectionObserverCallback; targets: Element[] }[] = [];
  class FakeIntersectionObserver {
    targets: Element[] = [];
    constructor(callback: IntersectionObserverCallback) {
      observers.push({ callback, targets: this.targets });
    }
    observe(target: Element) {
      this.targets.push(target);
    }
    disconnect() {}
  }
  (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = FakeIntersectionObserver;
  const scrollTo = (onScreen: string[]) =>
    act(() => {
      const { callback, targets } = observers.at(-1)!;
      const entries = targets.map((target) => ({ target, isIntersecting: onScreen.includes(target.getAttribute('aria-label')!) }));
      callback(entries as unknown as IntersectionObserverEntry[], {} as IntersectionObserver);
    });
  try {
    wallApi(viewer);
    renderWall();
    await waitFor(() => expect(screen.getAllByTestId('breaker-tile')).toHaveLength(3));
    scrollTo(['payments']);
    const stats = (rate: number) => STATS.map((entry) => ({ ...entry, requestsPerSecond: rate }));
    act(() => live.emit({ type: 'metricsUpdate', data: { stats: stats(30) } }));
    await waitFor(() => expect(within(tile('payments')).getByText('30')).toBeTruthy());
    // the off-screen tile was not re-rendered: it still shows its first figures
    expect(within(tile('search')).queryByText('30')).toBeNull();
    scrollTo(['search']);
    expect(within(tile('search')).getByText('30')).toBeTruthy();
  } finally {
    delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
  }
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

describe('acting on many breakers', () => {
  const bulkOperator = authUser({
    email: 'omar@example.com',
    role: 'operator',
    permissions: ['circuit_breaker_view', 'circuit_breaker_operate', 'bulk_operations'],
  });
  const bulkAdmin = authUser({
    email: 'ada@example.com',
    role: 'admin',
    permissions: ['circuit_breaker_view', 'circuit_breaker_operate', 'circuit_breaker_admin', 'bulk_operations'],
  });
  const checkbox = (name: string) => screen.getByRole('checkbox', { name: `Select ${name}` }) as HTMLInputElement;
  const toolbar = () => within(screen.getByRole('toolbar', { name: 'Actions on the chosen breakers' }));
  const selectAll = () => toolbar().getByRole('checkbox', { name: 'Select all shown' }) as HTMLInputElement;
  const actionNames = () =>
    toolbar()
      .getAllByRole('button')
      .map((button) => button.textContent);

  it('offers no checkboxes without bulk_operations, and only the actions each permission allows with it', async () => {
    wallApi(authUser({ email: 'o@example.com', role: 'operator', permissions: ['circuit_breaker_view', 'circuit_breaker_operate'] }));
    renderWall();
    await waitFor(() => expect(screen.getAllByTestId('breaker-tile')).toHaveLength(3));
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('toolbar')).toBeNull();
    cleanup();

    wallApi(bulkOperator);
    renderWall();
    await waitFor(() => expect(checkbox('payments')).toBeTruthy());
    // the toolbar is fetched on first use, for holders of bulk_operations only
    await screen.findByRole('toolbar', { name: 'Actions on the chosen breakers' });
    expect(actionNames()).toEqual(['Force open', 'Force closed', 'Reset']);
    cleanup();

    wallApi(bulkAdmin);
    renderWall();
    await waitFor(() => expect(checkbox('payments')).toBeTruthy());
    // the toolbar is fetched on first use, for holders of bulk_operations only
    await screen.findByRole('toolbar', { name: 'Actions on the chosen breakers' });
    expect(actionNames()).toEqual(['Force open', 'Force closed', 'Reset', 'Delete']);
  });

  it('selects tiles one by one or all shown (the filters applied), counting them', async () => {
    wallApi(bulkAdmin);
    renderWall();
    await waitFor(() => expect(checkbox('payments')).toBeTruthy());
    // the toolbar is fetched on first use, for holders of bulk_operations only
    await screen.findByRole('toolbar', { name: 'Actions on the chosen breakers' });
    expect(toolbar().getByText('0 selected')).toBeTruthy();
    expect(toolbar().getByRole('button', { name: 'Force open' }).hasAttribute('disabled')).toBe(true);

    fireEvent.click(checkbox('search'));
    expect(checkbox('search').checked).toBe(true);
    expect(tile('search').hasAttribute('data-selected')).toBe(true);
    expect(toolbar().getByText('1 selected')).toBeTruthy();
    expect(selectAll().indeterminate).toBe(true);

    fireEvent.click(selectAll());
    expect(['payments', 'accounts', 'search'].map((name) => checkbox(name).checked)).toEqual([true, true, true]);
    expect(toolbar().getByText('3 selected')).toBeTruthy();
    fireEvent.click(selectAll());
    expect(toolbar().getByText('0 selected')).toBeTruthy();

    // with a filter, all shown is the simple breaker only; what the filter hides is not counted or acted on
    choose('Type', 'simple');
    fireEvent.click(selectAll());
    expect(toolbar().getByText('1 selected')).toBeTruthy();
    choose('Type', 'all');
    expect(['payments', 'accounts', 'search'].map((name) => checkbox(name).checked)).toEqual([true, false, false]);
  });

  it('asks once, naming how many, which and what happens, then acts on them all and sums the outcomes up', async () => {
    let body: unknown;
    const api = wallApi(bulkAdmin, {
      'POST /api/circuit-breakers/bulk': (sent: unknown) => {
        body = sent;
        return {
          results: [
            { id: 2, ok: true, status: 204 },
            {
              id: 1,
              ok: false,
              status: 409,
              message: 'Circuit breaker payments has a load test running (session 4); stop it before deleting the breaker',
            },
          ],
        };
      },
    });
    renderWall();
    await waitFor(() => expect(checkbox('payments')).toBeTruthy());
    // the toolbar is fetched on first use, for holders of bulk_operations only
    await screen.findByRole('toolbar', { name: 'Actions on the chosen breakers' });
    fireEvent.click(checkbox('payments'));
    fireEvent.click(checkbox('accounts'));
    fireEvent.click(toolbar().getByRole('button', { name: 'Delete' }));

    const dialog = within(await screen.findByRole('alertdialog', { name: 'Delete 2 breakers?' }));
    expect(dialog.getByText(/^accounts and payments\. Their configurations, journals and load-test history are deleted/)).toBeTruthy();
    expect(api.callsTo('POST', '/api/circuit-breakers/bulk')).toHaveLength(0);
    await clickAndSettle(dialog.getByRole('button', { name: 'Delete 2 breakers' }));

    await waitFor(() => expect(api.callsTo('POST', '/api/circuit-breakers/bulk')).toHaveLength(1));
    // in the wall's order (by name)
    expect(body).toEqual({ action: 'delete', ids: [2, 1] });
    expect(await screen.findByText('Delete: not every breaker changed')).toBeTruthy();
    expect(
      screen.getByText(
        '1 deleted, 1 failed: Circuit breaker payments has a load test running (session 4); stop it before deleting the breaker',
      ),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    // the one that failed stays chosen
    expect([checkbox('payments').checked, checkbox('accounts').checked]).toEqual([true, false]);
  });

  it('says when the request itself was refused', async () => {
    wallApi(bulkOperator, { 'POST /api/circuit-breakers/bulk': apiError(403, 'Requires the bulk_operations permission') });
    renderWall();
    await waitFor(() => expect(checkbox('search')).toBeTruthy());
    fireEvent.click(checkbox('search'));
    fireEvent.click(toolbar().getByRole('button', { name: 'Force open' }));
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Force open 1 breaker?' }));
    await clickAndSettle(dialog.getByRole('button', { name: 'Force open 1 breaker' }));
    expect(await screen.findByText('Requires the bulk_operations permission')).toBeTruthy();
    expect(checkbox('search').checked).toBe(true);
  });

  it('re-renders only the tile whose choice changed', async () => {
    wallApi(bulkAdmin);
    renderWall();
    await waitFor(() => expect(checkbox('payments')).toBeTruthy());
    // the toolbar is fetched on first use, for holders of bulk_operations only
    await screen.findByRole('toolbar', { name: 'Actions on the chosen breakers' });
    // each tile works out its state once per render
    const rendersOf = (id: number) => jest.mocked(tileState).mock.calls.filter(([tile]) => tile.breaker.id === id).length;
    const before = [1, 2, 3].map(rendersOf);
    fireEvent.click(checkbox('search'));
    expect(checkbox('search').checked).toBe(true);
    expect([1, 2, 3].map(rendersOf)).toEqual([before[0], before[1], before[2]! + 1]);
  });
});
