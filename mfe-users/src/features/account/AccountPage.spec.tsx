/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import type { ApiTokenView, AuthUser, CreatedApiTokenView, SessionView } from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { apiError, authUser, clickAndSettle, fakeApi, polyfillRadix } from '@cbh/test-support';
import { Toaster } from '@cbh/ui';
import { AccountPage } from './AccountPage';
import { TOKEN_SHOWN_ONCE_WARNING } from '../tokens/TokenSecret';

beforeAll(polyfillRadix);

const scripter = authUser({
  email: 'ops@example.com',
  firstName: 'Olga',
  role: 'operator',
  permissions: ['dashboard_view', 'circuit_breaker_view', 'metrics_view', 'api_access'],
});

const TOKEN: ApiTokenView = {
  id: '0b1f6d4e-5a8c-4d3e-9f10-1a2b3c4d5e6f',
  name: 'ci-export',
  prefix: 'cbh_3fA9xYz1',
  permissions: ['dashboard_view', 'metrics_view'],
  remotes: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  expiresAt: '2099-01-01T10:00:00.000Z',
  lastUsedAt: '2026-11-20T08:15:00.000Z',
  lastUsedFrom: '203.0.113.7',
};

function renderAccount() {
  return render(
    <Provider store={createAppStore()}>
      <MemoryRouter initialEntries={['/account']}>
        <AccountPage />
      </MemoryRouter>
      <Toaster />
    </Provider>,
  );
}

const session = (id: string, fields: Partial<SessionView> = {}): SessionView => ({
  id: id.repeat(64),
  current: false,
  browser: 'Firefox 133',
  os: 'Linux',
  address: '198.51.100.4',
  signedInAt: '2026-11-20T08:00:00.000Z',
  lastSeenAt: '2026-11-24T09:00:00.000Z',
  expiresAt: '2026-11-27T08:00:00.000Z',
  ...fields,
});
const HERE = session('a', { current: true, browser: 'Chrome 156', os: 'Windows', address: '203.0.113.7' });
const PHONE = session('b', { browser: 'Safari 18', os: 'iOS' });
const LAPTOP = session('c');

function accountApi(me: AuthUser | null, routes: Record<string, unknown> = {}) {
  return fakeApi({
    'GET /api/auth/user': me,
    'GET /api/tokens': [TOKEN],
    'GET /api/sessions': [HERE, PHONE, LAPTOP],
    'GET /api/account/contact-methods': me ? [{ id: 'email', type: 'email', label: 'E-mail', target: me.email, createdAt: null }] : [],
    ...routes,
  });
}

it('shows the profile: name, e-mail, role and the permissions the person holds', async () => {
  accountApi(scripter);
  renderAccount();
  const profile = await screen.findByRole('region', { name: 'Profile' });
  expect(within(profile).getByText('Olga')).toBeTruthy();
  expect(within(profile).getByText('ops@example.com')).toBeTruthy();
  const held = within(within(profile).getByRole('list', { name: 'Your permissions' })).getAllByRole('listitem');
  // by name, the key (what tokens and the API speak) on hover
  expect(held.map((item) => item.textContent)).toEqual(['View dashboard', 'View circuit breakers', 'View metrics', 'Use the API']);
  expect(held.map((item) => item.firstElementChild!.getAttribute('title'))).toEqual([
    'dashboard_view',
    'circuit_breaker_view',
    'metrics_view',
    'api_access',
  ]);
});

it('lists the tokens by name and prefix, never a secret, with when and where each was last used', async () => {
  accountApi(scripter);
  renderAccount();
  const table = await screen.findByRole('region', { name: 'Your access tokens' });
  const row = (await within(table).findByRole('cell', { name: 'ci-export' })).closest('tr')!;
  expect(within(row).getByText('cbh_3fA9xYz1…')).toBeTruthy();
  expect(row.textContent).toContain('from 203.0.113.7');
});

