/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import type { AuthUser, ScrapeTargetView } from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { apiError, authUser, clickAndSettle, fakeApi } from '@cbh/test-support';
import { theme, Toaster } from '@cbh/ui';
import { NO_ACCESS_TEXT, ScrapeTargetsPage } from './ScrapeTargetsPage';

const admin = authUser({ email: 'ada@example.com', role: 'admin', permissions: ['circuit_breaker_view', 'circuit_breaker_admin'] });
const operator = authUser({
  email: 'otto@example.com',
  role: 'operator',
  permissions: ['circuit_breaker_view', 'circuit_breaker_operate'],
});

const ORDERS: ScrapeTargetView = {
  id: 1,
  name: 'orders',
  url: 'https://orders.internal/actuator/prometheus',
  intervalSeconds: 15,
  bearerTokenSet: true,
  lastScrapeAt: '2026-05-02T09:30:00.000Z',
  lastError: null,
  breakers: 4,
  createdAt: '2026-05-01T10:00:00.000Z',
  updatedAt: '2026-05-01T10:00:00.000Z',
};
const BILLING: ScrapeTargetView = {
  ...ORDERS,
  id: 2,
  name: 'billing',
  url: 'http://10.0.0.7:8080/actuator/prometheus',
  intervalSeconds: 60,
  bearerTokenSet: false,
  lastError: 'the endpoint answered 503',
  breakers: null,
};

function targetsApi(me: AuthUser | null, routes: Record<string, unknown> = {}) {
  return fakeApi({ 'GET /api/auth/user': me, 'GET /api/scrape-targets': [ORDERS, BILLING], ...routes });
}

function renderPage() {
  render(
    <Provider store={createAppStore()}>
      <MemoryRouter initialEntries={['/scrape-targets']}>
        <ScrapeTargetsPage />
      </MemoryRouter>
      <Toaster />
    </Provider>,
  );
}

const table = () => screen.findByRole('region', { name: 'Scrape targets' });
const row = (id: number) => within(screen.getByTestId(`scrape-target-${id}`));
const field = (dialog: ReturnType<typeof within>, label: string) => dialog.getByLabelText(label) as HTMLInputElement;
const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

it('shows the access card and reads no target without circuit_breaker_admin', async () => {
  const api = targetsApi(operator);
  renderPage();
  expect(await screen.findByText(NO_ACCESS_TEXT)).toBeTruthy();
  expect(api.callsTo('GET', '/api/scrape-targets')).toHaveLength(0);
});

it('lists each target with its address, interval, token, last scrape, breakers found and last error in red', async () => {
  targetsApi(admin);
  renderPage();
  expect(await screen.findByRole('heading', { name: 'Scrape Targets', level: 1 })).toBeTruthy();
  const cells = (id: number) =>
    within(screen.getByTestId(`scrape-target-${id}`))
      .getAllByRole('cell')
      .slice(0, 6)
      .map((cell) => cell.textContent);
  await table();
  expect(cells(1)).toEqual(['orders', ORDERS.url, '15 s', '••• set', expect.stringMatching(/ago$/), '4']);
  // the last scrape as a moment, the exact time on hover
  fireEvent.pointerEnter(screen.getByTestId('scrape-target-1').querySelector('time')!);
  expect(row(1).getByTitle(/May 2, 2026/)).toBeTruthy();
  expect(cells(2)).toEqual(['billing', BILLING.url, '60 s', 'None', expect.stringMatching(/Error: the endpoint answered 503$/), '—']);
  const error = row(2).getByText('Error: the endpoint answered 503');
  const red = document.createElement('span');
  red.style.color = theme.colors.destructive;
  expect(getComputedStyle(error).color).toBe(red.style.color);
  expect(screen.getByRole('link', { name: '← All circuit breakers' }).getAttribute('href')).toBe('/circuit-breakers');
});

