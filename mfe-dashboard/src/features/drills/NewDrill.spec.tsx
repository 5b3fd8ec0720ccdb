/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { apiError, clickAndSettle, fakeLive } from '@cbh/test-support';
import { admin, drillsApi, renderDrills, runningDrill } from './test-kit';

const SIGN_IN_AGAIN = 'Sign in again to start a drill: it hurts real traffic, so it needs a sign-in within the last 10 minutes';

let live: ReturnType<typeof fakeLive>;
beforeEach(async () => {
  await act(async () => void (live = fakeLive()));
});
afterEach(() => act(() => live.stop()));

async function openComposer() {
  renderDrills();
  fireEvent.click(await screen.findByRole('button', { name: 'New drill' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'New drill' }));
  // the breakers are read for the choices
  await waitFor(() => expect(dialog.queryByRole('status')).toBeNull());
  return dialog;
}

const set = (scope: ReturnType<typeof within>, label: string, value: string) =>
  fireEvent.change(scope.getByLabelText(label), { target: { value } });
const item = (dialog: ReturnType<typeof within>, testId: string) => within(dialog.getByTestId(testId));

/** Payments slowed for a minute, then a share of checkout's charge failing, expecting payments to open. */
function compose(dialog: ReturnType<typeof within>) {
  set(dialog, 'Name', 'Payments slows down');
  set(item(dialog, 'step-1'), 'Breaker', '5');
  fireEvent.click(dialog.getByRole('button', { name: 'Add step' }));
  const second = item(dialog, 'step-2');
  set(second, 'Breaker', '6');
  set(second, 'Fault', 'error');
  set(second, 'Calls hit (%)', '10');
  set(second, 'Instances', 'share');
  set(second, 'Instances hit (%)', '50');
  set(second, 'Duration (s)', '30');
  fireEvent.click(dialog.getByRole('button', { name: 'Add expectation' }));
  set(item(dialog, 'expectation-1'), 'Within (s)', '45');
}

const BODY = {
  name: 'Payments slows down',
  steps: [
    { breaker: 5, fault: { kind: 'latency', rate: 0.25, latencyMs: 800 }, instances: 'all', durationSeconds: 60 },
    { breaker: 6, fault: { kind: 'error', rate: 0.1 }, instances: 50, durationSeconds: 30 },
  ],
  expectations: [{ breaker: 5, state: 'OPEN', withinSeconds: 45, after: 'start' }],
};

it('offers the breakers on the wall a fault can reach, and judges each field as it is typed', async () => {
  drillsApi(admin);
  const dialog = await openComposer();
  const step = item(dialog, 'step-1');
  const options = [...(step.getByLabelText('Breaker') as HTMLSelectElement).options].map((option) => option.textContent);
  // a scraped breaker has no agent to inject the fault
  expect(options).toEqual(['Choose a breaker…', 'charge (checkout)', 'payments']);
  const start = dialog.getByRole('button', { name: 'Review and start' }) as HTMLButtonElement;
  expect(start.disabled).toBe(true);

  set(step, 'Calls hit (%)', '120');
  expect(step.getByText('Calls hit (%): must be a percentage from 0 to 100')).toBeTruthy();
  set(step, 'Calls hit (%)', '25');
  set(step, 'Latency (ms)', '');
  expect(step.getByText('Latency (ms): a latency fault needs latencyMs')).toBeTruthy();
  // a timeout may leave it to the breaker's own timeout
  set(step, 'Fault', 'timeout');
  expect(step.queryByText(/Latency \(ms\):/)).toBeNull();
  set(step, 'Fault', 'error');
  expect(step.queryByLabelText('Latency (ms)')).toBeNull();
  set(dialog, 'Name', 'Charge fails');
  set(step, 'Breaker', '6');
  expect(step.getByTestId('step-preview').textContent).toBe("errors on 25 % of charge's calls on all instances of checkout for 60 s");
  expect(start.disabled).toBe(false);
});