it('creates a token with the chosen permissions only, shows it once with Copy and the warning, and forgets it on Done', async () => {
  const created: CreatedApiTokenView = {
    id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    name: 'nightly',
    token: 'cbh_' + 'A'.repeat(43),
    prefix: 'cbh_AAAAAAAA',
    permissions: ['dashboard_view', 'api_access'],
    remotes: null,
    expiresAt: '2026-12-25T00:00:00.000Z',
    createdAt: '2026-11-25T00:00:00.000Z',
  };
  const api = accountApi(scripter, { 'POST /api/tokens': () => Response.json(created, { status: 201 }) });
  const writeText = jest.fn(async () => undefined);
  Object.assign(navigator, { clipboard: { writeText } });
  renderAccount();
  fireEvent.click(await screen.findByRole('button', { name: 'New Token' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'New Access Token' }));
  // only what the person holds is on offer, all on at first
  expect(dialog.getAllByRole('checkbox').map((toggle) => toggle.closest('label')!.textContent)).toEqual([
    'View dashboarddashboard_view',
    'View circuit breakerscircuit_breaker_view',
    'View metricsmetrics_view',
    'Use the APIapi_access',
  ]);
  fireEvent.change(dialog.getByLabelText('Token name'), { target: { value: ' nightly ' } });
  fireEvent.change(dialog.getByLabelText('Expires in (days)'), { target: { value: '30' } });
  fireEvent.click(dialog.getByRole('checkbox', { name: /circuit_breaker_view\b/ }));
  fireEvent.click(dialog.getByRole('checkbox', { name: /metrics_view\b/ }));
  await clickAndSettle(dialog.getByRole('button', { name: 'Create Token' }));

  expect(api.callsTo('POST', '/api/tokens')[0]?.body).toEqual({
    name: 'nightly',
    expiresInDays: 30,
    permissions: ['dashboard_view', 'api_access'],
  });
  expect(await dialog.findByLabelText('Access token')).toHaveProperty('value', created.token);
  expect(dialog.getByText(TOKEN_SHOWN_ONCE_WARNING)).toBeTruthy();
  fireEvent.click(dialog.getByRole('button', { name: 'Copy' }));
  await waitFor(() => expect(writeText).toHaveBeenCalledWith(created.token));
  expect(await dialog.findByRole('button', { name: 'Copied' })).toBeTruthy();

  fireEvent.click(dialog.getByRole('button', { name: 'Done' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(screen.queryByDisplayValue(created.token)).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'New Token' }));
  expect(within(await screen.findByRole('dialog', { name: 'New Access Token' })).queryByLabelText('Access token')).toBeNull();
});

it('keeps the dialog open and says why when the server refuses the token', async () => {
  accountApi(scripter, { 'POST /api/tokens': apiError(400, 'expiresInDays: the organisation allows tokens of at most 90 days') });
  renderAccount();
  fireEvent.click(await screen.findByRole('button', { name: 'New Token' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'New Access Token' }));
  fireEvent.change(dialog.getByLabelText('Token name'), { target: { value: 'long' } });
  fireEvent.change(dialog.getByLabelText('Expires in (days)'), { target: { value: '365' } });
  await clickAndSettle(dialog.getByRole('button', { name: 'Create Token' }));
  expect(await screen.findByText('expiresInDays: the organisation allows tokens of at most 90 days')).toBeTruthy();
  expect(dialog.queryByLabelText('Access token')).toBeNull();
});