it('adds a target, leaving the interval to the server’s default when it is left empty', async () => {
  const api = targetsApi(admin, {
    'POST /api/scrape-targets': (body: object) => ({ ...ORDERS, id: 3, intervalSeconds: 15, bearerTokenSet: true, ...body }),
  });
  renderPage();
  await table();
  fireEvent.click(screen.getByRole('button', { name: 'Add target' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Add target' }));
  const save = dialog.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
  expect(save.disabled).toBe(true);
  expect(field(dialog, 'Bearer token').type).toBe('password');

  type(field(dialog, 'Name'), 'payments');
  type(field(dialog, 'URL'), 'payments.internal');
  expect(dialog.getByText('URL: must be an https URL')).toBeTruthy();
  type(field(dialog, 'URL'), 'https://payments.internal/actuator/prometheus');
  type(field(dialog, 'Bearer token'), 's3cret-token');
  await clickAndSettle(save);

  expect(api.callsTo('POST', '/api/scrape-targets').map((call) => call.body)).toEqual([
    { name: 'payments', url: 'https://payments.internal/actuator/prometheus', bearerToken: 's3cret-token' },
  ]);
  expect(await screen.findByText('Target Added')).toBeTruthy();
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});

it('shows each problem the server names under its field, and keeps the dialog open', async () => {
  targetsApi(admin, {
    'POST /api/scrape-targets': apiError(
      400,
      'name: must be 1 to 64 characters of a-z, 0-9 and -, starting with a letter or digit; intervalSeconds: must be at least 5 seconds',
    ),
  });
  renderPage();
  await table();
  fireEvent.click(screen.getByRole('button', { name: 'Add target' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Add target' }));
  type(field(dialog, 'Name'), 'Payments');
  type(field(dialog, 'URL'), 'https://payments.internal/actuator/prometheus');
  type(field(dialog, 'Interval (seconds)'), '2');
  await clickAndSettle(dialog.getByRole('button', { name: 'Save' }));

  const interval = await dialog.findByText('Interval (seconds): must be at least 5 seconds');
  expect(field(dialog, 'Interval (seconds)').getAttribute('aria-describedby')).toContain(interval.id);
  expect(field(dialog, 'Interval (seconds)').getAttribute('aria-invalid')).toBe('true');
  expect(dialog.getByText('Name: must be 1 to 64 characters of a-z, 0-9 and -, starting with a letter or digit')).toBeTruthy();
  // what the server said of a field goes once the field changes
  type(field(dialog, 'Interval (seconds)'), '30');
  expect(dialog.queryByText(/Interval \(seconds\): must be/)).toBeNull();
  expect(screen.getByRole('dialog', { name: 'Add target' })).toBeTruthy();
});

it('edits a target: a kept token stays unless a new one is typed or its removal asked for, and only changes are sent', async () => {
  const api = targetsApi(admin, { 'PATCH /api/scrape-targets/1': (body: object) => ({ ...ORDERS, ...body }) });
  renderPage();
  await table();
  fireEvent.click(row(1).getByRole('button', { name: 'Edit orders' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Edit orders' }));
  expect(field(dialog, 'URL').value).toBe(ORDERS.url);
  expect(field(dialog, 'Interval (seconds)').value).toBe('15');
  expect(field(dialog, 'Bearer token').placeholder).toBe('••• set — leave empty to keep');
  const save = dialog.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
  expect(save.disabled).toBe(true);

  type(field(dialog, 'Interval (seconds)'), '30');
  fireEvent.click(dialog.getByRole('checkbox', { name: /Remove the token/ }));
  expect(field(dialog, 'Bearer token').disabled).toBe(true);
  await clickAndSettle(save);
  expect(api.callsTo('PATCH', '/api/scrape-targets/1').map((call) => call.body)).toEqual([{ intervalSeconds: 30, bearerToken: null }]);
  expect(await screen.findByText('Target Updated')).toBeTruthy();
});

it('offers no removal of a token the target does not have', async () => {
  targetsApi(admin);
  renderPage();
  await table();
  fireEvent.click(row(2).getByRole('button', { name: 'Edit billing' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Edit billing' }));
  expect(field(dialog, 'Bearer token').placeholder).toBe('None');
  expect(dialog.queryByRole('checkbox')).toBeNull();
});

it('deletes a target after a confirmation saying its breakers leave the wall', async () => {
  const api = targetsApi(admin, { 'DELETE /api/scrape-targets/1': () => new Response(null, { status: 204 }) });
  renderPage();
  await table();
  fireEvent.click(row(1).getByRole('button', { name: 'Delete orders' }));
  const confirm = within(await screen.findByRole('alertdialog', { name: 'Delete scrape target' }));
  expect(confirm.getByText('Delete orders? It is no longer read, and its 4 breakers leave the wall with their journals.')).toBeTruthy();
  expect(api.callsTo('DELETE', '/api/scrape-targets/1')).toHaveLength(0);
  await clickAndSettle(confirm.getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(api.callsTo('DELETE', '/api/scrape-targets/1')).toHaveLength(1));
  expect(await screen.findByText('Scrape Target Deleted')).toBeTruthy();
});

it('says so when there is no target yet, or the list could not be read', async () => {
  targetsApi(admin, { 'GET /api/scrape-targets': [] });
  renderPage();
  expect(await screen.findByText(/No scrape targets yet/)).toBeTruthy();
  cleanup();
  targetsApi(admin, { 'GET /api/scrape-targets': apiError(500, 'database unavailable') });
  renderPage();
  expect((await screen.findByRole('alert')).textContent).toBe('The scrape targets could not be loaded. database unavailable');
});
