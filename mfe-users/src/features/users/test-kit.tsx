/**
 * Test-only helpers for the User Management specs: sample users, a page renderer with the providers the shell
 * gives a remote, the browser APIs Radix needs that jsdom lacks, and a spy on toast. Imported by *.spec.tsx files only.
 */
// first: the screens imported below must get the spied @cbh/ui
import { toastSpy } from './toast-spy';
import { render, within, type BoundFunctions, type queries } from '@testing-library/react';
import { StrictMode } from 'react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import type { AuthUser, UserSummary, UserView } from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { authUser, fakeApi } from '@cbh/test-support';
import { Toaster } from '@cbh/ui';
import { UserManagementPage } from './UserManagementPage';

const DAY_MS = 24 * 60 * 60 * 1000;
export const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();

export function userView(fields: Partial<UserView> & Pick<UserView, 'id' | 'email'>): UserView {
  return {
    role: 'viewer',
    firstName: null,
    lastName: null,
    profileImageUrl: null,
    permissions: ['dashboard_view', 'circuit_breaker_view'],
    isActive: true,
    activatedAt: daysAgo(20),
    lastLoginAt: null,
    createdAt: daysAgo(30),
    ...fields,
  };
}

/** The signed-in super admin (id 'root') and four others covering every status, an unknown role and an avatar. */
export const USERS: UserView[] = [
  userView({
    id: 'root',
    email: 'root@example.com',
    role: 'super_admin',
    firstName: 'Root',
    lastName: 'Admin',
    lastLoginAt: '2026-03-04T09:30:00.000Z',
  }),
  userView({
    id: 'ada',
    email: 'ada@example.com',
    role: 'admin',
    firstName: 'Ada',
    lastName: 'Lovelace',
    profileImageUrl: 'https://images.example.com/ada.png',
    permissions: ['dashboard_view', 'metrics_view', 'circuit_breaker_view'],
    createdAt: daysAgo(2),
  }),
  userView({ id: 'pat', email: 'pat@example.com', activatedAt: null, createdAt: daysAgo(1) }),
  userView({ id: 'ivan', email: 'ivan@example.com', role: 'operator', firstName: 'Ivan', isActive: false, createdAt: daysAgo(10) }),
  userView({ id: 'odd', email: 'odd@example.com', role: 'auditor', isActive: false, activatedAt: null, createdAt: daysAgo(8) }),
];

export const superAdmin = authUser({ email: 'root@example.com', role: 'super_admin', permissions: [] });
/** Manages users but may not read the audit trail. */
export const userManager = authUser({ email: 'mia@example.com', role: 'admin', permissions: ['user_management'] });
export const viewer = authUser({ email: 'vera@example.com', role: 'viewer', permissions: ['dashboard_view'] });

/** What the server's summary says of these accounts. */
export function summaryOf(users: readonly UserView[], now = Date.now()): UserSummary {
  const byRole: Record<string, number> = {};
  for (const user of users) byRole[user.role] = (byRole[user.role] ?? 0) + 1;
  return {
    total: users.length,
    active: users.filter((user) => user.isActive).length,
    pendingInvites: users.filter((user) => !user.activatedAt).length,
    recent: users.filter((user) => Date.parse(user.createdAt) >= now - 7 * 86_400_000).length,
    byRole,
  };
}

/** The fake API for the screen: the signed-in account, the users list, and any extra or overriding routes. */
export function usersApi(me: AuthUser | null, routes: Record<string, unknown> = {}) {
  return fakeApi({ 'GET /api/auth/user': me, 'GET /api/users': USERS, 'GET /api/users/summary': summaryOf(USERS), ...routes });
}

export function renderPage({ strict = false } = {}) {
  const tree = (
    <Provider store={createAppStore()}>
      <MemoryRouter initialEntries={['/users']}>
        <UserManagementPage />
      </MemoryRouter>
      <Toaster />
    </Provider>
  );
  return render(strict ? <StrictMode>{tree}</StrictMode> : tree);
}

/** A table's cell texts, row by row, its header row left out. */
export const cellTexts = (table: BoundFunctions<typeof queries>) =>
  table
    .getAllByRole('row')
    .slice(1)
    .map((tr) =>
      within(tr)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    );

export { toastSpy };
export { clickAndSettle, heldRoute, openTab, polyfillRadix } from '@cbh/test-support';
