/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MANUAL_ACTION_TEXT, MANUAL_ACTIONS, type AuthUser } from '@cbh/contracts';
import { apiError, breakerStats, clickAndSettle, fakeLive } from '@cbh/test-support';
import { admin, BREAKER, breakerApi, operator, outsider, renderPage, viewer } from './test-kit';

// no polyfillRadix: its ResizeObserver would make the charts draw on a canvas, which jsdom lacks (they keep their text)

const heading = () => screen.findByRole('heading', { name: 'Payments', level: 1 });
const region = (name: string) => within(screen.getByRole('region', { name }));
const dialog = async (name: string) => within(await screen.findByRole('alertdialog', { name }));

describe('what each role sees', () => {
  it.each<[string, AuthUser, { edit: boolean; remove: boolean; control: boolean }]>([
    ['a viewer sees everything, with no button that changes anything', viewer, { edit: false, remove: false, control: false }],
    ['an operator gets the manual controls, but not Edit or Delete', operator, { edit: false, remove: false, control: true }],
    ['an admin gets Edit, Delete and the manual controls', admin, { edit: true, remove: true, control: true }],
  ])('%s', async (_case, user, can) => {
    breakerApi(user);
    renderPage();
    await heading();
    expect(screen.getByTestId('breaker-type').textContent).toBe('simple');
    expect(screen.getByTestId('state-badge').textContent).toBe('CLOSED');
    expect(await screen.findByText('Card processor')).toBeTruthy();
    expect(screen.queryByText('Stock')).toBeNull();
    expect(region('Settings').getByText('30 s')).toBeTruthy();
    expect(await screen.findByText('Before step 1 of 1')).toBeTruthy();

    expect(Boolean(screen.queryByRole('button', { name: 'Edit' }))).toBe(can.edit);
    expect(Boolean(screen.queryByRole('button', { name: 'Delete' }))).toBe(can.remove);
    expect(Boolean(screen.queryByRole('region', { name: 'Manual control' }))).toBe(can.control);
    for (const action of MANUAL_ACTIONS) {
      expect(Boolean(screen.queryByRole('button', { name: MANUAL_ACTION_TEXT[action].label }))).toBe(can.control);
    }
  });

  it('shows the current figures, the load tests and the journal', async () => {
    breakerApi(viewer);
    renderPage();
    await heading();
    const figures = within(screen.getByRole('group', { name: 'Current figures' }));
    await waitFor(() => expect(figures.getByRole('region', { name: 'Calls/s' }).textContent).toContain('19.8'));
    expect(figures.getByRole('region', { name: 'Error rate' }).textContent).toContain('12.3%');
    expect(figures.getByRole('region', { name: 'Latency p50 / p99' }).textContent).toContain('42 / 180 ms');
    expect(figures.getByRole('region', { name: 'Replicas open' }).textContent).toContain('0 of 2');

    const row = within(await screen.findByRole('region', { name: 'Load tests of this breaker' })).getAllByRole('row')[1]!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([expect.stringMatching(/Mar 2, 2026/), '1 min 20 s of 5 min', '60%', '20 req/s', 'Stopped']);

    const journal = region('Transition journal');
    await journal.findByText('Before step 1 of 1');
    expect(journal.getByRole('listitem', { current: 'step' }).textContent).toBe('CLOSED');
    fireEvent.click(journal.getByRole('button', { name: 'Next' }));
    expect(journal.getByRole('listitem', { current: 'step' }).textContent).toBe('OPEN');
    expect(journal.getByTestId('diagram-caption').textContent).toBe('5 consecutive failures');
  });

  it('says so when no service or load test uses the breaker', async () => {
    breakerApi(viewer, { 'GET /api/services': [], 'GET /api/test-sessions': [] });
    renderPage();
    expect(await screen.findByText('No service calls through this breaker.')).toBeTruthy();
    expect(await screen.findByText('No load test has run through this breaker yet.')).toBeTruthy();
  });

  it('shows Access Restricted without circuit_breaker_view, and asks the API for nothing else', async () => {
    const api = breakerApi(outsider);
    renderPage();
    expect(await screen.findByText('Access Restricted')).toBeTruthy();
    expect(api.calls.map((call) => call.path)).toEqual(['/api/auth/user']);
  });

  it.each([
    ['an id no breaker has', '/circuit-breakers/77', true],
    ['a malformed id', '/circuit-breakers/1e3', false],
  ])('says the breaker is not found for %s, with a link back to the wall', async (_case, path, asksForBreakers) => {
    const api = breakerApi(viewer);
    renderPage(path);
    expect(await screen.findByRole('heading', { name: 'Circuit breaker not found' })).toBeTruthy();
    expect(api.callsTo('GET', '/api/circuit-breakers').length > 0).toBe(asksForBreakers);
    fireEvent.click(screen.getByRole('link', { name: 'See all circuit breakers' }));
    expect(await screen.findByRole('heading', { name: 'All circuit breakers' })).toBeTruthy();
  });
});

