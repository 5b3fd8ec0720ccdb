/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { apiError } from '@cbh/test-support';
import {
  openTab,
  polyfillRadix,
  renderPage,
  summaryOf,
  superAdmin,
  userManager,
  USERS,
  usersApi,
  viewer,
  userView,
  toastSpy,
} from './test-kit';

beforeAll(polyfillRadix);

const card = (label: string) => within(screen.getByRole('region', { name: label }));
const row = (id: string) => within(screen.getByTestId(`user-row-${id}`));
const tabNames = () => screen.getAllByRole('tab').map((tab) => tab.textContent);
/** The tabs every holder of user_management sees. */
const USER_MANAGER_TABS = ['All Users', 'Role Management', 'Permissions', 'Service Accounts'];

it('shows the header, the Invite User button and the four figures', async () => {
  usersApi(superAdmin);
  renderPage();
  expect(screen.getByRole('heading', { level: 1, name: 'User Management' })).toBeTruthy();
  await screen.findByRole('region', { name: 'Total Users' });
  expect(screen.getByRole('button', { name: 'Invite User' })).toBeTruthy();
  expect(card('Total Users').getByText('5')).toBeTruthy();
  // enabled: root, ada, pat
  expect(card('Active Users').getByText('3')).toBeTruthy();
  // never activated: pat (enabled) and odd (disabled)
  expect(card('Pending Invites').getByText('2')).toBeTruthy();
  // created within 7 days: ada (2 days), pat (1 day); not ivan (10) nor odd (8)
  expect(card('Recent Users').getByText('2')).toBeTruthy();
});

it('lists every user with avatar or initial, name or e-mail, role, status, last login and joined date', async () => {
  usersApi(superAdmin);
  renderPage();
  await screen.findByTestId('user-row-ada');
  expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
    'User',
    'Role',
    'Status',
    'Last Login',
    'Joined',
    'Actions',
  ]);

  expect(row('ada').getByRole('img', { name: 'Avatar of Ada Lovelace' }).getAttribute('src')).toBe('https://images.example.com/ada.png');
  expect(row('ada').getByText('Ada Lovelace')).toBeTruthy();
  expect(row('ada').getByText('ada@example.com')).toBeTruthy();
  expect(row('ivan').queryByRole('img')).toBeNull();
  expect(row('ivan').getByText('I')).toBeTruthy();
  expect(row('ivan').getByText('Ivan')).toBeTruthy();
  // no name: the e-mail stands in for it
  expect(row('pat').getByText('pat@example.com')).toBeTruthy();

  expect(row('root').getByTestId('role-badge').textContent).toBe('Super Administrator');
  expect(row('ada').getByTestId('role-badge').textContent).toBe('Administrator');
  expect(row('ivan').getByTestId('role-badge').textContent).toBe('Operator');
  expect(row('pat').getByTestId('role-badge').textContent).toBe('Viewer');
  // a role the screen does not know is shown by its raw name
  expect(row('odd').getByTestId('role-badge').textContent).toBe('auditor');

  expect(row('root').getByTestId('status-badge').textContent).toBe('Active');
  expect(row('pat').getByTestId('status-badge').textContent).toBe('Pending');
  expect(row('ivan').getByTestId('status-badge').textContent).toBe('Inactive');
  expect(row('odd').getByTestId('status-badge').textContent).toBe('Inactive');

  const rootLogin = row('root').getByText(
    (_, element) => element?.tagName === 'TIME' && element.getAttribute('dateTime') === USERS[0]!.lastLoginAt,
  );
  // relative, the exact moment on hover
  expect(rootLogin.textContent).toMatch(/ago$/);
  fireEvent.pointerEnter(rootLogin);
  expect(rootLogin.getAttribute('title')).toMatch(/2026/);
  expect(row('pat').getByText('Never')).toBeTruthy();
  expect(row('ada').getByText('2 days ago')).toBeTruthy();
  expect(row('ada').getByRole('button', { name: 'Actions for ada@example.com' })).toBeTruthy();
  expect(row('ada').getByRole('switch', { name: 'Active: ada@example.com' }).getAttribute('aria-checked')).toBe('true');
  expect(row('ivan').getByRole('switch', { name: 'Active: ivan@example.com' }).getAttribute('aria-checked')).toBe('false');
});

it('lets the dates give way first, then the status, where the table narrows; the user and role stay', async () => {
  usersApi(superAdmin);
  renderPage();
  const table = await screen.findByRole('table', { name: 'Users' });
  const priorities = within(table)
    .getAllByRole('columnheader')
    .map((th) => `${th.textContent}:${th.getAttribute('data-priority') ?? '-'}`);
  expect(priorities).toEqual(['User:1', 'Role:1', 'Status:2', 'Last Login:2', 'Joined:3', 'Actions:-']);
});

