import { gzipSync } from 'node:zlib';
import type { ApiTokenView, CreatedApiTokenView, ServiceAccountView } from '@cbh/contracts';
import { signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../test/test-api';
import { remoteManifest } from './dashboard-build.test-kit';

// tokens and service accounts limited to the remotes they may release
let api: TestApi;
let admin: string;

beforeAll(async () => {
  api = await startTestApi();
  admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(async () => {
  await api?.stop();
});

function build(remote: string) {
  const files: Record<string, Buffer> = {
    'mf-manifest.json': Buffer.from(JSON.stringify(remoteManifest(remote))),
    'remoteEntry.js': Buffer.from(`var ${remote};`),
    'remoteEntry.js.gz': gzipSync(`var ${remote};`),
  };
  return { files: Object.entries(files).map(([path, content]) => ({ path, content: content.toString('base64') })) };
}

const bearer = (token: string, path: string, method = 'GET', body?: unknown) =>
  fetch(`${api.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
const call = (path: string, method = 'GET', body?: unknown) => api.call(path, { method, body, cookie: admin });

/** Every release operation on a remote, as a token would make them. */
const operations = (remote: string, versionId: number) =>
  [
    ['POST', `/api/releases/${remote}/check`, build(remote)],
    ['POST', `/api/releases/${remote}/versions`, build(remote)],
    ['POST', `/api/releases/${remote}/promote`, { versionId }],
    ['POST', `/api/releases/${remote}/canary`, { versionId, percent: 10 }],
    ['POST', `/api/releases/${remote}/canary/abort`, undefined],
    ['POST', `/api/releases/${remote}/rollback`, undefined],
    ['POST', `/api/releases/${remote}/pin`, { versionId }],
    ['DELETE', `/api/releases/${remote}/versions/${versionId}`, undefined],
  ] as const;

describe('a token limited to the remotes it may release', () => {
  let dashboardVersion: number;

  it('is created with its remotes, by either name, and shows them; an unknown remote is a 400', async () => {
    dashboardVersion = (await (await call('/api/releases/mfe_dashboard/versions', 'POST', build('mfe_dashboard'))).json()).id;
    const unknown = await call('/api/tokens', 'POST', { name: 'ci', expiresInDays: 30, remotes: ['mfe_nowhere'] });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).message).toContain('remotes.0');
    const created = await call('/api/tokens', 'POST', { name: 'users-ci', expiresInDays: 30, remotes: ['mfe-users'] });
    expect(created.status).toBe(201);
    const token: CreatedApiTokenView = await created.json();
    expect(token.remotes).toEqual(['mfe_users']);
    const listed: ApiTokenView[] = await (await call('/api/tokens')).json();
    expect(listed.find((entry) => entry.id === token.id)!.remotes).toEqual(['mfe_users']);
    const everything: CreatedApiTokenView = await (await call('/api/tokens', 'POST', { name: 'all', expiresInDays: 30 })).json();
    expect(everything.remotes).toBeNull();

    // its own remote: shipped with the CLI's calls
    const mine = await bearer(token.token, '/api/releases/mfe_users/versions', 'POST', build('mfe_users'));
    expect(mine.status).toBe(201);
    const version = (await mine.json()).id;
    expect((await bearer(token.token, '/api/releases/mfe-users/promote', 'POST', { versionId: version })).status).toBe(200);
    expect((await bearer(token.token, '/api/releases')).status).toBe(200);

    // every operation on another remote is a 403 naming it, and changes nothing
    for (const [method, path, body] of operations('mfe_dashboard', dashboardVersion)) {
      const refused = await bearer(token.token, path, method, body);
      expect([path, refused.status]).toEqual([path, 403]);
      expect((await refused.json()).message).toBe('This access token may release only mfe_users, not mfe_dashboard');
    }
    expect(await api.sql("SELECT count(*)::int AS n FROM remote_versions WHERE remote = 'mfe_dashboard'")).toEqual([{ n: 1 }]);
    // a token without a list releases every remote its owner may
    expect((await bearer(everything.token, '/api/releases/mfe_dashboard/promote', 'POST', { versionId: dashboardVersion })).status).toBe(
      200,
    );
  });

  it('holds for a service account: its remotes, and any a token of it narrows further', async () => {
    const created = await call('/api/service-accounts', 'POST', {
      name: 'users-team-ci',
      role: 'viewer',
      permissions: ['system_admin'],
      remotes: ['mfe_users', 'mfe_domains'],
    });
    expect(created.status).toBe(201);
    const account: ServiceAccountView = await created.json();
    expect(account.remotes).toEqual(['mfe_users', 'mfe_domains']);
    const token: CreatedApiTokenView = await (
      await call(`/api/service-accounts/${account.id}/tokens`, 'POST', { name: 'deploy', expiresInDays: 30 })
    ).json();
    const narrow: CreatedApiTokenView = await (
      await call(`/api/service-accounts/${account.id}/tokens`, 'POST', { name: 'domains', expiresInDays: 30, remotes: ['mfe_domains'] })
    ).json();

    expect((await bearer(token.token, '/api/releases/mfe_users/check', 'POST', build('mfe_users'))).status).toBe(200);
    const refused = await bearer(token.token, '/api/releases/mfe_dashboard/rollback', 'POST');
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe('This access token may release only mfe_users, mfe_domains, not mfe_dashboard');
    const narrowed = await bearer(narrow.token, '/api/releases/mfe_users/check', 'POST', build('mfe_users'));
    expect(narrowed.status).toBe(403);
    expect((await narrowed.json()).message).toBe('This access token may release only mfe_domains, not mfe_users');

    // lifted (null: every remote), the same token may release the dashboard
    const lifted = await call(`/api/service-accounts/${account.id}`, 'PATCH', { remotes: null });
    expect(lifted.status).toBe(200);
    expect(((await lifted.json()) as ServiceAccountView).remotes).toBeNull();
    expect((await bearer(token.token, '/api/releases/mfe_dashboard/check', 'POST', build('mfe_dashboard'))).status).toBe(200);
    const limited = await call(`/api/service-accounts/${account.id}`, 'PATCH', { remotes: ['mfe-learning'] });
    expect(((await limited.json()) as ServiceAccountView).remotes).toEqual(['mfe_learning']);
    expect((await bearer(token.token, '/api/releases/mfe_dashboard/check', 'POST', build('mfe_dashboard'))).status).toBe(403);
  });
});
