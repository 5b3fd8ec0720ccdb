/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import type { ComponentOfBreaker } from '@cbh/contracts';
import { breakerStats } from '@cbh/test-support';
import { admin, breakerApi, loadLazyParts, operator, renderPage } from './test-kit';

const COMPONENTS: ComponentOfBreaker[] = [
  { pageId: 3, pageTitle: 'Payments status', componentId: 11, componentName: 'Card payments' },
  { pageId: 4, pageTitle: 'Public API', componentId: 21, componentName: 'Checkout API' },
];
const metrics = (state: 'OPEN' | 'CLOSED') => ({ stats: [breakerStats({ configId: 5, state })] });
beforeAll(loadLazyParts);

const heading = () => screen.findByRole('heading', { name: 'Payments', level: 1 });

it('offers, on an open breaker, to open an incident on each status page component that includes it', async () => {
  const api = breakerApi(admin, { 'GET /api/metrics/latest': metrics('OPEN'), 'GET /api/status-components': COMPONENTS });
  renderPage();
  // behind a Suspense boundary, which React reveals no sooner than 300 ms after its fallback, and a query of its own
  const offer = within(await screen.findByRole('region', { name: 'Open an incident' }));
  const links = offer.getAllByRole('link');
  expect(links.map((link) => link.textContent)).toEqual(['Card payments on Payments status', 'Checkout API on Public API']);
  expect(links.map((link) => link.getAttribute('href'))).toEqual([
    '/status-pages/3?incident=new&components=11',
    '/status-pages/4?incident=new&components=21',
  ]);
  expect(api.callsTo('GET', '/api/status-components?breaker=5')).toHaveLength(1);
});

it('offers nothing, and asks nothing, while the breaker is closed or to those who may not manage status pages', async () => {
  const closed = breakerApi(admin, { 'GET /api/metrics/latest': metrics('CLOSED'), 'GET /api/status-components': COMPONENTS });
  const { unmount } = renderPage();
  await heading();
  expect(screen.queryByRole('region', { name: 'Open an incident' })).toBeNull();
  expect(closed.calls.filter((call) => call.path.startsWith('/api/status-components'))).toEqual([]);
  unmount();

  const notAdmin = breakerApi(operator, { 'GET /api/metrics/latest': metrics('OPEN'), 'GET /api/status-components': COMPONENTS });
  renderPage();
  await heading();
  await waitFor(() => expect(screen.getByTestId('state-badge').textContent).toBe('OPEN'));
  expect(screen.queryByRole('region', { name: 'Open an incident' })).toBeNull();
  expect(notAdmin.calls.filter((call) => call.path.startsWith('/api/status-components'))).toEqual([]);
});

it('offers nothing when no status page component includes the breaker', async () => {
  const api = breakerApi(admin, { 'GET /api/metrics/latest': metrics('OPEN'), 'GET /api/status-components': [] });
  renderPage();
  await heading();
  await waitFor(() => expect(api.callsTo('GET', '/api/status-components?breaker=5')).toHaveLength(1));
  expect(screen.queryByRole('region', { name: 'Open an incident' })).toBeNull();
});
