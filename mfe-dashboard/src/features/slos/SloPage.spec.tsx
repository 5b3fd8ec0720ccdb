/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { clickAndSettle } from '@cbh/test-support';
import { reportMonths } from './slo-text';
import { admin, CHECKOUT, CHECKOUT_DETAIL, renderSlos, slosApi, viewer } from './test-kit';

const region = (name: string) => within(screen.getByRole('region', { name }));
const shown = () => screen.findByRole('heading', { name: 'Checkout availability', level: 1 });

it('shows the SLO’s status, SLI against target, budget left and events', async () => {
  slosApi(viewer);
  renderSlos('/slos/1');
  await shown();
  expect(screen.getByText('Orders placed through checkout succeed.')).toBeTruthy();
  const figure = (label: string) =>
    within(screen.getByRole('region', { name: label }))
      .getAllByText(/./)
      .map((node) => node.textContent);
  expect(figure('Status')).toContain('Breaching');
  expect(figure('SLI')).toEqual(expect.arrayContaining(['99.2%', 'Target 99.5% over 28 days']));
  expect(figure('Error budget left')).toContain('12.5%');
  expect(figure('Events')).toEqual(expect.arrayContaining(['100,000', '99,200 good, 800 bad']));
  // a viewer may neither edit nor delete it
  expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
});

it('lists the burn rate of each of the 7 windows, marking those over an alert’s threshold, and which alerts fire', async () => {
  slosApi(viewer);
  renderSlos('/slos/1');
  await shown();
  const rates = region('Burn rates');
  const row = (window: string) => within(screen.getByTestId(`burn-${window}`));
  expect(rates.getAllByRole('row')).toHaveLength(8);
  expect(row('5m').getByRole('rowheader').textContent).toBe('5 minutes');
  expect(row('5m').getByText('20×')).toBeTruthy();
  expect(row('5m').getByText('Over 14.4× (page)')).toBeTruthy();
  expect(row('1h').getByText('Over 14.4× (page)')).toBeTruthy();
  // 30 minutes burns at 4×: under the page's 6×
  expect(screen.getByTestId('burn-30m').hasAttribute('data-over')).toBe(false);
  expect(row('30m').getByText('6× (page)')).toBeTruthy();
  // 6 hours takes part in two alerts: under the page's 6×, over the ticket's 1×
  expect(row('6h').getByText('6× (page)')).toBeTruthy();
  expect(row('6h').getByText('Over 1× (ticket)')).toBeTruthy();
  expect(screen.getByTestId('burn-alerts').textContent).toBe(
    'Firing: page (1 hour and 5 minutes over 14.4×); ticket (3 days and 6 hours over 1×).',
  );
});

it('lists the top contributors, a breaker linking to its page, and draws the burn-down', async () => {
  slosApi(viewer);
  renderSlos('/slos/1');
  await shown();
  const cells = (testId: string) =>
    within(screen.getByTestId(testId))
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
  expect(cells('contributor-breaker-5')).toEqual(['Payments', 'Breaker', '600', '40,000', '1.5%']);
  expect(cells('contributor-instance-checkout-7f9c')).toEqual(['checkout-7f9c', 'Instance', '200', '10,000', '2%']);
  expect(region('Top contributors').getByRole('link', { name: 'Payments' }).getAttribute('href')).toBe('/circuit-breakers/5');
  expect(screen.getByRole('img', { name: 'Error budget left: Budget left 12.5%' })).toBeTruthy();
});

it('says so when nothing spent the budget, and draws no burn-down before a new SLO has counts of two days', async () => {
  slosApi(viewer, { 'GET /api/slos/1': { ...CHECKOUT_DETAIL, topContributors: [], burnDown: CHECKOUT_DETAIL.burnDown.slice(-1) } });
  renderSlos('/slos/1');
  await shown();
  expect(region('Top contributors').getByText('No bad events over the window: nothing has spent the budget.')).toBeTruthy();
  expect(screen.getByTestId('burn-down-pending').textContent).toBe(
    'The burn-down is drawn once the SLO has counted on two days. Budget left now: 12.5%.',
  );
  expect(screen.queryByRole('img', { name: /^Error budget left/ })).toBeNull();
});

it('links to this month’s and last month’s report, as a page and as CSV, each in a new tab', async () => {
  slosApi(viewer);
  renderSlos('/slos/1');
  await shown();
  const [month, previous] = reportMonths(new Date());
  const links = region('Monthly reports').getAllByRole('link');
  expect(links.map((link) => link.getAttribute('href'))).toEqual([
    `/api/slos/1/report?month=${month}&format=html`,
    `/api/slos/1/report?month=${month}&format=csv`,
    `/api/slos/1/report?month=${previous}&format=html`,
    `/api/slos/1/report?month=${previous}&format=csv`,
  ]);
  expect(links.every((link) => link.getAttribute('target') === '_blank' && link.getAttribute('rel')?.includes('noopener'))).toBe(true);
  expect(links[0]!.textContent).toMatch(/^Printable page of \w+ \d{4} \(opens in a new tab\)$/);
});

it('says there is no such SLO for an address that names none', async () => {
  const api = slosApi(viewer, {
    'GET /api/slos/4': () => Response.json({ statusCode: 404, message: 'No SLO with id 4' }, { status: 404 }),
  });
  const { unmount } = renderSlos('/slos/4');
  expect(await screen.findByRole('heading', { name: 'SLO not found' })).toBeTruthy();
  unmount();
  // '07' is not read as SLO 7: nothing is asked
  renderSlos('/slos/07');
  expect(await screen.findByRole('heading', { name: 'SLO not found' })).toBeTruthy();
  expect(api.calls.filter((call) => call.path.startsWith('/api/slos/0'))).toHaveLength(0);
});

it('edits the SLO in its dialog, prefilled, sending only what changed', async () => {
  const api = slosApi(admin, { 'PATCH /api/slos/1': (body: object) => ({ ...CHECKOUT, ...body }) });
  renderSlos('/slos/1');
  await shown();
  fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Edit Checkout availability' }));
  const field = (label: string) => dialog.getByLabelText(label) as HTMLInputElement;
  expect(field('Name').value).toBe('Checkout availability');
  expect(field('Target (%)').value).toBe('99.5');
  expect(field('Window').value).toBe('28d');
  expect(field('Which breakers').value).toBe('service');
  expect(field('Service').value).toBe('checkout');
  const save = dialog.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
  expect(save.disabled).toBe(true);
  fireEvent.change(field('Target (%)'), { target: { value: '99.9' } });
  await clickAndSettle(save);
  expect(api.callsTo('PATCH', '/api/slos/1').map((call) => call.body)).toEqual([{ target: 99.9 }]);
  expect(await screen.findByText('SLO Updated')).toBeTruthy();
});

it('deletes the SLO once confirmed, and goes back to the list', async () => {
  const api = slosApi(admin, { 'DELETE /api/slos/1': () => new Response(null, { status: 204 }) });
  renderSlos('/slos/1');
  await shown();
  fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
  const confirm = within(await screen.findByRole('alertdialog', { name: 'Delete SLO' }));
  expect(confirm.getByText(/^Delete Checkout availability\?/)).toBeTruthy();
  await clickAndSettle(confirm.getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(api.callsTo('DELETE', '/api/slos/1')).toHaveLength(1));
  expect(await screen.findByRole('heading', { name: 'SLOs', level: 1 })).toBeTruthy();
});
