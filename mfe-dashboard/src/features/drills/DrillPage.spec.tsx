/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, screen, waitFor, within } from '@testing-library/react';
import { clickAndSettle, fakeLive } from '@cbh/test-support';
import { DRILLS_ACCESS } from './drill-access';
import { admin, drillsApi, renderDrills, runningDrill, stoppedDrill, viewer } from './test-kit';

const shown = () => screen.findByRole('heading', { name: 'Payments slows down', level: 1 });
const region = (name: string) => within(screen.getByRole('region', { name }));
const cells = (testId: string) =>
  within(screen.getByTestId(testId))
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

let live: ReturnType<typeof fakeLive>;
beforeEach(async () => {
  await act(async () => void (live = fakeLive()));
});
afterEach(() => act(() => live.stop()));

it('shows a running drill: the time left, each step with its fault’s share and countdown, the expectations so far', async () => {
  drillsApi(admin);
  renderDrills('/drills/4');
  await shown();
  expect(screen.getByText(/^Started .* by Ada: 2 steps, 2 expectations\.$/)).toBeTruthy();
  expect(region('Now').getByTestId('drill-countdown').textContent).toMatch(/^Ends in 1:(09|10)$/);
  expect(region('Now').getByTestId('drill-state').textContent).toBe('Running');

  expect(cells('step-0').slice(0, 4)).toEqual(['Step 1: payments', 'latency 800 ms on 25 % of calls', 'all instances', '60 s']);
  expect(screen.getByTestId('step-time-0').textContent).toMatch(/^Ends in 0:(39|40)$/);
  expect(screen.getByRole('progressbar', { name: 'Step 1: time elapsed' }).getAttribute('aria-valuenow')).toMatch(/^3[34]$/);
  expect(cells('step-1').slice(0, 4)).toEqual(['Step 2: charge', 'errors on 10 % of calls', '50 % of instances of checkout', '30 s']);
  expect(screen.getByTestId('step-time-1').textContent).toMatch(/^Starts in 0:(39|40)$/);
  // the countdowns count on by themselves, a second at a time
  const before = screen.getByTestId('step-time-0').textContent;
  await waitFor(() => expect(screen.getByTestId('step-time-0').textContent).not.toBe(before), { timeout: 2500 });

  expect(cells('expectation-0')).toEqual(['payments', 'OPEN within 30 s of the start', 'Met', '12 s']);
  expect(cells('expectation-1')).toEqual(['payments', 'CLOSED within 120 s after the end', 'Pending', '—']);
  expect(within(screen.getByTestId('expectation-0')).getByRole('link', { name: 'payments' }).getAttribute('href')).toBe(
    '/circuit-breakers/5',
  );

  expect(
    region('Timeline')
      .getAllByTestId('timeline-entry')
      .map((entry) => entry.querySelector('span')!.textContent),
  ).toEqual([
    'Ada started the drill',
    'Latency 800 ms applied (instance payments-1)',
    'payments went CLOSED → OPEN',
    'payments reached OPEN after 12 s',
  ]);
});

it('draws its breakers as the wall does, live: payments open, checkout’s charge closed', async () => {
  drillsApi(admin);
  renderDrills('/drills/4');
  await shown();
  const breakers = region('Breakers');
  await waitFor(() =>
    expect(breakers.getAllByRole('article').map((tile) => tile.getAttribute('aria-label'))).toEqual(['payments', 'charge']),
  );
  await waitFor(() => expect(breakers.getByRole('article', { name: 'payments' }).dataset.state).toBe('OPEN'));
  act(() =>
    live.emit({
      type: 'stateChange',
      data: { configId: 5, from: 'OPEN', to: 'HALF_OPEN', reason: 'recovery time elapsed', at: new Date().toISOString(), instanceId: 'a' },
    }),
  );
  await waitFor(() => expect(breakers.getByRole('article', { name: 'payments' }).dataset.state).toBe('HALF_OPEN'));
});

it('stops the drill with its large Stop button, at once, and shows its report once the drill says it changed', async () => {
  let drill = runningDrill();
  const api = drillsApi(admin, {
    'GET /api/drills/4': () => drill,
    'POST /api/drills/4/stop': () => stoppedDrill(),
  });
  renderDrills('/drills/4');
  await shown();
  await clickAndSettle(screen.getByRole('button', { name: 'Stop drill' }));
  await waitFor(() => expect(api.callsTo('POST', '/api/drills/4/stop')).toHaveLength(1));
  expect(await screen.findByText('Drill Stopped')).toBeTruthy();

  // what the API says next comes over /ws as well
  drill = stoppedDrill();
  act(() => live.emit({ type: 'drillChanged', data: { id: 4, state: 'stopped' } }));
  const report = within(await screen.findByRole('region', { name: 'Report' }));
  expect(report.getByTestId('drill-outcome').textContent).toBe('Stopped by Bob after 30 s. 1 of 2 expectations met, 1 missed.');
  expect(report.getByTestId('drill-verdict').textContent).toBe('Missed');
  expect(screen.queryByRole('button', { name: 'Stop drill' })).toBeNull();
  expect(screen.getByTestId('step-time-0').textContent).toBe('Cut short by the stop');
  expect(screen.getByTestId('step-time-1').textContent).toBe('Did not run');
  expect(cells('expectation-1')).toEqual(['payments', 'CLOSED within 120 s after the end', 'Missed', '—']);
  expect(region('Timeline').getAllByTestId('timeline-entry').at(-1)!.textContent).toContain('Bob stopped the drill');
});

it('says there is no such drill for an address that names none', async () => {
  const api = drillsApi(admin, { 'GET /api/drills/8': () => Response.json({ statusCode: 404, message: 'No drill 8' }, { status: 404 }) });
  const { unmount } = renderDrills('/drills/8');
  expect(await screen.findByRole('heading', { name: 'Drill not found' })).toBeTruthy();
  expect(screen.getByRole('link', { name: 'See all drills' }).getAttribute('href')).toBe('/drills');
  unmount();
  renderDrills('/drills/08');
  expect(await screen.findByRole('heading', { name: 'Drill not found' })).toBeTruthy();
  expect(api.calls.filter((call) => call.path.startsWith('/api/drills/0'))).toHaveLength(0);
});

it('reads nothing for an account without circuit_breaker_admin', async () => {
  const api = drillsApi(viewer);
  renderDrills('/drills/4');
  expect(await screen.findByText(DRILLS_ACCESS.noAccessText)).toBeTruthy();
  expect(api.callsTo('GET', '/api/drills/4')).toHaveLength(0);
});
