/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MANUAL_ACTION_TEXT, readOnlyBreakerMessage, type JournalEntry } from '@cbh/contracts';
import { apiError, breakerStats, clickAndSettle, fakeLive, rowsOf } from '@cbh/test-support';
import { admin, AGENT_BREAKER, breakerApi, breakerInstance, operator, renderPage, viewer } from './test-kit';

/*
 * The page of a breaker that runs in a service: its instances instead of the hub's services and load tests, its
 * library's settings instead of the hub's four, and no control at all of a scraped one.
 */

const heading = (name: string) => screen.findByRole('heading', { name, level: 1 });
const region = (name: string) => within(screen.getByRole('region', { name }));
const origin = () =>
  Array.from(screen.getByTestId('breaker-origin').querySelectorAll('div')).map(
    (fact) => `${fact.querySelector('dt')!.textContent}: ${fact.querySelector('dd')!.textContent}`,
  );

/** A report a few seconds old: 'just now', or some seconds ago on a busy machine. */
const RECENT = expect.stringMatching(/^(just now|\d s ago)$/);

const REPORTED_MOVE: JournalEntry = {
  id: 31,
  configId: 7,
  from: 'CLOSED',
  to: 'OPEN',
  reason: 'errorThresholdPercentage of 50% reached',
  at: '2026-03-02T09:00:40.000Z',
  instanceId: null,
  serviceInstance: 'checkout-1',
};

function agentApi(me = admin, routes: Record<string, unknown> = {}) {
  return breakerApi(me, {
    'GET /api/metrics/latest': {
      stats: [
        breakerStats({
          configId: 7,
          requestsPerSecond: 30,
          errorPercentage: 40,
          instances: { open: 1, total: 3, stale: 1, bad: 'checkout-2' },
        }),
      ],
    },
    'GET /api/circuit-breakers/7/instances': {
      instances: [
        breakerInstance('checkout-1'),
        breakerInstance('checkout-2', { state: 'OPEN', bad: true, errorPercentage: 92.35 }),
        breakerInstance('checkout-3'),
        breakerInstance('checkout-4', { stale: true, lastReportAt: new Date(Date.now() - 5 * 60_000).toISOString() }),
      ],
      merged: null,
    },
    'GET /api/circuit-breakers/7/transitions': { transitions: [REPORTED_MOVE], nextBefore: null },
    ...routes,
  });
}

