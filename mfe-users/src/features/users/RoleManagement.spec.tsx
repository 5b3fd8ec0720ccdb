/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { screen, within } from '@testing-library/react';
import { PERMISSION_MATRIX_SIZE, PERMISSIONS, permissionLabel, ROLE_DESCRIPTIONS } from '@cbh/contracts';
import { openTab, polyfillRadix, renderPage, summaryOf, superAdmin, usersApi, userView } from './test-kit';

beforeAll(polyfillRadix);

it('describes each role, counts its holders and lists its default permissions', async () => {
  usersApi(superAdmin);
  renderPage();
  await screen.findByTestId('user-row-root');
  openTab('Role Management');

  const role = (label: string) => within(screen.getByRole('region', { name: label }));
  expect(await screen.findByRole('region', { name: 'Viewer' })).toBeTruthy();
  // holders in the sample: one each of super_admin, admin and operator, one viewer (pat); 'auditor' is nobody's card
  expect(role('Viewer').getByText('1 user')).toBeTruthy();
  expect(role('Operator').getByText('1 user')).toBeTruthy();
  expect(role('Administrator').getByText('1 user')).toBeTruthy();
  expect(role('Super Administrator').getByText('1 user')).toBeTruthy();

  expect(role('Viewer').getByText(ROLE_DESCRIPTIONS.viewer)).toBeTruthy();
  expect(role('Super Administrator').getByText(ROLE_DESCRIPTIONS.super_admin)).toBeTruthy();
  expect(
    role('Viewer')
      .getAllByRole('listitem')
      .map((item) => item.textContent),
  ).toEqual(['View dashboard', 'View circuit breakers']);
  expect(role('Administrator').getAllByRole('listitem')).toHaveLength(6);
  expect(role('Super Administrator').getByText('All permissions')).toBeTruthy();
});

it('says "N users" with the count of holders', async () => {
  const users = [
    userView({ id: 'a', email: 'a@x.io', permissions: [], activatedAt: null, createdAt: '2026-01-01T00:00:00.000Z' }),
    userView({ id: 'b', email: 'b@x.io', permissions: [], activatedAt: null, createdAt: '2026-01-01T00:00:00.000Z' }),
  ];
  usersApi(superAdmin, { 'GET /api/users': users, 'GET /api/users/summary': summaryOf(users) });
  renderPage();
  await screen.findByTestId('user-row-a');
  openTab('Role Management');
  expect(within(await screen.findByRole('region', { name: 'Viewer' })).getByText('2 users')).toBeTruthy();
  expect(within(screen.getByRole('region', { name: 'Operator' })).getByText('0 users')).toBeTruthy();
});

it('shows the first 8 permissions against the four roles, each cell granted or not in words', async () => {
  usersApi(superAdmin);
  renderPage();
  await screen.findByTestId('user-row-root');
  openTab('Permissions');

  const matrix = within(within(await screen.findByRole('region', { name: 'Permission matrix' })).getByRole('table'));
  expect(matrix.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
    'Permission',
    'Viewer',
    'Operator',
    'Administrator',
    'Super Administrator',
  ]);
  const rows = matrix.getAllByRole('row').slice(1);
  expect(PERMISSION_MATRIX_SIZE).toBe(8);
  expect(rows.map((tr) => within(tr).getByRole('rowheader').textContent)).toEqual(
    PERMISSIONS.slice(0, 8).map((key) => permissionLabel(key) + key),
  );
  const marks = rows.map((tr) =>
    within(tr)
      .getAllByRole('img')
      .map((mark) => mark.getAttribute('aria-label')),
  );
  expect(marks.every((cells) => cells.length === 4)).toBe(true);
  const granted = (cells: (string | null)[]) =>
    cells.map((label) => (label === 'granted' ? 'Y' : label === 'not granted' ? '-' : '?')).join('');
  expect(marks.map(granted)).toEqual([
    'YYYY', // dashboard_view
    'YYYY', // circuit_breaker_view
    '-YYY', // circuit_breaker_operate
    '--YY', // circuit_breaker_admin
    '--YY', // domain_management
    '-YYY', // metrics_view
    '---Y', // user_management
    '---Y', // system_admin
  ]);
  expect(matrix.getAllByText('✓')).toHaveLength(20);
  expect(matrix.getAllByText('—')).toHaveLength(12);
});
