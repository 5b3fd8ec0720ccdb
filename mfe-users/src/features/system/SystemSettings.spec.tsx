/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RETENTION_DEFAULTS, type PruneResultView, type RetentionView } from '@cbh/contracts';
import { apiError, authUser } from '@cbh/test-support';
import {
  cellTexts,
  clickAndSettle,
  openTab,
  polyfillRadix,
  renderPage,
  superAdmin,
  userManager,
  usersApi,
  toastSpy,
} from '../users/test-kit';

beforeAll(polyfillRadix);

const NEVER_PRUNED: RetentionView = { ...RETENTION_DEFAULTS, lastPrunedAt: null, lastPruned: null };
const PRUNED: RetentionView = {
  ...RETENTION_DEFAULTS,
  lastPrunedAt: '2026-03-04T09:30:00.000Z',
  lastPruned: { audit: 12, checkResults: 3400, transitions: 7, notifications: 5, expiredTokens: 1, tokenUsage: 40 },
};

async function openSystem() {
  await screen.findByTestId('user-row-root');
  openTab('System');
  return screen.findByRole('heading', { name: 'Data Retention' });
}

const field = (label: string) => screen.getByLabelText(`${label} (days)`) as HTMLInputElement;

it('shows the System tab only to holders of system_admin, and asks nothing without it', async () => {
  const api = usersApi(userManager, { 'GET /api/system/retention': NEVER_PRUNED });
  renderPage();
  await screen.findByTestId('user-row-root');
  expect(screen.queryByRole('tab', { name: 'System' })).toBeNull();
  expect(api.callsTo('GET', '/api/system/retention')).toEqual([]);
});

it('shows the four settings in days and saves the changed ones', async () => {
  const saved: RetentionView = { ...NEVER_PRUNED, auditDays: 400 };
  const api = usersApi(authUser({ email: 'sys@example.com', role: 'admin', permissions: ['user_management', 'system_admin'] }), {
    'GET /api/system/retention': NEVER_PRUNED,
    'PATCH /api/system/retention': () => saved,
  });
  renderPage();
  await openSystem();
  expect(field('Audit entries').value).toBe('365');
  expect(field('Check results').value).toBe('30');
  expect(field('Breaker transitions').value).toBe('90');
  expect(field('Delivered notifications').value).toBe('90');
  expect(screen.getByText('Not pruned yet: the first daily prune runs within a day.')).toBeTruthy();
  const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
  expect(save.disabled).toBe(true);

  fireEvent.change(field('Audit entries'), { target: { value: '0' } });
  expect(save.disabled).toBe(true);
  fireEvent.change(field('Audit entries'), { target: { value: '400' } });
  expect(save.disabled).toBe(false);
  await clickAndSettle(save);

  expect(api.callsTo('PATCH', '/api/system/retention').map((call) => call.body)).toEqual([{ auditDays: 400 }]);
  await waitFor(() => expect(toastSpy).toHaveBeenCalledWith(expect.objectContaining({ title: 'Retention Updated' })));
});

it('says why a save was refused', async () => {
  usersApi(superAdmin, {
    'GET /api/system/retention': NEVER_PRUNED,
    'PATCH /api/system/retention': apiError(403, 'Requires the system_admin permission'),
  });
  renderPage();
  await openSystem();
  fireEvent.change(field('Check results'), { target: { value: '60' } });
  await clickAndSettle(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() =>
    expect(toastSpy).toHaveBeenCalledWith(expect.objectContaining({ title: 'Error', description: 'Requires the system_admin permission' })),
  );
});

it('shows when the last prune ran and what it removed, and prunes now', async () => {
  const result: PruneResultView = { prunedAt: '2026-03-05T10:00:00.000Z', removed: { ...PRUNED.lastPruned!, audit: 2 } };
  const api = usersApi(superAdmin, { 'GET /api/system/retention': PRUNED, 'POST /api/system/retention/prune': () => result });
  renderPage();
  await openSystem();
  expect(screen.getByText('Last pruned').querySelector('time')?.getAttribute('dateTime')).toBe(PRUNED.lastPrunedAt);
  const table = within(screen.getByRole('table', { name: 'Removed by the last prune' }));
  expect(cellTexts(table)).toEqual([
    ['Audit entries', '12'],
    ['Check results', '3400'],
    ['Breaker transitions', '7'],
    ['Notification deliveries and events', '5'],
    ['Expired access tokens', '1'],
    ['Token usage counts', '40'],
  ]);

  await clickAndSettle(screen.getByRole('button', { name: 'Prune now' }));
  expect(api.callsTo('POST', '/api/system/retention/prune')).toHaveLength(1);
  await waitFor(() =>
    expect(toastSpy).toHaveBeenCalledWith(
      expect.objectContaining({ title: 'Prune Complete', description: 'Removed 3455 rows older than the settings keep.' }),
    ),
  );
  // the view is asked again for the new outcome
  await waitFor(() => expect(api.callsTo('GET', '/api/system/retention')).toHaveLength(2));
});

it('says so when a prune is already running', async () => {
  usersApi(superAdmin, {
    'GET /api/system/retention': NEVER_PRUNED,
    'POST /api/system/retention/prune': apiError(409, 'A prune is running already; its outcome shows here when it finishes'),
  });
  renderPage();
  await openSystem();
  await clickAndSettle(screen.getByRole('button', { name: 'Prune now' }));
  await waitFor(() =>
    expect(toastSpy).toHaveBeenCalledWith(
      expect.objectContaining({ title: 'Error', description: 'A prune is running already; its outcome shows here when it finishes' }),
    ),
  );
});
