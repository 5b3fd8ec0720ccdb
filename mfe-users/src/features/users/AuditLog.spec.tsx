/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AuditEntryView, AuditPage } from '@cbh/contracts';
import { apiError } from '@cbh/test-support';
import { AUDIT_PAGE_SIZE } from './AuditLog';
import { cellTexts, clickAndSettle, openTab, polyfillRadix, renderPage, superAdmin, userManager, usersApi } from './test-kit';

beforeAll(polyfillRadix);

function entry(fields: Partial<AuditEntryView> & Pick<AuditEntryView, 'id' | 'createdAt'>): AuditEntryView {
  return {
    actorId: 'root',
    actorEmail: 'root@example.com',
    action: 'user.invite',
    targetType: 'user',
    targetId: 'u-1',
    before: null,
    after: null,
    requestId: 'req-1',
    via: null,
    ...fields,
  };
}

const auditPage = (entries: AuditEntryView[], total = entries.length, page = 1): AuditPage => ({
  entries,
  total,
  page,
  pageSize: AUDIT_PAGE_SIZE,
});
const query = (params: Record<string, string>) => `/api/audit?${new URLSearchParams(params)}`;

async function openAudit() {
  await screen.findByTestId('user-row-root');
  openTab('Audit Log');
  return screen.findByRole('heading', { name: 'Audit Log' });
}

it('names the token a change was made with, and a service account by its name', async () => {
  usersApi(superAdmin, {
    'GET /api/audit': auditPage([
      entry({
        id: 'by-token',
        createdAt: '2026-03-02T10:00:00.000Z',
        via: { tokenId: 't-1', name: 'ci-export', prefix: 'cbh_3fA9kQ2x' },
      }),
      entry({
        id: 'by-machine',
        createdAt: '2026-03-01T10:00:00.000Z',
        actorEmail: 'ci-bot@service-account.invalid',
        via: { tokenId: 't-2', name: 'deploy', prefix: 'cbh_Zz9yXx8w' },
      }),
    ]),
  });
  renderPage();
  await openAudit();
  const table = within(await screen.findByRole('table', { name: 'Audit entries' }));
  const actors = cellTexts(table).map((cells) => cells[1]);
  expect(actors).toEqual([
    "root@example.com via token 'ci-export' (cbh_3fA9kQ2x…)",
    "service account 'ci-bot' via token 'deploy' (cbh_Zz9yXx8w…)",
  ]);
});

it('lists entries newest first with time, actor (or System), action, target and request id', async () => {
  const api = usersApi(superAdmin, {
    'GET /api/audit': auditPage([
      entry({ id: 'old', createdAt: '2026-03-01T10:00:00.000Z', action: 'user.invite' }),
      entry({
        id: 'new',
        createdAt: '2026-03-02T10:00:00.000Z',
        actorId: null,
        actorEmail: null,
        action: 'user.status',
        targetId: 'u-2',
        requestId: null,
      }),
    ]),
  });
  renderPage();
  await openAudit();
  const table = within(await screen.findByRole('table', { name: 'Audit entries' }));
  expect(table.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Time', 'Actor', 'Action', 'Target', 'Request id']);
  const cells = cellTexts(table);
  expect(cells.map((row) => row.slice(1))).toEqual([
    ['System', 'user.status', 'user u-2', '—'],
    ['root@example.com', 'user.invite', 'user u-1', 'req-1'],
  ]);
  // a moment: relative, the exact time on hover
  expect(table.getAllByText(/ago$/)[0]!.getAttribute('dateTime')).toBe('2026-03-02T10:00:00.000Z');
  expect(api.calls.filter((call) => call.path.startsWith('/api/audit')).map((call) => call.path)).toEqual([
    query({ page: '1', pageSize: String(AUDIT_PAGE_SIZE) }),
  ]);
});

it('sends the filters, with the local date-times as ISO instants, and says when nothing matches', async () => {
  const api = usersApi(superAdmin, { 'GET /api/audit': auditPage([]) });
  renderPage();
  await openAudit();
  expect(await screen.findByText('No audit entries match these filters.')).toBeTruthy();

  fireEvent.change(screen.getByLabelText('Actor e-mail'), { target: { value: 'ada@example.com' } });
  fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'user.role' } });
  fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01T08:00' } });
  fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-02T18:30' } });
  expect((screen.getByLabelText('From') as HTMLInputElement).type).toBe('datetime-local');
  await clickAndSettle(screen.getByRole('button', { name: 'Apply filters' }));

  const filtered = query({
    actor: 'ada@example.com',
    action: 'user.role',
    from: new Date('2026-03-01T08:00').toISOString(),
    to: new Date('2026-03-02T18:30').toISOString(),
    page: '1',
    pageSize: String(AUDIT_PAGE_SIZE),
  });
  await waitFor(() => expect(api.calls.map((call) => call.path)).toContain(filtered));

  await clickAndSettle(screen.getByRole('button', { name: 'Clear' }));
  expect((screen.getByLabelText('Actor e-mail') as HTMLInputElement).value).toBe('');
});

