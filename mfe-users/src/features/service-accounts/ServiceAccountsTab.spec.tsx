/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  type ApiTokenView,
  type CreatedApiTokenView,
  permissionLabel,
  ROLE_DEFAULT_PERMISSIONS,
  type ServiceAccountView,
} from '@cbh/contracts';
import { apiError } from '@cbh/test-support';
import { clickAndSettle, openTab, polyfillRadix, renderPage, superAdmin, userManager, usersApi } from '../users/test-kit';

beforeAll(polyfillRadix);

function account(fields: Partial<ServiceAccountView> & Pick<ServiceAccountView, 'id' | 'name'>): ServiceAccountView {
  return {
    role: 'operator',
    permissions: [...ROLE_DEFAULT_PERMISSIONS.operator],
    remotes: null,
    isActive: true,
    createdAt: '2026-03-01T10:00:00.000Z',
    createdBy: 'root@example.com',
    tokenCount: 0,
    ...fields,
  };
}

const ACCOUNTS: ServiceAccountView[] = [
  account({ id: 'ci', name: 'ci-bot', tokenCount: 2 }),
  account({ id: 'auditor', name: 'audit-export', role: 'viewer', permissions: ['audit_access'], isActive: false }),
];

const TOKENS: ApiTokenView[] = [
  {
    id: 't1',
    name: 'deploy',
    prefix: 'cbh_3fA9kQ2x',
    permissions: ['circuit_breaker_view'],
    remotes: null,
    createdAt: '2026-03-02T10:00:00.000Z',
    expiresAt: '2026-06-02T10:00:00.000Z',
    lastUsedAt: null,
    lastUsedFrom: null,
  },
];

const CREATED: CreatedApiTokenView = {
  id: 't2',
  name: 'nightly',
  token: 'cbh_3fA9kQ2xSECRETsecretSECRETsecretSECRETsecre',
  prefix: 'cbh_3fA9kQ2x',
  permissions: ['circuit_breaker_view', 'metrics_view'],
  remotes: null,
  expiresAt: '2026-06-02T10:00:00.000Z',
  createdAt: '2026-03-02T10:00:00.000Z',
};

function serviceAccountsApi(me = superAdmin, routes: Record<string, unknown> = {}) {
  return usersApi(me, { 'GET /api/service-accounts': ACCOUNTS, 'GET /api/service-accounts/ci/tokens': TOKENS, ...routes });
}

async function openServiceAccounts() {
  renderPage();
  await screen.findByRole('tab', { name: 'Service Accounts' });
  openTab('Service Accounts');
  await screen.findByTestId('service-account-row-ci');
}

const row = (id: string) => within(screen.getByTestId(`service-account-row-${id}`));
const describedBy = (element: HTMLElement) => document.getElementById(element.getAttribute('aria-describedby') ?? '')?.textContent;

/** One of an account's actions, its menu opened (and any other menu closed). */
async function menuAction(name: string, action: string): Promise<HTMLButtonElement> {
  const open = document.querySelector<HTMLButtonElement>('button[aria-expanded="true"]');
  if (open) fireEvent.click(open);
  fireEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  return (await screen.findByRole('button', { name: action })) as HTMLButtonElement;
}