it('says so when there are no users', async () => {
  usersApi(superAdmin, { 'GET /api/users': [] });
  renderPage();
  expect(await screen.findByText('No users yet. Invite someone to get started.')).toBeTruthy();
  expect(screen.queryByRole('table')).toBeNull();
});

it('shows the server’s reason when the list cannot be loaded', async () => {
  usersApi(superAdmin, { 'GET /api/users': apiError(403, 'Requires user_management') });
  renderPage();
  expect((await screen.findByRole('alert')).textContent).toContain('Requires user_management');
});

it('offers All Users, Role Management, Permissions and Service Accounts, plus Audit Log with audit_access, Organisation with organization_admin and System with system_admin', async () => {
  usersApi(superAdmin, { 'GET /api/audit': { entries: [], total: 0, page: 1, pageSize: 20 } });
  renderPage();
  await screen.findByTestId('user-row-root');
  expect(tabNames()).toEqual([...USER_MANAGER_TABS, 'Audit Log', 'Organisation', 'System']);
});

it('hides the Audit Log tab, and asks for no audit entries, without audit_access', async () => {
  const api = usersApi(userManager);
  renderPage();
  await screen.findByTestId('user-row-root');
  expect(tabNames()).toEqual(USER_MANAGER_TABS);
  openTab('Permissions');
  await screen.findByRole('region', { name: 'Permission matrix' });
  expect(api.calls.filter((call) => call.path.startsWith('/api/audit'))).toEqual([]);
});

it('lets a holder of user_management in, not only super admins', async () => {
  usersApi(userManager);
  renderPage();
  expect(await screen.findByTestId('user-row-root')).toBeTruthy();
  expect(screen.queryByText('Access Restricted')).toBeNull();
  // the signed-in account is not in the list: the super admin's switch is closed to a user manager, not as their own
  const rootSwitch = screen.getByRole('switch', { name: 'Active: root@example.com' });
  expect(rootSwitch.parentElement!.getAttribute('data-reason')).toBe('Only a super_admin can change or delete a super_admin');
});

it('shows a loading state, not the restricted card, while the account is being read', async () => {
  let answer: (response: Response) => void = () => undefined;
  const api = usersApi(null, { 'GET /api/auth/user': () => new Promise<Response>((resolve) => (answer = resolve)) });
  renderPage();
  await waitFor(() => expect(api.callsTo('GET', '/api/auth/user')).toHaveLength(1));
  expect(screen.getByRole('status').textContent).toBe('Loading…');
  expect(screen.queryByText('Access Restricted')).toBeNull();
  expect(toastSpy).not.toHaveBeenCalled();
  await act(async () => answer(Response.json(superAdmin)));
  expect(await screen.findByTestId('user-row-root')).toBeTruthy();
});

describe('without access', () => {
  it('shows Access Restricted, notifies once and never asks for the users', async () => {
    const api = usersApi(viewer);
    renderPage({ strict: true });
    expect(await screen.findByRole('heading', { name: 'Access Restricted' })).toBeTruthy();
    expect(screen.getAllByText("You don't have permission to access User Management.").length).toBeGreaterThan(0);
    expect(await screen.findByText('Access Denied')).toBeTruthy();
    expect(toastSpy).toHaveBeenCalledTimes(1);
    expect(toastSpy).toHaveBeenCalledWith({
      title: 'Access Denied',
      description: "You don't have permission to access User Management.",
      variant: 'destructive',
    });
    expect(screen.queryByRole('button', { name: 'Invite User' })).toBeNull();
    expect(screen.queryByRole('tab')).toBeNull();
    await waitFor(() => expect(api.callsTo('GET', '/api/auth/user').length).toBeGreaterThan(0));
    expect(api.calls.filter((call) => call.path.startsWith('/api/users'))).toEqual([]);
  });

  it('treats a signed-out visitor the same way', async () => {
    const api = usersApi(null);
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Access Restricted' })).toBeTruthy();
    expect(api.callsTo('GET', '/api/users')).toEqual([]);
  });
});

it('counts a user list that changes', async () => {
  usersApi(superAdmin, { 'GET /api/users/summary': summaryOf([userView({ id: 'root', email: 'root@example.com', role: 'super_admin' })]) });
  renderPage();
  await screen.findByRole('region', { name: 'Total Users' });
  expect(card('Total Users').getByText('1')).toBeTruthy();
  expect(card('Pending Invites').getByText('0')).toBeTruthy();
});