it('pages with Previous and Next', async () => {
  const entries = [entry({ id: 'e', createdAt: '2026-03-01T10:00:00.000Z' })];
  const api = usersApi(superAdmin, { 'GET /api/audit': auditPage(entries, AUDIT_PAGE_SIZE * 2 + 1) });
  renderPage();
  await openAudit();
  expect(await screen.findByText(`1–${AUDIT_PAGE_SIZE} of ${AUDIT_PAGE_SIZE * 2 + 1}`)).toBeTruthy();
  const previous = screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement;
  const next = screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement;
  expect(previous.disabled).toBe(true);
  await clickAndSettle(next);
  expect(screen.getByText(`${AUDIT_PAGE_SIZE + 1}–${AUDIT_PAGE_SIZE * 2} of ${AUDIT_PAGE_SIZE * 2 + 1}`)).toBeTruthy();
  await waitFor(() => expect(api.calls.map((call) => call.path)).toContain(query({ page: '2', pageSize: String(AUDIT_PAGE_SIZE) })));
  await clickAndSettle(next);
  expect(screen.getByText(`${AUDIT_PAGE_SIZE * 2 + 1}–${AUDIT_PAGE_SIZE * 2 + 1} of ${AUDIT_PAGE_SIZE * 2 + 1}`)).toBeTruthy();
  expect(next.disabled).toBe(true);
  await clickAndSettle(previous);
  expect(screen.getByText(`${AUDIT_PAGE_SIZE + 1}–${AUDIT_PAGE_SIZE * 2} of ${AUDIT_PAGE_SIZE * 2 + 1}`)).toBeTruthy();
});

it('names an account target where the server could, its id on hover', async () => {
  usersApi(superAdmin, {
    'GET /api/audit': auditPage([
      entry({ id: 'named', createdAt: '2026-03-01T10:00:00.000Z', targetId: 'u-9', targetName: 'ada@example.com' }),
    ]),
  });
  renderPage();
  await openAudit();
  const table = within(await screen.findByRole('table', { name: 'Audit entries' }));
  const target = table.getByText('ada@example.com', { exact: false });
  expect(target.textContent).toBe('user ada@example.com');
  expect(target.getAttribute('title')).toBe('u-9');
});

it('shows the server’s reason when the trail cannot be read', async () => {
  usersApi(superAdmin, { 'GET /api/audit': apiError(403, 'Requires audit_access') });
  renderPage();
  await openAudit();
  expect((await screen.findByRole('alert')).textContent).toContain('Requires audit_access');
});

it('is not offered, and never asked for, without audit_access', async () => {
  const api = usersApi(userManager, { 'GET /api/audit': auditPage([]) });
  renderPage();
  await screen.findByTestId('user-row-root');
  expect(screen.queryByRole('tab', { name: 'Audit Log' })).toBeNull();
  expect(api.calls.filter((call) => call.path.startsWith('/api/audit'))).toEqual([]);
});
