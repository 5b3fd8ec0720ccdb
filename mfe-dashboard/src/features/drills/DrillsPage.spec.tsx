/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { apiError, authUser, clickAndSettle, fakeLive } from '@cbh/test-support';
import { DRILLS_ACCESS } from './drill-access';
import { EMPTY_TEXT } from './DrillsPage';
import { admin, drillsApi, FINISHED, renderDrills, viewer } from './test-kit';

const table = () => screen.findByRole('table', { name: 'Drills' });
const cells = (id: number) =>
  within(screen.getByTestId(`drill-${id}`))
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

let live: ReturnType<typeof fakeLive>;
beforeEach(async () => {
  await act(async () => void (live = fakeLive()));
});
afterEach(() => act(() => live.stop()));

it('says which permission is needed, and reads no drill, without circuit_breaker_admin', async () => {
  const api = drillsApi(viewer);
  renderDrills();
  expect(await screen.findByText(DRILLS_ACCESS.noAccessText)).toBeTruthy();
  expect(screen.getByRole('heading', { name: 'Drills', level: 1 })).toBeTruthy();
  expect(api.callsTo('GET', '/api/drills')).toHaveLength(0);
  expect(screen.queryByRole('button', { name: 'New drill' })).toBeNull();
});

it('lists each drill, newest first, with its state, verdict, start and who started it', async () => {
  drillsApi(admin);
  renderDrills();
  await table();
  expect(cells(4)).toEqual(['Payments slows down', 'Running', 'Pending', 'just now', 'Ada']);
  expect(cells(2)).toEqual(['Search errors', 'Finished', 'Met', expect.stringMatching(/ago$/), 'a removed account']);
  expect(screen.getByRole('link', { name: 'Payments slows down' }).getAttribute('href')).toBe('/drills/4');
  expect(screen.getByRole('button', { name: 'New drill' })).toBeTruthy();
});

it('stops every running drill from the kill switch, once confirmed, and says how many', async () => {
  const api = drillsApi(admin, { 'POST /api/drills/stop-all': { stopped: 1 } });
  renderDrills();
  const banner = within(await screen.findByRole('region', { name: 'Running drills' }));
  expect(banner.getByText(/1 drill is running/)).toBeTruthy();
  expect(banner.getByText('Payments slows down')).toBeTruthy();

  fireEvent.click(banner.getByRole('button', { name: 'Stop all drills' }));
  const confirm = within(await screen.findByRole('alertdialog', { name: 'Stop all drills' }));
  expect(confirm.getByText(/^Stop the running drill \(Payments slows down\)\? Every fault they inject is lifted at once/)).toBeTruthy();
  // nothing is sent before the confirmation
  expect(api.callsTo('POST', '/api/drills/stop-all')).toHaveLength(0);
  await clickAndSettle(confirm.getByRole('button', { name: 'Stop all drills' }));

  await waitFor(() => expect(api.callsTo('POST', '/api/drills/stop-all')).toHaveLength(1));
  expect(await screen.findByText('Drills Stopped')).toBeTruthy();
  expect(screen.getByText('1 drill stopped: their faults are lifted.')).toBeTruthy();
  await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
});

it('asks nothing when the kill switch is cancelled', async () => {
  const api = drillsApi(admin);
  renderDrills();
  const banner = within(await screen.findByRole('region', { name: 'Running drills' }));
  fireEvent.click(banner.getByRole('button', { name: 'Stop all drills' }));
  const confirm = within(await screen.findByRole('alertdialog', { name: 'Stop all drills' }));
  fireEvent.click(confirm.getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  expect(api.callsTo('POST', '/api/drills/stop-all')).toHaveLength(0);
});

it('shows no kill switch while no drill runs, and reads the list again when a drill changes', async () => {
  const api = drillsApi(admin, { 'GET /api/drills': [FINISHED] });
  renderDrills();
  await table();
  expect(screen.queryByRole('region', { name: 'Running drills' })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Stop all drills' })).toBeNull();
  const reads = api.callsTo('GET', '/api/drills').length;
  act(() => live.emit({ type: 'drillChanged', data: { id: 2, state: 'finished' } }));
  await waitFor(() => expect(api.callsTo('GET', '/api/drills').length).toBe(reads + 1));
});

it('says when there are no drills yet, and when they cannot be read', async () => {
  drillsApi(admin, { 'GET /api/drills': [] });
  const { unmount } = renderDrills();
  expect(await screen.findByText(EMPTY_TEXT)).toBeTruthy();
  unmount();

  drillsApi(authUser({ ...admin }), { 'GET /api/drills': apiError(403, 'Missing permission circuit_breaker_admin') });
  renderDrills();
  expect((await screen.findByRole('alert')).textContent).toBe('The drills could not be loaded. Missing permission circuit_breaker_admin');
});

const SAVED = {
  id: 7,
  name: 'Checkout game day',
  steps: [
    {
      breaker: { service: 'checkout', name: 'payments' },
      fault: { kind: 'latency', rate: 0.25, latencyMs: 800 },
      instances: 'all',
      durationSeconds: 60,
    },
    { breaker: 'Search API', fault: { kind: 'error', rate: 0.5 }, instances: 50, durationSeconds: 30 },
  ],
  expectations: [],
  updatedAt: '2026-11-29T10:00:00.000Z',
};

it('lists the saved drills with what each does, and runs one once confirmed, opening its page', async () => {
  const api = drillsApi(admin, {
    'GET /api/drill-definitions': [SAVED],
    'POST /api/drill-definitions/7/run': { id: 4 },
  });
  renderDrills();
  const saved = within(await screen.findByRole('region', { name: 'Saved drills' }));
  expect(saved.getByTestId('saved-drill-7').textContent).toContain(
    "latency 800 ms on 25 % of payments' calls on all instances of checkout for 60 s; errors on 50 % of Search API's calls on 50 % of instances for 30 s",
  );
  fireEvent.click(saved.getByRole('button', { name: 'Run Checkout game day' }));
  const confirm = within(await screen.findByRole('alertdialog', { name: 'Run saved drill' }));
  expect(confirm.getByText(/step 1: latency 800 ms on 25 % of payments' calls/)).toBeTruthy();
  await clickAndSettle(confirm.getByRole('button', { name: 'Run drill' }));
  await waitFor(() => expect(api.callsTo('POST', '/api/drill-definitions/7/run')).toHaveLength(1));
  expect(await screen.findByRole('heading', { level: 1, name: 'Payments slows down' })).toBeTruthy();
});

it('shows no saved drills section while the document keeps none', async () => {
  const api = drillsApi(admin, { 'GET /api/drill-definitions': [] });
  renderDrills();
  await table();
  await waitFor(() => expect(api.callsTo('GET', '/api/drill-definitions')).toHaveLength(1));
  expect(screen.queryByRole('region', { name: 'Saved drills' })).toBeNull();
});