it('lists the service accounts with name, role, status switch, token count and creation date', async () => {
  serviceAccountsApi();
  await openServiceAccounts();
  const table = within(screen.getByRole('table', { name: 'Service accounts' }));
  expect(table.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Name', 'Role', 'Tokens', 'Created', 'Actions']);
  expect(row('ci').getByText('ci-bot')).toBeTruthy();
  expect(row('ci').getByTestId('role-badge').textContent).toBe('Operator');
  expect(row('ci').getByRole('switch', { name: 'Active: ci-bot' }).getAttribute('aria-checked')).toBe('true');
  expect(row('auditor').getByRole('switch', { name: 'Active: audit-export' }).getAttribute('aria-checked')).toBe('false');
  expect(row('ci').getAllByRole('cell')[2]!.textContent).toBe('2');
  expect(row('ci').getByText(/ago$/).getAttribute('dateTime')).toBe(ACCOUNTS[0]!.createdAt);
});

it('creates a service account with a name and a role', async () => {
  const api = serviceAccountsApi(superAdmin, {
    'POST /api/service-accounts': () => Response.json(account({ id: 'new', name: 'reporter', role: 'viewer' }), { status: 201 }),
  });
  await openServiceAccounts();
  fireEvent.click(screen.getByRole('button', { name: 'New Service Account' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'New Service Account' }));
  const create = dialog.getByRole('button', { name: 'Create' }) as HTMLButtonElement;
  expect(create.disabled).toBe(true);
  fireEvent.change(dialog.getByLabelText(/^Name/), { target: { value: 'reporter' } });
  fireEvent.change(dialog.getByLabelText('Role'), { target: { value: 'viewer' } });
  await clickAndSettle(create);
  expect(await screen.findByText('Service Account Created')).toBeTruthy();
  expect(api.callsTo('POST', '/api/service-accounts').map((call) => call.body)).toEqual([{ name: 'reporter', role: 'viewer' }]);
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  await waitFor(() => expect(api.callsTo('GET', '/api/service-accounts')).toHaveLength(2));
});

it('keeps the dialog open with the server’s reason when the name is taken', async () => {
  serviceAccountsApi(superAdmin, { 'POST /api/service-accounts': apiError(409, 'A service account named ci-bot already exists') });
  await openServiceAccounts();
  fireEvent.click(screen.getByRole('button', { name: 'New Service Account' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'New Service Account' }));
  fireEvent.change(dialog.getByLabelText(/^Name/), { target: { value: 'ci-bot' } });
  await clickAndSettle(dialog.getByRole('button', { name: 'Create' }));
  expect(await screen.findByText('A service account named ci-bot already exists')).toBeTruthy();
  expect(screen.getByRole('dialog', { name: 'New Service Account' })).toBeTruthy();
});

it('disables a service account with its switch', async () => {
  const api = serviceAccountsApi(superAdmin, {
    'PATCH /api/service-accounts/ci': () => Response.json({ ...ACCOUNTS[0], isActive: false }),
  });
  await openServiceAccounts();
  await clickAndSettle(row('ci').getByRole('switch', { name: 'Active: ci-bot' }));
  expect(await screen.findByText('Service Account Updated')).toBeTruthy();
  expect(api.callsTo('PATCH', '/api/service-accounts/ci').map((call) => call.body)).toEqual([{ isActive: false }]);
});

it('makes a token with the account’s permissions only, then shows it once with Copy and the warning', async () => {
  const writes: string[] = [];
  Object.defineProperty(navigator, 'clipboard', {
    value: { writeText: async (text: string) => void writes.push(text) },
    configurable: true,
  });
  const api = serviceAccountsApi(superAdmin, { 'POST /api/service-accounts/ci/tokens': () => Response.json(CREATED, { status: 201 }) });
  await openServiceAccounts();
  fireEvent.click(await menuAction('ci-bot', 'New Token'));
  const dialog = within(await screen.findByRole('dialog', { name: 'New Token' }));
  const toggles = dialog.getAllByRole('checkbox') as HTMLInputElement[];
  // an operator's four permissions, all on at first
  expect(toggles.map((toggle) => toggle.parentElement!.textContent)).toEqual(
    ROLE_DEFAULT_PERMISSIONS.operator.map((key) => permissionLabel(key) + key),
  );
  expect(toggles.every((toggle) => toggle.checked)).toBe(true);
  fireEvent.click(dialog.getByRole('checkbox', { name: /dashboard_view\b/ }));
  fireEvent.click(dialog.getByRole('checkbox', { name: /circuit_breaker_operate\b/ }));
  fireEvent.change(dialog.getByLabelText('Token name'), { target: { value: 'nightly' } });
  fireEvent.change(dialog.getByLabelText('Expires in (days)'), { target: { value: '30' } });
  await clickAndSettle(dialog.getByRole('button', { name: 'Create Token' }));

  expect(await screen.findByText('Token Created')).toBeTruthy();
  expect(api.callsTo('POST', '/api/service-accounts/ci/tokens').map((call) => call.body)).toEqual([
    { name: 'nightly', expiresInDays: 30, permissions: ['circuit_breaker_view', 'metrics_view'] },
  ]);
  expect(dialog.getByText('Copy this token now: it will not be shown again.')).toBeTruthy();
  expect((dialog.getByLabelText('Access token') as HTMLInputElement).value).toBe(CREATED.token);
  await clickAndSettle(dialog.getByRole('button', { name: 'Copy' }));
  expect(writes).toEqual([CREATED.token]);
  expect(dialog.getByRole('button', { name: 'Copied' })).toBeTruthy();

  fireEvent.click(dialog.getByRole('button', { name: 'Done' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(screen.queryByText(CREATED.token)).toBeNull();
});

it('lists a service account’s tokens and revokes one after confirmation', async () => {
  const api = serviceAccountsApi(superAdmin, { 'DELETE /api/service-accounts/ci/tokens/t1': () => new Response(null, { status: 204 }) });
  await openServiceAccounts();
  fireEvent.click(await menuAction('ci-bot', 'Tokens'));
  const dialog = within(await screen.findByRole('dialog', { name: 'Tokens of ci-bot' }));
  expect(await dialog.findByRole('cell', { name: 'deploy' })).toBeTruthy();
  expect(dialog.getByText('cbh_3fA9kQ2x…')).toBeTruthy();

  fireEvent.click(dialog.getByRole('button', { name: 'Revoke deploy' }));
  let confirm = within(await screen.findByRole('alertdialog', { name: 'Revoke token' }));
  fireEvent.click(confirm.getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  expect(api.callsTo('DELETE', '/api/service-accounts/ci/tokens/t1')).toEqual([]);

  fireEvent.click(dialog.getByRole('button', { name: 'Revoke deploy' }));
  confirm = within(await screen.findByRole('alertdialog', { name: 'Revoke token' }));
  expect(confirm.getByText('Revoke deploy (cbh_3fA9kQ2x…) of ci-bot? Whatever uses it stops working at once.')).toBeTruthy();
  await clickAndSettle(confirm.getByRole('button', { name: 'Revoke' }));
  expect(await screen.findByText('Token Revoked')).toBeTruthy();
  expect(api.callsTo('DELETE', '/api/service-accounts/ci/tokens/t1')).toHaveLength(1);
});

it('deletes a service account after confirmation', async () => {
  const api = serviceAccountsApi(superAdmin, { 'DELETE /api/service-accounts/ci': () => new Response(null, { status: 204 }) });
  await openServiceAccounts();
  fireEvent.click(await menuAction('ci-bot', 'Delete'));
  const confirm = within(await screen.findByRole('alertdialog', { name: 'Delete service account' }));
  expect(confirm.getByText('Delete ci-bot? This removes the account and its 2 tokens, which stop working at once.')).toBeTruthy();
  await clickAndSettle(confirm.getByRole('button', { name: 'Delete' }));
  expect(await screen.findByText('Service Account Deleted')).toBeTruthy();
  expect(api.callsTo('DELETE', '/api/service-accounts/ci')).toHaveLength(1);
  await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
});

it('disables the controls of a service account holding more than the signed-in manager, with the reason', async () => {
  const api = serviceAccountsApi(userManager);
  await openServiceAccounts();
  const reason = 'You cannot change or delete an account holding audit_access, which you do not hold';
  const newToken = (await menuAction('audit-export', 'New Token')) as HTMLButtonElement;
  expect(newToken.disabled).toBe(true);
  expect(describedBy(newToken)).toBe(reason);
  expect((await menuAction('audit-export', 'Edit role and permissions')).disabled).toBe(true);
  expect(((await menuAction('audit-export', 'Delete')) as HTMLButtonElement).disabled).toBe(true);
  const status = row('auditor').getByRole('switch') as HTMLButtonElement;
  expect(status.disabled).toBe(true);
  // its tokens may still be read
  expect(((await menuAction('audit-export', 'Tokens')) as HTMLButtonElement).disabled).toBe(false);
  expect(((await menuAction('ci-bot', 'New Token')) as HTMLButtonElement).disabled).toBe(true);
  expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
});

it('changes a service account’s role, which starts from its default permissions, and its permissions one by one', async () => {
  const api = serviceAccountsApi(superAdmin, { 'PATCH /api/service-accounts/ci': () => Response.json(ACCOUNTS[0]) });
  await openServiceAccounts();
  fireEvent.click(await menuAction('ci-bot', 'Edit role and permissions'));
  const dialog = within(await screen.findByRole('dialog', { name: 'Edit Service Account' }));
  fireEvent.change(dialog.getByLabelText('Role'), { target: { value: 'viewer' } });
  expect((dialog.getByRole('checkbox', { name: /dashboard_view/ }) as HTMLInputElement).checked).toBe(true);
  expect((dialog.getByRole('checkbox', { name: /metrics_view/ }) as HTMLInputElement).checked).toBe(false);
  fireEvent.click(dialog.getByRole('checkbox', { name: /export_data/ }));
  await clickAndSettle(dialog.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('Service Account Updated')).toBeTruthy();
  expect(api.callsTo('PATCH', '/api/service-accounts/ci').map((call) => call.body)).toEqual([
    { role: 'viewer', permissions: ['dashboard_view', 'circuit_breaker_view', 'export_data'] },
  ]);
});
