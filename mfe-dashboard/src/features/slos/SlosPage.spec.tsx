/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { apiError, clickAndSettle } from '@cbh/test-support';
import { theme } from '@cbh/ui';
import { NO_ACCESS_TEXT } from './slo-access';
import { EMPTY_TEXT } from './SlosPage';
import { admin, CHECKOUT, domainAdmin, outsider, renderSlos, slo, slosApi, viewer } from './test-kit';

const table = () => screen.findByRole('table', { name: 'SLOs' });
/** The SLOs' names, top to bottom. */
const names = () =>
  within(screen.getByRole('table', { name: 'SLOs' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]!.textContent);
const heading = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });
const sortBy = (name: string) => fireEvent.click(within(heading(name)).getByRole('button'));

it('shows which permission is needed, and reads no SLO, without circuit_breaker_view', async () => {
  const api = slosApi(outsider);
  renderSlos();
  expect(await screen.findByText(NO_ACCESS_TEXT)).toBeTruthy();
  expect(api.callsTo('GET', '/api/slos')).toHaveLength(0);
});

it('lists each SLO with its indicator, target, window, SLI, budget left and status in words and colour, the worst first', async () => {
  slosApi(viewer);
  renderSlos();
  await table();
  expect(names()).toEqual(['Search availability', 'Checkout availability', 'Payments latency']);
  const cells = (id: number) =>
    within(screen.getByTestId(`slo-${id}`))
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
  expect(cells(1)).toEqual(['Checkout availability', 'Breaker calls', 'checkout', '99.5%', '28 days', '99.2%', '12.5%', 'Breaching']);
  expect(cells(2)).toEqual(['Payments latency', 'Breaker latency', '—', '99%', '7 days', 'No events', '100%', 'OK']);
  expect(cells(3)).toEqual(expect.arrayContaining(['-50% (overspent)', 'Budget exhausted']));
  expect(screen.getByRole('link', { name: 'Checkout availability' }).getAttribute('href')).toBe('/slos/1');

  const badge = within(screen.getByTestId('slo-1')).getByText('Breaching');
  const orange = document.createElement('span');
  orange.style.color = theme.colors.orange;
  expect(getComputedStyle(badge).backgroundColor).toBe(orange.style.color);
  expect(heading('Status').getAttribute('aria-sort')).toBe('descending');
  // a viewer may not add one
  expect(screen.queryByRole('button', { name: 'New SLO' })).toBeNull();
});

it('sorts by each column, either way, an SLO without events last', async () => {
  slosApi(viewer);
  renderSlos();
  await table();
  sortBy('Name');
  expect(names()).toEqual(['Checkout availability', 'Payments latency', 'Search availability']);
  expect(heading('Name').getAttribute('aria-sort')).toBe('ascending');
  sortBy('Name');
  expect(names()).toEqual(['Search availability', 'Payments latency', 'Checkout availability']);
  expect(heading('Name').getAttribute('aria-sort')).toBe('descending');
  expect(heading('Status').getAttribute('aria-sort')).toBe('none');

  sortBy('SLI');
  expect(names()).toEqual(['Checkout availability', 'Search availability', 'Payments latency']);
  sortBy('SLI');
  expect(names()).toEqual(['Search availability', 'Checkout availability', 'Payments latency']);
  sortBy('Budget left');
  expect(names()).toEqual(['Search availability', 'Checkout availability', 'Payments latency']);
  sortBy('Target');
  expect(names()).toEqual(['Payments latency', 'Checkout availability', 'Search availability']);
  sortBy('Window');
  expect(names()).toEqual(['Payments latency', 'Checkout availability', 'Search availability']);

  // on a phone the headings are hidden: the picker sorts the cards
  fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'Indicator' } });
  fireEvent.change(screen.getByLabelText('Order'), { target: { value: 'descending' } });
  expect(names()[0]).toBe('Payments latency');
});

it('narrows the list to one service, picked from the services the SLOs name', async () => {
  slosApi(viewer);
  renderSlos();
  await table();
  const filter = screen.getByLabelText('Service') as HTMLSelectElement;
  expect([...filter.options].map((option) => option.textContent)).toEqual(['All services', 'checkout', 'search']);
  fireEvent.change(filter, { target: { value: 'checkout' } });
  expect(names()).toEqual(['Checkout availability']);
  fireEvent.change(filter, { target: { value: '' } });
  expect(names()).toHaveLength(3);
});