describe('manual control', () => {
  it("confirms with the action's effect on live traffic, then POSTs it and says it is done", async () => {
    const api = breakerApi(operator, {
      'POST /api/circuit-breakers/5/force-open': { ...BREAKER, state: 'OPEN', override: 'forced-open' },
    });
    renderPage();
    await heading();
    expect(screen.getByTestId('current-override').textContent).toBe('Override: none');
    fireEvent.click(screen.getByRole('button', { name: 'Force open' }));
    const confirm = await dialog('Force open “Payments”?');
    expect(confirm.getByText(MANUAL_ACTION_TEXT['force-open'].effect)).toBeTruthy();
    await clickAndSettle(confirm.getByRole('button', { name: 'Force open' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/circuit-breakers/5/force-open')).toHaveLength(1));
    expect(await screen.findByText(MANUAL_ACTION_TEXT['force-open'].done)).toBeTruthy();
    expect(screen.getByText('Payments is OPEN now; override: forced open.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('does nothing on Cancel, and shows the server’s message when the control is refused', async () => {
    const api = breakerApi(operator, { 'POST /api/circuit-breakers/5/reset': apiError(403, 'Missing permission circuit_breaker_operate') });
    renderPage();
    await heading();
    fireEvent.click(screen.getByRole('button', { name: 'Disable' }));
    fireEvent.click((await dialog('Disable “Payments”?')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    const confirm = await dialog('Reset “Payments”?');
    expect(confirm.getByText(MANUAL_ACTION_TEXT.reset.effect)).toBeTruthy();
    await clickAndSettle(confirm.getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Missing permission circuit_breaker_operate')).toBeTruthy();
  });
});

describe('settings', () => {
  it("edits the four settings with the sliders, PATCHes them and says 'Configuration Updated'", async () => {
    const api = breakerApi(admin, {
      'PATCH /api/circuit-breakers/5': (body: unknown) => ({ ...BREAKER, ...(body as object) }),
    });
    renderPage();
    await heading();
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const edit = within(await screen.findByRole('dialog', { name: 'Edit settings of Payments' }));
    expect(edit.getByRole('slider', { name: /Failure threshold/ })).toMatchObject({ min: '1', max: '20', value: '5' });
    fireEvent.change(edit.getByRole('slider', { name: /Failure threshold/ }), { target: { value: '8' } });
    fireEvent.change(edit.getByRole('slider', { name: /Timeout/ }), { target: { value: '45' } });
    await clickAndSettle(edit.getByRole('button', { name: 'Save' }));
    expect(api.callsTo('PATCH', '/api/circuit-breakers/5').map((call) => call.body)).toEqual([
      { failureThreshold: 8, timeout: 45_000, recoveryTime: 60_000, successThreshold: 3 },
    ]);
    expect(await screen.findByText('Configuration Updated')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('keeps the dialog open with the server’s message when the save is refused', async () => {
    breakerApi(admin, { 'PATCH /api/circuit-breakers/5': apiError(400, 'timeout: must be a multiple of 5000 ms') });
    renderPage();
    await heading();
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    await clickAndSettle(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('timeout: must be a multiple of 5000 ms')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Edit settings of Payments' })).toBeTruthy();
  });
});

describe('delete', () => {
  it('shows the reason when the API refuses (409: a load test is running) and stays on the page', async () => {
    const reason = 'Circuit breaker Payments has a load test running (session 41); stop it before deleting the breaker';
    const api = breakerApi(admin, { 'DELETE /api/circuit-breakers/5': apiError(409, reason) });
    renderPage();
    await heading();
    await screen.findByText('Card processor');
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = await dialog('Delete Payments?');
    expect(confirm.getByText(/the 1 service using it will call without a breaker\. This cannot be undone\./)).toBeTruthy();
    await clickAndSettle(confirm.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(reason)).toBeTruthy();
    expect(api.callsTo('DELETE', '/api/circuit-breakers/5')).toHaveLength(1);
    expect(screen.getByRole('heading', { name: 'Payments', level: 1 })).toBeTruthy();
  });

  it('returns to the wall with a toast once deleted', async () => {
    breakerApi(admin, { 'DELETE /api/circuit-breakers/5': () => new Response(null, { status: 204 }) });
    renderPage();
    await heading();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await clickAndSettle((await dialog('Delete Payments?')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('heading', { name: 'All circuit breakers' })).toBeTruthy();
    expect(screen.getByText('Circuit Breaker Deleted')).toBeTruthy();
  });
});

it('follows the live metrics: state badge, override, figures and charts', async () => {
  breakerApi(viewer);
  const live = fakeLive();
  try {
    renderPage('/circuit-breakers/5', { live: true });
    await heading();
    const open = breakerStats({
      configId: 5,
      state: 'OPEN',
      override: 'forced-open',
      requestsPerSecond: 4,
      errorPercentage: 100,
      replicas: { open: 2, total: 2 },
    });
    act(() => live.emit({ type: 'metricsUpdate', data: { stats: [open] } }));
    await waitFor(() => expect(screen.getByTestId('state-badge').textContent).toBe('OPEN'));
    expect(screen.getByTestId('override-badge').textContent).toBe('Override: forced open');
    expect(screen.getByRole('region', { name: 'Replicas open' }).textContent).toContain('2 of 2');
    expect(await screen.findByRole('img', { name: 'Throughput: Calls/s 4 calls/s' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Breaker state: State OPEN' })).toBeTruthy();
  } finally {
    act(() => live.stop());
  }
});
