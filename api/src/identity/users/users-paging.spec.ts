import { USERS_PAGE_MAX } from '@cbh/contracts';
import { DEMO_PASSWORD, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../test/test-api';

let api: TestApi;
let admin: string;

beforeAll(async () => {
  api = await startTestApi();
  admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  for (let n = 1; n <= 30; n += 1) {
    const invited = await api.call('/api/users/invite', {
      cookie: admin,
      method: 'POST',
      body: { email: `paged-${String(n).padStart(2, '0')}@paging.example.com`, role: 'viewer' },
    });
    expect(invited.status).toBe(201);
  }
});
afterAll(() => api.stop());

const list = async (query: string) => {
  const response = await api.call(`/api/users${query}`, { cookie: admin });
  return { status: response.status, total: response.headers.get('x-total-count'), body: await response.json() };
};

describe('the users list', () => {
  it('answers a page of the matches, oldest first, with how many match in x-total-count', async () => {
    const first = await list('?search=paging.example&limit=10');
    expect(first.status).toBe(200);
    expect(first.total).toBe('30');
    expect(first.body.map((user: { email: string }) => user.email)).toEqual(
      Array.from({ length: 10 }, (_, i) => `paged-${String(i + 1).padStart(2, '0')}@paging.example.com`),
    );
    const last = await list('?search=paging.example&limit=10&offset=25');
    expect(last.body).toHaveLength(5);
    expect(last.body[4].email).toBe('paged-30@paging.example.com');
  });

  it('searches e-mails and names in any letter case, taking % and _ literally', async () => {
    const one = await list('?search=PAGED-07');
    expect(one.total).toBe('1');
    expect(one.body[0].email).toBe('paged-07@paging.example.com');
    expect((await list('?search=%25')).total).toBe('0');
  });

  it('stays an array for callers that send no parameters, bounded to a page', async () => {
    const all = await list('');
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.body.length).toBeLessThanOrEqual(USERS_PAGE_MAX);
    expect(Number(all.total)).toBeGreaterThanOrEqual(34);
  });

  it('refuses a page larger than the bound, a negative offset and unknown parameters', async () => {
    expect((await list(`?limit=${USERS_PAGE_MAX + 1}`)).status).toBe(400);
    expect((await list('?offset=-1')).status).toBe(400);
    expect((await list('?page=2')).status).toBe(400);
  });

  it('sums up every account whatever the page, for user managers only', async () => {
    const response = await api.call('/api/users/summary', { cookie: admin });
    const summary = await response.json();
    const [row] = await api.sql(
      `SELECT count(*)::int AS total, (count(*) FILTER (WHERE activated_at IS NULL))::int AS pending
         FROM users WHERE kind = 'person'`,
    );
    expect(summary.total).toBe(row.total);
    expect(summary.pendingInvites).toBe(row.pending);
    expect(summary.recent).toBe(row.total);
    expect(summary.byRole.viewer).toBeGreaterThanOrEqual(30);
    const viewer = await signIn(api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
    expect((await api.call('/api/users/summary', { cookie: viewer })).status).toBe(403);
  });
});

describe('the audit trail', () => {
  it('names an account target by its e-mail, and a deleted one by the e-mail it recorded', async () => {
    const [kept] = (await list('?search=paged-01@')).body as { id: string }[];
    const [gone] = (await list('?search=paged-02@')).body as { id: string }[];
    await api.call(`/api/users/${kept!.id}`, { cookie: admin, method: 'PATCH', body: { role: 'operator' } });
    await api.call(`/api/users/${gone!.id}`, { cookie: admin, method: 'DELETE' });
    const page = await (await api.call('/api/audit?pageSize=200', { cookie: admin })).json();
    const about = (id: string) => page.entries.filter((entry: { targetId: string }) => entry.targetId === id);
    expect(about(kept!.id).length).toBeGreaterThan(0);
    for (const entry of about(kept!.id)) expect(entry.targetName).toBe('paged-01@paging.example.com');
    const deleted = about(gone!.id).find((entry: { action: string }) => entry.action.includes('delete'));
    expect(deleted?.targetName).toBe('paged-02@paging.example.com');
  });
});