it('revokes a token only after confirming, then lists the tokens again', async () => {
  const api = accountApi(scripter, { [`DELETE /api/tokens/${TOKEN.id}`]: () => new Response(null, { status: 204 }) });
  renderAccount();
  fireEvent.click(await screen.findByRole('button', { name: 'Revoke ci-export' }));
  const confirm = within(await screen.findByRole('alertdialog', { name: 'Revoke token' }));
  expect(api.callsTo('DELETE', `/api/tokens/${TOKEN.id}`)).toHaveLength(0);
  await act(async () => fireEvent.click(confirm.getByRole('button', { name: 'Revoke' })));
  await waitFor(() => expect(api.callsTo('DELETE', `/api/tokens/${TOKEN.id}`)).toHaveLength(1));
  expect(await screen.findByText('Token Revoked')).toBeTruthy();
  await waitFor(() => expect(api.callsTo('GET', '/api/tokens')).toHaveLength(2));
});

it('tells a person without api_access why there are no tokens, and asks no tokens of the server', async () => {
  const api = accountApi(authUser({ email: 'vera@example.com', role: 'viewer', permissions: ['dashboard_view'] }));
  renderAccount();
  expect(await screen.findByText(/Access tokens need the api_access permission/)).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'New Token' })).toBeNull();
  expect(api.callsTo('GET', '/api/tokens')).toHaveLength(0);
});

it('asks a signed-out visitor to sign in', async () => {
  accountApi(null, { 'GET /api/auth/user': apiError(401, 'Unauthorized') });
  renderAccount();
  expect(await screen.findByText('Sign in to see your account.')).toBeTruthy();
  expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/api/login');
});

it('lists where the person is signed in: browser and system, address, times, and which one is this session', async () => {
  accountApi(scripter);
  renderAccount();
  const table = await screen.findByRole('region', { name: 'Your sessions' });
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
    'Chrome 156 on WindowsThis session',
    'Safari 18 on iOS',
    'Firefox 133 on Linux',
  ]);
  expect(within(rows[1]!).getByText('198.51.100.4')).toBeTruthy();
});

it('signs one other session out after a confirmation', async () => {
  const api = accountApi(scripter, { [`DELETE /api/sessions/${PHONE.id}`]: () => new Response(null, { status: 204 }) });
  renderAccount();
  fireEvent.click(await screen.findByRole('button', { name: 'Sign out Safari 18 on iOS from 198.51.100.4' }));
  const confirm = within(await screen.findByRole('alertdialog', { name: 'Sign out session' }));
  expect(api.callsTo('DELETE', `/api/sessions/${PHONE.id}`)).toHaveLength(0);
  await act(async () => fireEvent.click(confirm.getByRole('button', { name: 'Sign out' })));
  await waitFor(() => expect(api.callsTo('DELETE', `/api/sessions/${PHONE.id}`)).toHaveLength(1));
  expect(await screen.findByText('That session is signed out.')).toBeTruthy();
  await waitFor(() => expect(api.callsTo('GET', '/api/sessions')).toHaveLength(2));
});

it('signs out everywhere else in one action, revoking the access tokens, saying how many ended, and offers it only when there are others', async () => {
  const api = accountApi(scripter, { 'DELETE /api/sessions/others': { ended: 2, revokedTokens: 1 } });
  renderAccount();
  await screen.findByRole('region', { name: 'Your sessions' });
  fireEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere else' }));
  const confirm = within(await screen.findByRole('alertdialog', { name: 'Sign out everywhere else' }));
  expect(confirm.getByText(/End 2 other sessions and revoke your access tokens\?/)).toBeTruthy();
  await act(async () => fireEvent.click(confirm.getByRole('button', { name: 'Sign out' })));
  await waitFor(() => expect(api.callsTo('DELETE', '/api/sessions/others')).toHaveLength(1));
  expect(await screen.findByText('2 other sessions ended, 1 access token revoked.')).toBeTruthy();
});

it('has nothing to sign out elsewhere when this is the only session', async () => {
  accountApi(scripter, { 'GET /api/sessions': [HERE] });
  renderAccount();
  await screen.findByRole('region', { name: 'Your sessions' });
  expect((screen.getByRole('button', { name: 'Sign out everywhere else' }) as HTMLButtonElement).disabled).toBe(true);
});