describe("an agent's breaker", () => {
  it('names its service, source and library, and shows its instances instead of the services and load tests', async () => {
    const api = agentApi();
    renderPage('/circuit-breakers/7');
    await heading('charge-card');
    expect(origin()).toEqual(['Service: checkout', 'Source: Agent', 'Library: opossum · error-percentage']);
    expect(screen.getByText(/summed over the live instances of its service/)).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('region', { name: 'Instances open' }).textContent).toContain('1 of 3'));

    const table = await screen.findByRole('region', { name: 'Instances of this breaker' });
    expect(rowsOf(table)).toEqual([
      ['checkout-1', 'CLOSED', '10', '2%', '89 ms', RECENT],
      ['checkout-2Bad instance', 'OPEN', '10', '92.4%', '89 ms', RECENT],
      ['checkout-3', 'CLOSED', '10', '2%', '89 ms', RECENT],
      ['checkout-4Stale', 'CLOSED', '10', '2%', '89 ms', '5 min ago'],
    ]);
    expect(within(table).getAllByRole('row')[4]!.hasAttribute('data-stale')).toBe(true);
    expect(region('Instances').getByText('Stale instances have stopped reporting: the figures above leave them out.')).toBeTruthy();

    expect(screen.queryByRole('region', { name: 'Settings' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Services using this breaker' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Load-test history' })).toBeNull();
    expect(api.callsTo('GET', '/api/services')).toHaveLength(0);
    expect(api.calls.some((call) => call.path.startsWith('/api/test-sessions'))).toBe(false);
  });

  it('says when no instance has reported yet', async () => {
    agentApi(viewer, { 'GET /api/circuit-breakers/7/instances': { instances: [], merged: null } });
    renderPage('/circuit-breakers/7');
    expect(await screen.findByText('No instance has reported yet.')).toBeTruthy();
  });

  it('reads its instances again with every live update of the figures', async () => {
    let reads = 0;
    const api = agentApi(viewer, {
      'GET /api/circuit-breakers/7/instances': () => {
        reads += 1;
        return { instances: [breakerInstance('checkout-1', { requestsPerSecond: reads * 10 })], merged: null };
      },
    });
    const live = fakeLive();
    try {
      renderPage('/circuit-breakers/7', { live: true });
      const table = await screen.findByRole('region', { name: 'Instances of this breaker' });
      expect(rowsOf(table)[0]![2]).toBe('10');
      act(() => live.emit({ type: 'metricsUpdate', data: { stats: [breakerStats({ configId: 7 })] } }));
      await waitFor(() => expect(rowsOf(screen.getByRole('region', { name: 'Instances of this breaker' }))[0]![2]).toBe('20'));
      expect(api.callsTo('GET', '/api/circuit-breakers/7/instances')).toHaveLength(2);
    } finally {
      act(() => live.stop());
    }
  });

  it('names the instance each reported move of the journal happened on', async () => {
    agentApi(viewer);
    renderPage('/circuit-breakers/7');
    const journal = await screen.findByRole('list', { name: 'Transitions, newest first' });
    await waitFor(() => expect(within(journal).getByRole('button').textContent).toContain('on checkout-1'));
  });

  it('lists its library settings, and lets an admin change the numeric ones, sending only those changed', async () => {
    const api = agentApi(admin, {
      'PATCH /api/circuit-breakers/7': (body: { librarySettings: Record<string, number> }) => ({
        ...AGENT_BREAKER,
        librarySettings: { ...AGENT_BREAKER.librarySettings, ...body.librarySettings },
      }),
    });
    renderPage('/circuit-breakers/7');
    await heading('charge-card');
    const settings = await screen.findByRole('region', { name: 'Library settings' });
    expect(Array.from(settings.querySelectorAll('dt')).map((dt) => `${dt.textContent} ${dt.nextElementSibling!.textContent}`)).toEqual([
      'errorThresholdPercentage 50',
      'resetTimeout 30000',
      'volumeThreshold 10',
      'allowWarmUp false',
    ]);

    fireEvent.click(within(settings).getByRole('button', { name: 'Edit' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit library settings of charge-card' }));
    // a flag is the service's to set: only numbers are offered
    expect(dialog.getAllByRole('textbox').map((field) => (field as HTMLInputElement).value)).toEqual(['50', '30000', '10']);
    expect(dialog.getByRole('textbox', { name: 'resetTimeout' })).toBeTruthy();
    expect(dialog.queryByLabelText('allowWarmUp')).toBeNull();
    const save = dialog.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    fireEvent.change(dialog.getByLabelText('errorThresholdPercentage'), { target: { value: 'half' } });
    expect(dialog.getByText('errorThresholdPercentage: must be a number')).toBeTruthy();
    expect(save.disabled).toBe(true);
    fireEvent.change(dialog.getByLabelText('errorThresholdPercentage'), { target: { value: '-1' } });
    expect(dialog.getByText('errorThresholdPercentage: must be at least 0')).toBeTruthy();
    fireEvent.change(dialog.getByLabelText('errorThresholdPercentage'), { target: { value: '30' } });
    await clickAndSettle(save);

    expect(api.callsTo('PATCH', '/api/circuit-breakers/7').map((call) => call.body)).toEqual([
      { librarySettings: { errorThresholdPercentage: 30 } },
    ]);
    expect(await screen.findByText('Library Settings Sent')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('keeps the dialog open with the server’s message when the change is refused', async () => {
    const message = 'librarySettings.resetTimeout: Too big: expected number to be <=1000000000';
    agentApi(admin, { 'PATCH /api/circuit-breakers/7': apiError(400, message) });
    renderPage('/circuit-breakers/7');
    fireEvent.click(within(await screen.findByRole('region', { name: 'Library settings' })).getByRole('button', { name: 'Edit' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit library settings of charge-card' }));
    fireEvent.change(dialog.getByLabelText('resetTimeout'), { target: { value: '2000000000' } });
    await clickAndSettle(dialog.getByRole('button', { name: 'Save' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(message);
    expect(screen.getByRole('dialog', { name: 'Edit library settings of charge-card' })).toBeTruthy();
  });

  it('keeps the manual controls, with the confirmation the hub’s breakers have, sent to every instance', async () => {
    const api = agentApi(operator, {
      'POST /api/circuit-breakers/7/force-open': { ...AGENT_BREAKER, state: 'OPEN', override: 'forced-open' },
    });
    renderPage('/circuit-breakers/7');
    await heading('charge-card');
    const controls = region('Manual control');
    expect(controls.getByText(/Sent to every instance of checkout/)).toBeTruthy();
    // an operator may not change settings
    expect(region('Library settings').queryByRole('button', { name: 'Edit' })).toBeNull();
    fireEvent.click(controls.getByRole('button', { name: 'Force open' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Force open “charge-card”?' }));
    expect(confirm.getByText(MANUAL_ACTION_TEXT['force-open'].effect)).toBeTruthy();
    await clickAndSettle(confirm.getByRole('button', { name: 'Force open' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/circuit-breakers/7/force-open')).toHaveLength(1));
  });
});

describe('a scraped breaker', () => {
  it('says it is read-only and offers no control, no edit, no services and no load tests', async () => {
    const api = breakerApi(admin, {
      'GET /api/circuit-breakers/8/instances': { instances: [breakerInstance('orders')], merged: null },
      'GET /api/circuit-breakers/8/transitions': { transitions: [], nextBefore: null },
    });
    renderPage('/circuit-breakers/8');
    await heading('inventory');
    expect(origin()).toEqual(['Service: orders', 'Source: Scrape (read-only)', 'Library: resilience4j · circuit-breaker']);
    expect(screen.getByRole('note').textContent).toBe(`${readOnlyBreakerMessage('inventory', 'orders')}.`);

    const settings = within(await screen.findByRole('region', { name: 'Library settings' }));
    expect(settings.getByText('failureRateThreshold')).toBeTruthy();
    expect(settings.getByText('Read-only: set in orders itself.')).toBeTruthy();
    expect(settings.queryByRole('button', { name: 'Edit' })).toBeNull();

    expect(screen.queryByRole('region', { name: 'Manual control' })).toBeNull();
    for (const action of Object.values(MANUAL_ACTION_TEXT)) expect(screen.queryByRole('button', { name: action.label })).toBeNull();
    expect(await screen.findByRole('region', { name: 'Instances of this breaker' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Load-test history' })).toBeNull();
    expect(api.callsTo('GET', '/api/services')).toHaveLength(0);
  });
});

it("asks nothing about instances for a hub breaker, whose figures are the API replicas'", async () => {
  const api = breakerApi(viewer);
  renderPage('/circuit-breakers/5');
  await heading('Payments');
  expect(await screen.findByText('Card processor')).toBeTruthy();
  expect(screen.queryByTestId('breaker-origin')).toBeNull();
  expect(screen.getByRole('region', { name: 'Replicas open' })).toBeTruthy();
  expect(api.calls.some((call) => call.path.endsWith('/instances'))).toBe(false);
});
