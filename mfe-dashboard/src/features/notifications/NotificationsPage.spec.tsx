/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, screen, within } from '@testing-library/react';
import type { CreateWindow, MaintenanceWindowView } from '@cbh/contracts';
import { clickAndSettle, polyfillRadix } from '@cbh/test-support';
import { NO_ACCESS_TEXT } from './NotificationsPage';
import { lengthText } from './WindowsSection';
import { admin, breakerAdmin, ID, notificationsApi, operator, renderPage, WINDOW } from './test-kit';

beforeAll(polyfillRadix);

const notificationCalls = (api: ReturnType<typeof notificationsApi>) => api.calls.filter((call) => !call.path.startsWith('/api/auth/'));

it('shows its four cards to a holder of circuit_breaker_admin', async () => {
  notificationsApi(admin);
  renderPage();
  expect(await screen.findByRole('heading', { level: 1, name: 'Notifications' })).toBeTruthy();
  for (const card of ['Channels', 'Rules', 'Maintenance windows', 'Delivery log'])
    expect(await screen.findByRole('region', { name: card })).toBeTruthy();
});

it('links to the status pages from its header, for those who may open them', async () => {
  notificationsApi(admin);
  renderPage();
  const link = await screen.findByRole('link', { name: 'Status pages' });
  expect(link.getAttribute('href')).toBe('/status-pages');
  expect(link.closest('header')).toBeTruthy();
});

it('tells an account without circuit_breaker_admin that access is restricted, and reads nothing', async () => {
  const api = notificationsApi(operator);
  renderPage();
  expect(await screen.findByText('Access Restricted')).toBeTruthy();
  expect(screen.getByText(NO_ACCESS_TEXT)).toBeTruthy();
  await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
  expect(notificationCalls(api)).toEqual([]);
  expect(screen.queryByRole('button', { name: 'Add channel' })).toBeNull();
  expect(screen.queryByRole('link', { name: 'Status pages' })).toBeNull();
});

it('asks a signed-out visitor to sign in', async () => {
  const api = notificationsApi(null);
  renderPage();
  expect(await screen.findByText('Sign in to manage notifications.')).toBeTruthy();
  expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/api/login');
  expect(notificationCalls(api)).toEqual([]);
});

it('adds a maintenance window, its local times sent with the reader’s offset', async () => {
  const windows: MaintenanceWindowView[] = [];
  const api = notificationsApi(admin, {
    'GET /api/maintenance-windows': () => windows,
    'POST /api/maintenance-windows': (body: unknown) => {
      const created = { ...(body as CreateWindow), id: ID.created, active: true, createdAt: '2026-05-02T10:00:00.000Z' };
      windows.push(created);
      return Response.json(created, { status: 201 });
    },
  });
  renderPage();
  fireEvent.click(await screen.findByRole('button', { name: 'Add window' }));
  // the dialogs come with the first one opened
  await screen.findByRole('dialog');
  const dialog = within(screen.getByRole('dialog'));
  const type = (label: string, value: string) => fireEvent.change(dialog.getByLabelText(label), { target: { value } });
  type('Name', 'Upgrade');
  type('Starts', '2026-05-03T22:00');
  type('Ends', '2026-05-03T21:00');
  expect(dialog.getByText('Ends: must be after the start')).toBeTruthy();
  type('Ends', '2026-05-03T23:30');
  fireEvent.click(dialog.getByLabelText('Repeat every week'));
  type('Breakers', 'payments, inventory');
  fireEvent.keyDown(dialog.getByLabelText('Breakers'), { key: 'Enter' });
  await clickAndSettle(dialog.getByRole('button', { name: 'Save' }));

  const [sent] = api.callsTo('POST', '/api/maintenance-windows').map((call) => call.body as CreateWindow);
  expect(sent).toEqual({
    name: 'Upgrade',
    startsAt: expect.stringMatching(/^2026-05-03T22:00:00[+-]\d\d:\d\d$/),
    endsAt: expect.stringMatching(/^2026-05-03T23:30:00[+-]\d\d:\d\d$/),
    repeatWeekly: true,
    breakers: ['payments', 'inventory'],
    domains: [],
  });
  expect(Date.parse(sent!.startsAt)).toBe(new Date('2026-05-03T22:00').getTime());
  const row = within(await screen.findByTestId(`window-row-${ID.created}`));
  expect(row.getByText('Active')).toBeTruthy();
  expect(row.getByText('Weekly')).toBeTruthy();
  expect(row.getByText('Breakers: payments, inventory')).toBeTruthy();
});

it('lists a window that is not muting now as scheduled, with what it mutes', async () => {
  notificationsApi(admin);
  renderPage();
  const row = within(await screen.findByTestId(`window-row-${WINDOW.id}`));
  expect(row.getByText('Scheduled')).toBeTruthy();
  expect(row.getByText('for 1 h')).toBeTruthy();
  expect(row.getByText('Breakers: payments')).toBeTruthy();
});

it('picks a window’s breakers and domains from the hub’s lists, and warns of a name the hub does not hold', async () => {
  const api = notificationsApi(admin);
  renderPage();
  fireEvent.click(await screen.findByRole('button', { name: 'Add window' }));
  await screen.findByRole('dialog');
  const dialog = within(screen.getByRole('dialog'));
  const breakers = dialog.getByRole('combobox', { name: 'Breakers' });
  fireEvent.change(breakers, { target: { value: 'pay' } });
  fireEvent.click(await dialog.findByRole('option', { name: 'payments' }));
  expect(dialog.getByRole('button', { name: 'Remove payments' })).toBeTruthy();
  fireEvent.change(breakers, { target: { value: 'paymnts' } });
  fireEvent.keyDown(breakers, { key: 'Enter' });
  expect(dialog.getByText('No breaker named paymnts yet: it will match once one exists.')).toBeTruthy();
  const domains = dialog.getByRole('combobox', { name: 'Domains' });
  fireEvent.change(domains, { target: { value: 'exa' } });
  expect((await dialog.findByRole('option', { name: 'example.com' })).textContent).toBe('example.com');
  fireEvent.change(domains, { target: { value: 'exmaple.com' } });
  fireEvent.keyDown(domains, { key: 'Enter' });
  expect(dialog.getByText('No domain named exmaple.com yet: it will match once one is added.')).toBeTruthy();
  expect(api.callsTo('GET', '/api/domains')).toHaveLength(1);
});

it('does not list the domains to someone without domain_management, and takes their names as typed', async () => {
  const api = notificationsApi(breakerAdmin);
  renderPage();
  fireEvent.click(await screen.findByRole('button', { name: 'Add window' }));
  await screen.findByRole('dialog');
  const dialog = within(screen.getByRole('dialog'));
  const domains = dialog.getByRole('combobox', { name: 'Domains' });
  fireEvent.change(domains, { target: { value: 'example.org' } });
  fireEvent.keyDown(domains, { key: 'Enter' });
  expect(dialog.getByRole('button', { name: 'Remove example.org' })).toBeTruthy();
  expect(dialog.queryByText(/No domain named/)).toBeNull();
  expect(api.callsTo('GET', '/api/domains')).toEqual([]);
});

it('says how long a window lasts, from its start to its end', () => {
  const at = (time: string) => `2026-05-03T${time}:00.000Z`;
  expect(lengthText({ startsAt: at('22:00'), endsAt: at('23:30') })).toBe('1 h 30 min');
  expect(lengthText({ startsAt: at('22:00'), endsAt: at('22:00') })).toBe('0 min');
  expect(lengthText({ startsAt: at('22:00'), endsAt: '2026-05-10T22:00:00.000Z' })).toBe('7 d');
});