it('says when there are no SLOs yet, and when they cannot be read', async () => {
  slosApi(viewer, { 'GET /api/slos': [] });
  const { unmount } = renderSlos();
  expect(await screen.findByText(EMPTY_TEXT)).toBeTruthy();
  unmount();

  slosApi(viewer, { 'GET /api/slos': apiError(404, 'Cannot GET /api/slos') });
  renderSlos();
  expect((await screen.findByRole('alert')).textContent).toBe('The SLOs could not be loaded. Cannot GET /api/slos');
});

it('adds an SLO of picked breakers with a latency threshold, posting the body the API takes', async () => {
  const api = slosApi(admin, { 'POST /api/slos': (body: object) => slo(9, { name: 'Fast payments', ...body }) });
  renderSlos();
  await table();
  fireEvent.click(screen.getByRole('button', { name: 'New SLO' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'New SLO' }));
  const save = dialog.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
  const type = (label: string, value: string) => fireEvent.change(dialog.getByLabelText(label), { target: { value } });

  // domains are not offered without domain_management
  expect(within(dialog.getByLabelText('Indicator')).queryByRole('option', { name: 'Domain uptime' })).toBeNull();
  type('Name', 'Fast payments');
  type('Description', 'Card payments answer quickly.');
  type('Target (%)', '99.95');
  type('Window', '7d');
  type('Indicator', 'breaker-latency');
  type('Threshold (ms)', '250');
  expect(save.disabled).toBe(true);
  // picked from the hub's breakers, by name; sent by id
  type('Breakers', 'inv');
  fireEvent.click(await dialog.findByRole('option', { name: 'Inventory' }));
  type('Breakers', 'Payments');
  fireEvent.keyDown(dialog.getByLabelText('Breakers'), { key: 'Enter' });
  expect(dialog.getAllByTestId('combobox-chip').map((chip) => chip.textContent)).toEqual(['Inventory×', 'Payments×']);
  await clickAndSettle(save);

  expect(api.callsTo('POST', '/api/slos').map((call) => call.body)).toEqual([
    {
      name: 'Fast payments',
      description: 'Card payments answer quickly.',
      target: 99.95,
      window: '7d',
      indicator: { kind: 'breaker-latency', breakers: [6, 5], thresholdMs: 250 },
    },
  ]);
  expect(await screen.findByText('SLO Added')).toBeTruthy();
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});

it('shows the field the API refuses under that field, an indicator’s too, and keeps the dialog open', async () => {
  slosApi(domainAdmin, {
    'GET /api/domains': [
      { id: 3, domain: 'example.com', status: 'active', registrar: null, expiresAt: null, createdAt: CHECKOUT.createdAt },
    ],
    'POST /api/slos': apiError(
      422,
      'indicator.service: no breaker reports for service billing yet; target: must have at most three decimals',
    ),
  });
  renderSlos();
  await table();
  fireEvent.click(screen.getByRole('button', { name: 'New SLO' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'New SLO' }));
  const type = (label: string, value: string) => fireEvent.change(dialog.getByLabelText(label), { target: { value } });
  expect(within(dialog.getByLabelText('Indicator')).getByRole('option', { name: 'Domain uptime' })).toBeTruthy();
  type('Name', 'Billing');
  type('Which breakers', 'service');
  type('Service', 'Billing');
  expect(dialog.getByText(/^Service: must be a service name/)).toBeTruthy();
  type('Service', 'billing');
  await clickAndSettle(dialog.getByRole('button', { name: 'Save' }));

  expect(await dialog.findByText('Service: no breaker reports for service billing yet')).toBeTruthy();
  expect(dialog.getByText('Target (%): must have at most three decimals')).toBeTruthy();
  expect(dialog.getByLabelText('Service').getAttribute('aria-invalid')).toBe('true');
  expect(screen.getByRole('dialog', { name: 'New SLO' })).toBeTruthy();
});
