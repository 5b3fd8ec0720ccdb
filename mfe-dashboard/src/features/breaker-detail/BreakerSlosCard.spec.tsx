/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { screen, waitFor, within } from '@testing-library/react';
import { apiError } from '@cbh/test-support';
import { CHECKOUT, LATENCY } from '../slos/test-kit';
import { breakerApi, loadLazyParts, renderPage, viewer } from './test-kit';

beforeAll(loadLazyParts);

// no polyfillRadix: its ResizeObserver would make the charts draw on a canvas, which jsdom lacks

it('lists the SLOs the breaker feeds: each by name, linking to its page, with its status and budget left', async () => {
  const api = breakerApi(viewer, { 'GET /api/slos': [CHECKOUT, LATENCY] });
  renderPage();
  // the card is the console's last part: its SLOs are asked for once the breaker is shown
  const card = within(await screen.findByRole('region', { name: 'SLOs it feeds' }));
  expect(api.calls.filter((call) => call.path.startsWith('/api/slos')).map((call) => call.path)).toEqual(['/api/slos?breaker=5']);
  const item = (id: number) => within(screen.getByTestId(`breaker-slo-${id}`));
  expect(item(1).getByRole('link', { name: 'Checkout availability' }).getAttribute('href')).toBe('/slos/1');
  expect(item(1).getByText('Breaching')).toBeTruthy();
  expect(item(1).getByText('12.5%')).toBeTruthy();
  expect(item(2).getByText('OK')).toBeTruthy();
  expect(item(2).getByText('100%')).toBeTruthy();
  expect(card.getAllByRole('listitem')).toHaveLength(2);
});

it('shows no card for a breaker that feeds none, nor when the SLOs cannot be read', async () => {
  const api = breakerApi(viewer, { 'GET /api/slos': [] });
  const { unmount } = renderPage();
  await screen.findByRole('region', { name: 'Depends on' });
  await waitFor(() => expect(api.callsTo('GET', '/api/slos?breaker=5')).toHaveLength(1));
  expect(screen.queryByRole('region', { name: 'SLOs it feeds' })).toBeNull();
  unmount();

  breakerApi(viewer, { 'GET /api/slos': apiError(403, 'Forbidden') });
  renderPage();
  await screen.findByRole('region', { name: 'Depends on' });
  expect(screen.queryByRole('region', { name: 'SLOs it feeds' })).toBeNull();
});