it('states the blast radius of each step before it starts, then sends exactly the body the API takes', async () => {
  const api = drillsApi(admin, {
    'POST /api/drills': () => Response.json({ ...runningDrill(9), name: 'Payments slows down' }, { status: 201 }),
    'GET /api/drills/9': { ...runningDrill(9), name: 'Payments slows down' },
  });
  const dialog = await openComposer();
  compose(dialog);
  fireEvent.click(dialog.getByRole('button', { name: 'Review and start' }));

  const confirm = within(await screen.findByRole('alertdialog', { name: 'Start drill' }));
  expect(confirm.getAllByTestId('blast-radius').map((line) => line.textContent)).toEqual([
    "Step 1: latency 800 ms on 25 % of payments' calls on all instances for 60 s",
    "Step 2: errors on 10 % of charge's calls on 50 % of instances of checkout for 30 s",
  ]);
  expect(confirm.getByText(/injects faults into real traffic, one step after the other, for 90 s in all/)).toBeTruthy();
  expect(api.callsTo('POST', '/api/drills')).toHaveLength(0);
  await clickAndSettle(confirm.getByRole('button', { name: 'Start drill' }));

  expect(api.callsTo('POST', '/api/drills').map((call) => call.body)).toEqual([BODY]);
  expect(await screen.findByText('Drill Started')).toBeTruthy();
  // on to the drill's own page
  expect(await screen.findByRole('heading', { name: 'Payments slows down', level: 1 })).toBeTruthy();
  expect(await screen.findByRole('button', { name: 'Stop drill' })).toBeTruthy();
});

it('goes back to the form, as it was, when the confirmation is cancelled', async () => {
  const api = drillsApi(admin);
  const dialog = await openComposer();
  compose(dialog);
  fireEvent.click(dialog.getByRole('button', { name: 'Review and start' }));
  const confirm = within(await screen.findByRole('alertdialog', { name: 'Start drill' }));
  fireEvent.click(confirm.getByRole('button', { name: 'Cancel' }));

  const again = within(await screen.findByRole('dialog', { name: 'New drill' }));
  expect((again.getByLabelText('Name') as HTMLInputElement).value).toBe('Payments slows down');
  expect((item(again, 'step-2').getByLabelText('Instances hit (%)') as HTMLInputElement).value).toBe('50');
  expect(api.callsTo('POST', '/api/drills')).toHaveLength(0);
});

it('brings the form back with the reason when the API refuses: an old sign-in offers to sign in again', async () => {
  drillsApi(admin, { 'POST /api/drills': apiError(403, SIGN_IN_AGAIN) });
  const dialog = await openComposer();
  compose(dialog);
  fireEvent.click(dialog.getByRole('button', { name: 'Review and start' }));
  await clickAndSettle(
    within(await screen.findByRole('alertdialog', { name: 'Start drill' })).getByRole('button', { name: 'Start drill' }),
  );

  const again = within(await screen.findByRole('dialog', { name: 'New drill' }));
  expect((await again.findByRole('alert')).textContent).toBe(SIGN_IN_AGAIN);
  expect(again.getByRole('link', { name: 'Sign in again' }).getAttribute('href')).toBe('/api/login');
  expect((again.getByLabelText('Name') as HTMLInputElement).value).toBe('Payments slows down');
});

it('says why a breaker already under a drill cannot take another', async () => {
  drillsApi(admin, { 'POST /api/drills': apiError(409, 'payments is already under the running drill Search errors') });
  const dialog = await openComposer();
  compose(dialog);
  fireEvent.click(dialog.getByRole('button', { name: 'Review and start' }));
  await clickAndSettle(
    within(await screen.findByRole('alertdialog', { name: 'Start drill' })).getByRole('button', { name: 'Start drill' }),
  );
  const again = within(await screen.findByRole('dialog', { name: 'New drill' }));
  expect((await again.findByRole('alert')).textContent).toBe('payments is already under the running drill Search errors');
  expect(again.queryByRole('link', { name: 'Sign in again' })).toBeNull();
});
