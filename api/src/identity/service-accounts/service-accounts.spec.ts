import WebSocket from 'ws';
import {
  auditActorText,
  type ApiTokenView,
  type CreatedApiTokenView,
  ROLE_DEFAULT_PERMISSIONS,
  SERVICE_ACCOUNTS_MAX,
  type ServiceAccountView,
} from '@cbh/contracts';
import { DEMO_PASSWORD, eventually, signIn, twoReplicasForThisFile, TEST_ADMIN, type TestApi } from '../../../test/test-api';
import { simpleBreaker } from '../../../test/breaker-bodies';

const spec = twoReplicasForThisFile();

const call = (path: string, options: { method?: string; body?: unknown; cookie?: string | null } = {}) =>
  spec.api.call(path, { cookie: spec.admin, ...options });
const idOf = async (email: string) => (await spec.api.sql('SELECT id FROM users WHERE email = $1', [email]))[0].id as string;

/** A call with `Authorization: Bearer <token>` to one replica. */
function withToken(
  token: string,
  path: string,
  { method = 'GET', body, replica = spec.api }: { method?: string; body?: unknown; replica?: TestApi } = {},
) {
  return fetch(`${replica.baseUrl}${path}`, {
    method,
    redirect: 'manual',
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
}

async function createAccount(body: Record<string, unknown>, cookie = spec.admin): Promise<ServiceAccountView> {
  const response = await call('/api/service-accounts', { method: 'POST', body, cookie });
  expect(response.status).toBe(201);
  return response.json();
}

async function createToken(accountId: string, body: Record<string, unknown> = {}, cookie = spec.admin): Promise<CreatedApiTokenView> {
  const response = await call(`/api/service-accounts/${accountId}/tokens`, {
    method: 'POST',
    cookie,
    body: { name: 'deploy', expiresInDays: 30, ...body },
  });
  expect(response.status).toBe(201);
  return response.json();
}

/** The demo admin given user_management on top of its role's permissions, signed in: a user manager who is no super_admin. */
async function signInAsUserManager(): Promise<string> {
  const granted = await call(`/api/users/${await idOf('admin@demo.example.com')}/permissions`, {
    method: 'PATCH',
    body: { permissions: [...ROLE_DEFAULT_PERMISSIONS.admin, 'user_management'] },
  });
  expect(granted.status).toBe(200);
  return signIn(spec.api.baseUrl, 'admin@demo.example.com', DEMO_PASSWORD);
}

const INVALID = { statusCode: 401, error: 'Unauthorized', message: 'The access token is not valid' };

describe('creating', () => {
  it('creates a service account with a role’s permissions, lists it, and audits it', async () => {
    const created = await createAccount({ name: 'ci-bot', role: 'operator' });
    expect(created).toEqual({
      id: expect.any(String),
      name: 'ci-bot',
      role: 'operator',
      permissions: [...ROLE_DEFAULT_PERMISSIONS.operator],
      isActive: true,
      createdAt: expect.any(String),
      createdBy: TEST_ADMIN.email,
      tokenCount: 0,
      // no limit on which remotes it may release
      remotes: null,
    });
    const listed: ServiceAccountView[] = await (await call('/api/service-accounts')).json();
    expect(listed.find((account) => account.id === created.id)).toEqual(created);
    const [entry] = await spec.api.sql(
      "SELECT actor_email, target_type, target_id, after FROM audit_entries WHERE action = 'service_account.create'",
    );
    expect(entry).toEqual({
      actor_email: TEST_ADMIN.email,
      target_type: 'service_account',
      target_id: created.id,
      after: { name: 'ci-bot', role: 'operator', permissions: [...ROLE_DEFAULT_PERMISSIONS.operator], isActive: true, remotes: null },
    });
  });

  it('refuses a taken name (409), a bad name (400), permissions wider than the creator’s (400 naming them) and a super_admin one from a non-super_admin (403)', async () => {
    const taken = await call('/api/service-accounts', { method: 'POST', body: { name: 'ci-bot' } });
    expect(taken.status).toBe(409);
    expect((await taken.json()).message).toBe('A service account named ci-bot already exists');
    for (const name of ['', 'CI-Bot', 'ci bot', 'a'.repeat(65), 'ci@bot']) {
      expect((await call('/api/service-accounts', { method: 'POST', body: { name } })).status).toBe(400);
    }

    const manager = await signInAsUserManager();
    const wider = await call('/api/service-accounts', {
      method: 'POST',
      cookie: manager,
      body: { name: 'wide', permissions: ['circuit_breaker_view', 'audit_access', 'system_admin'] },
    });
    expect(wider.status).toBe(400);
    expect((await wider.json()).message).toBe('permissions: you do not hold system_admin, audit_access');
    const superAdmin = await call('/api/service-accounts', {
      method: 'POST',
      cookie: manager,
      body: { name: 'root-bot', role: 'super_admin' },
    });
    expect(superAdmin.status).toBe(403);
    expect((await superAdmin.json()).message).toBe('Only a super_admin can grant the super_admin role');
    expect(await spec.api.sql("SELECT 1 FROM users WHERE first_name IN ('wide', 'root-bot')")).toEqual([]);

    const within = await createAccount({ name: 'reporter', permissions: ['circuit_breaker_view', 'metrics_view'] }, manager);
    expect(within).toMatchObject({
      role: 'viewer',
      permissions: ['circuit_breaker_view', 'metrics_view'],
      createdBy: 'admin@demo.example.com',
    });
    expect((await createAccount({ name: 'root-bot', role: 'super_admin' })).role).toBe('super_admin');
  });
});

describe('a service account’s tokens', () => {
  it('act with the service account’s permissions: 200 with circuit_breaker_view, 403 without it', async () => {
    const viewer = await createAccount({ name: 'breaker-reader', permissions: ['circuit_breaker_view'] });
    const blind = await createAccount({ name: 'metrics-reader', permissions: ['metrics_view'] });
    const allowed = await createToken(viewer.id);
    expect(allowed.token).toMatch(/^cbh_/);
    expect(allowed.permissions).toEqual(['circuit_breaker_view']);
    expect((await withToken(allowed.token, '/api/circuit-breakers')).status).toBe(200);
    const refused = await withToken((await createToken(blind.id)).token, '/api/circuit-breakers');
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe('Requires the circuit_breaker_view permission');

    const listed: ApiTokenView[] = await (await call(`/api/service-accounts/${viewer.id}/tokens`)).json();
    expect(listed.map((token) => token.id)).toEqual([allowed.id]);
    expect(JSON.stringify(listed)).not.toContain(allowed.token);
    const account: ServiceAccountView = (await (await call('/api/service-accounts')).json()).find(
      (one: ServiceAccountView) => one.id === viewer.id,
    );
    expect(account.tokenCount).toBe(1);
  });

  it('are narrowed to the service account’s permissions (400 naming what it lacks) and made only in a session (403)', async () => {
    const account = await createAccount({ name: 'narrow', permissions: ['circuit_breaker_view'] });
    const wider = await call(`/api/service-accounts/${account.id}/tokens`, {
      method: 'POST',
      body: { name: 'x', expiresInDays: 1, permissions: ['circuit_breaker_view', 'user_management'] },
    });
    expect(wider.status).toBe(400);
    expect((await wider.json()).message).toBe("permissions: the service account 'narrow' does not hold user_management");

    const root = await call('/api/tokens', { method: 'POST', body: { name: 'root', expiresInDays: 1 } });
    const minted = await withToken((await root.json()).token, `/api/service-accounts/${account.id}/tokens`, {
      method: 'POST',
      body: { name: 'x', expiresInDays: 1 },
    });
    expect(minted.status).toBe(403);
    expect(await spec.api.sql('SELECT 1 FROM api_tokens WHERE user_id = $1', [account.id])).toEqual([]);
  });

  it('cannot be made or revoked by a manager lacking a permission the service account holds (403)', async () => {
    const manager = await signInAsUserManager();
    const auditor = await createAccount({ name: 'auditor', permissions: ['audit_access'] });
    const token = await createToken(auditor.id);
    const made = await call(`/api/service-accounts/${auditor.id}/tokens`, {
      method: 'POST',
      cookie: manager,
      body: { name: 'x', expiresInDays: 1 },
    });
    expect(made.status).toBe(403);
    expect((await made.json()).message).toBe('You cannot change or delete an account holding audit_access, which you do not hold');
    expect((await call(`/api/service-accounts/${auditor.id}/tokens/${token.id}`, { method: 'DELETE', cookie: manager })).status).toBe(403);
    expect(
      (await call(`/api/service-accounts/${auditor.id}`, { method: 'PATCH', cookie: manager, body: { isActive: false } })).status,
    ).toBe(403);
    expect((await call(`/api/service-accounts/${auditor.id}`, { method: 'DELETE', cookie: manager })).status).toBe(403);
    expect((await withToken(token.token, '/api/audit')).status).toBe(200);
  });

  it('are audited as the service account via the token, and their revocation as a change of the service account', async () => {
    const account = await createAccount({ name: 'ci-deployer', role: 'admin' });
    const token = await createToken(account.id, { name: 'deploy' });
    const breaker = await withToken(token.token, '/api/circuit-breakers', {
      method: 'POST',
      body: simpleBreaker('made-by-ci'),
    });
    expect(breaker.status).toBe(201);
    const { entries } = await (await call('/api/audit?action=breaker.create')).json();
    expect(auditActorText(entries[0])).toBe(`service account 'ci-deployer' via token 'deploy' (${token.prefix}…)`);

    const revoked = await call(`/api/service-accounts/${account.id}/tokens/${token.id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(204);
    expect(await eventually(async () => (await withToken(token.token, '/api/auth/user', { replica: spec.second })).status === 401)).toBe(
      true,
    );
    const audit = await spec.api.sql(
      "SELECT action, target_type, target_id, before, after FROM audit_entries WHERE action LIKE 'service_account.token.%' AND target_id = $1 ORDER BY id",
      [account.id],
    );
    expect(audit).toEqual([
      {
        action: 'service_account.token.create',
        target_type: 'service_account',
        target_id: account.id,
        before: null,
        after: {
          tokenId: token.id,
          name: 'deploy',
          prefix: token.prefix,
          permissions: token.permissions,
          expiresAt: token.expiresAt,
          remotes: null,
        },
      },
      {
        action: 'service_account.token.revoke',
        target_type: 'service_account',
        target_id: account.id,
        before: { tokenId: token.id, name: 'deploy', prefix: token.prefix },
        after: null,
      },
    ]);
    // another account's token id is answered as none
    const other = await createAccount({ name: 'other' });
    const theirs = await createToken(other.id);
    expect((await call(`/api/service-accounts/${account.id}/tokens/${theirs.id}`, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('disabling and deleting', () => {
  it('disabling stops every token of the service account at once on every replica; enabling brings them back', async () => {
    const account = await createAccount({ name: 'reporter-2', role: 'viewer' });
    const tokens = [await createToken(account.id, { name: 'a' }), await createToken(account.id, { name: 'b' })];
    for (const { token } of tokens) {
      for (const replica of [spec.api, spec.second])
        expect((await withToken(token, '/api/circuit-breakers', { replica })).status).toBe(200);
    }

    const disabled = await call(`/api/service-accounts/${account.id}`, { method: 'PATCH', body: { isActive: false } });
    expect(disabled.status).toBe(200);
    expect(await disabled.json()).toMatchObject({ id: account.id, isActive: false, tokenCount: 2 });
    // this replica at once; the other as soon as userChanged reaches it, not when its cached copy runs out
    for (const { token } of tokens) {
      const refused = await withToken(token, '/api/circuit-breakers');
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual(INVALID);
    }
    for (const { token } of tokens) {
      expect(await eventually(async () => (await withToken(token, '/api/circuit-breakers', { replica: spec.second })).status === 401)).toBe(
        true,
      );
    }

    expect((await call(`/api/service-accounts/${account.id}`, { method: 'PATCH', body: { isActive: true } })).status).toBe(200);
    for (const { token } of tokens) {
      expect(await eventually(async () => (await withToken(token, '/api/circuit-breakers', { replica: spec.second })).status === 200)).toBe(
        true,
      );
      expect((await withToken(token, '/api/circuit-breakers')).status).toBe(200);
    }
    const audit = await spec.api.sql(
      "SELECT before, after FROM audit_entries WHERE action = 'service_account.update' AND target_id = $1 ORDER BY id",
      [account.id],
    );
    expect(audit.map((entry) => [entry.before.isActive, entry.after.isActive])).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it('disabling closes its tokens’ /ws sockets on every replica', async () => {
    const account = await createAccount({ name: 'watcher', role: 'viewer' });
    const { token } = await createToken(account.id);
    const connect = (replica: TestApi) =>
      new Promise<WebSocket>((resolve, reject) => {
        const socket = new WebSocket(`${replica.baseUrl.replace('http', 'ws')}/ws`, { headers: { authorization: `Bearer ${token}` } });
        socket.once('open', () => resolve(socket));
        socket.once('error', reject);
      });
    const closed = (socket: WebSocket) =>
      new Promise<string>((resolve) => socket.once('close', (_code, reason) => resolve(String(reason))));
    const closes = [closed(await connect(spec.api)), closed(await connect(spec.second))];
    expect((await call(`/api/service-accounts/${account.id}`, { method: 'PATCH', body: { isActive: false } })).status).toBe(200);
    expect(await Promise.all(closes)).toEqual(['Signed out', 'Signed out']);
    await expect(connect(spec.second)).rejects.toThrow('Unexpected server response: 401');
  });

  it('changing its role or permissions changes what its tokens may do', async () => {
    const account = await createAccount({ name: 'promoted', role: 'viewer' });
    const { token } = await createToken(account.id);
    expect((await withToken(token, '/api/metrics/latest')).status).toBe(200);
    expect((await withToken(token, '/api/domains')).status).toBe(403);
    const changed = await call(`/api/service-accounts/${account.id}`, { method: 'PATCH', body: { role: 'admin' } });
    expect(await changed.json()).toMatchObject({ role: 'admin', permissions: [...ROLE_DEFAULT_PERMISSIONS.admin] });
    // the token was made with the viewer's permissions: it keeps at most those
    expect((await withToken(token, '/api/domains')).status).toBe(403);
    const narrowed = await call(`/api/service-accounts/${account.id}`, { method: 'PATCH', body: { permissions: ['dashboard_view'] } });
    expect(await narrowed.json()).toMatchObject({ role: 'admin', permissions: ['dashboard_view'] });
    expect((await withToken(token, '/api/circuit-breakers')).status).toBe(403);
    expect((await withToken(token, '/api/dashboard/stats')).status).toBe(200);
  });

  it('deleting it deletes its tokens, refused at once on every replica', async () => {
    const account = await createAccount({ name: 'short-lived' });
    const { token } = await createToken(account.id);
    expect((await withToken(token, '/api/circuit-breakers', { replica: spec.second })).status).toBe(200);
    expect((await call(`/api/service-accounts/${account.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await withToken(token, '/api/circuit-breakers').then((response) => response.json())).toEqual(INVALID);
    expect(await eventually(async () => (await withToken(token, '/api/circuit-breakers', { replica: spec.second })).status === 401)).toBe(
      true,
    );
    expect(await spec.api.sql('SELECT 1 FROM api_tokens WHERE user_id = $1', [account.id])).toEqual([]);
    expect((await call(`/api/service-accounts/${account.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await call(`/api/service-accounts/${account.id}/tokens`)).status).toBe(404);
    const [entry] = await spec.api.sql("SELECT before FROM audit_entries WHERE action = 'service_account.delete' AND target_id = $1", [
      account.id,
    ]);
    expect(entry.before).toMatchObject({ name: 'short-lived' });
  });
});

describe('a service account is no person', () => {
  it('cannot sign in with any password, nor be invited as a person', async () => {
    await createAccount({ name: 'no-login', role: 'admin' });
    for (const password of ['x', 'no-login', TEST_ADMIN.password, DEMO_PASSWORD, '']) {
      const response = await fetch(`${spec.api.baseUrl}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'no-login@service-account.invalid', password }),
      });
      expect(response.status === 400 || response.status === 401).toBe(true);
      expect(response.headers.get('set-cookie')).toBeNull();
    }
    const invited = await call('/api/users/invite', { method: 'POST', body: { email: 'someone@service-account.invalid' } });
    expect(invited.status).toBe(400);
    expect((await invited.json()).message).toBe('email: must not be at service-account.invalid, which names service accounts');
    await expect(spec.api.sql("UPDATE users SET password_hash = 'x' WHERE first_name = 'no-login' AND kind = 'service'")).rejects.toThrow(
      /users_service_without_password/,
    );
  });

  it('is left out of GET /api/users and cannot be changed through the users routes (404)', async () => {
    const account = await createAccount({ name: 'hidden', role: 'super_admin' });
    const users: { id: string; email: string }[] = await (await call('/api/users')).json();
    expect(users.length).toBeGreaterThan(0);
    expect(users.filter((user) => user.id === account.id || user.email.endsWith('@service-account.invalid'))).toEqual([]);
    for (const [method, path, body] of [
      ['PATCH', `/api/users/${account.id}`, { role: 'viewer' }],
      ['PATCH', `/api/users/${account.id}/status`, { isActive: false }],
      ['DELETE', `/api/users/${account.id}`, undefined],
    ] as const) {
      expect((await call(path, { method, body })).status).toBe(404);
    }
  });

  it('refuses every route to an account without user_management (403)', async () => {
    const viewer = await signIn(spec.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
    const [account] = (await (await call('/api/service-accounts')).json()) as ServiceAccountView[];
    const [token] = (await (await call(`/api/service-accounts/${account!.id}/tokens`)).json()) as ApiTokenView[];
    for (const [method, path, body] of [
      ['GET', '/api/service-accounts', undefined],
      ['POST', '/api/service-accounts', { name: 'sneaky' }],
      ['PATCH', `/api/service-accounts/${account!.id}`, { isActive: false }],
      ['DELETE', `/api/service-accounts/${account!.id}`, undefined],
      ['POST', `/api/service-accounts/${account!.id}/tokens`, { name: 'x', expiresInDays: 1 }],
      ['GET', `/api/service-accounts/${account!.id}/tokens`, undefined],
      ['DELETE', `/api/service-accounts/${account!.id}/tokens/${token?.id ?? account!.id}`, undefined],
    ] as const) {
      const response = await spec.api.call(path, { method, body, cookie: viewer });
      expect([`${method} ${path}`, response.status]).toEqual([`${method} ${path}`, 403]);
    }
    expect(await spec.api.sql("SELECT 1 FROM users WHERE first_name = 'sneaky'")).toEqual([]);
  });

  it(`keeps at most ${SERVICE_ACCOUNTS_MAX} service accounts: one more is a 409 naming the limit`, async () => {
    const [{ n }] = await spec.api.sql("SELECT count(*)::int AS n FROM users WHERE kind = 'service'");
    await spec.api.sql(
      `INSERT INTO users (email, role, first_name, permissions, is_active, kind)
       SELECT 'bulk-' || i || '@service-account.invalid', 'viewer', 'bulk-' || i, '{}', true, 'service' FROM generate_series(1, $1) AS i`,
      [SERVICE_ACCOUNTS_MAX - n - 2],
    );
    const answers = await Promise.all(
      ['last-1', 'last-2', 'last-3', 'last-4'].map((name) => call('/api/service-accounts', { method: 'POST', body: { name } })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 409, 409]);
    const over = answers.find((answer) => answer.status === 409)!;
    expect((await over.json()).message).toBe(
      `There are already ${SERVICE_ACCOUNTS_MAX} service accounts, the most there may be; delete one first`,
    );
    expect(await (await call('/api/service-accounts')).json()).toHaveLength(SERVICE_ACCOUNTS_MAX);
  });
});
