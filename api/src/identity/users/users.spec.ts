import { Client } from 'pg';
import { ROLE_DEFAULT_PERMISSIONS } from '@cbh/contracts';
import { linkIn, startSmtpSink } from '../../../test/smtp-sink';
import { DEMO_PASSWORD, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../test/test-api';

let api: TestApi;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let admin: string;

beforeAll(async () => {
  smtp = await startSmtpSink();
  api = await startTestApi({ SMTP_URL: smtp.url, PUBLIC_URL: 'http://hub.example.test' });
  admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(async () => {
  await api.stop();
  await smtp.stop();
});

const call = (path: string, options: { method?: string; body?: unknown; cookie?: string | null } = {}) =>
  api.call(path, { cookie: admin, ...options });
const sql = (query: string, params: unknown[] = []) => api.sql(query, params);
const idOf = async (email: string) => (await sql('SELECT id FROM users WHERE email = $1', [email]))[0].id as string;
/** What the four user-changing endpoints could alter of an account, to see that a refused request altered nothing. */
const stateOf = async (id: string) => (await sql('SELECT role, permissions, is_active FROM users WHERE id = $1', [id]))[0];

/** The demo admin given user_management on top of its role's permissions, signed in: a user manager who is no super_admin. */
async function signInAsUserManager(): Promise<string> {
  await call(`/api/users/${await idOf('admin@demo.example.com')}/permissions`, {
    method: 'PATCH',
    body: { permissions: [...ROLE_DEFAULT_PERMISSIONS.admin, 'user_management'] },
  });
  return signIn(api.baseUrl, 'admin@demo.example.com', DEMO_PASSWORD);
}

/** An account invited by the bootstrap super admin, holding the given permissions; its id. */
async function invited(email: string, role: string, permissions?: string[]): Promise<string> {
  const user = await (await call('/api/users/invite', { method: 'POST', body: { email, role } })).json();
  if (permissions) await call(`/api/users/${user.id}/permissions`, { method: 'PATCH', body: { permissions } });
  return user.id;
}

/** The four ways to change or delete an account, each with a body every user manager may send. */
const CHANGES = (id: string) =>
  [
    ['PATCH', `/api/users/${id}`, { role: 'viewer' }],
    ['PATCH', `/api/users/${id}/status`, { isActive: false }],
    ['PATCH', `/api/users/${id}/permissions`, { permissions: ['dashboard_view'] }],
    ['DELETE', `/api/users/${id}`, undefined],
  ] as const;

describe('invitations', () => {
  it('invites by e-mail through SMTP; the link sets a password once and signs the user in', async () => {
    const invited = await call('/api/users/invite', { method: 'POST', body: { email: 'New.Person@Example.com', role: 'operator' } });
    expect(invited.status).toBe(201);
    const user = await invited.json();
    expect(user).toMatchObject({ email: 'new.person@example.com', role: 'operator', isActive: true, activatedAt: null });
    expect(user.permissions).toEqual([...ROLE_DEFAULT_PERMISSIONS.operator]);

    const mail = smtp.mails.find((m) => m.to.includes('new.person@example.com'))!;
    expect(mail.raw).toContain('Subject: You are invited to Circuit Breaker Hub');
    const link = linkIn(mail, /http:\/\/hub\.example\.test\/api\/invitations\/[\w-]+/);
    const path = new URL(link).pathname;
    // the outbox keeps the message, but not the live token
    const [stored] = await api.sql("SELECT body FROM outbox_emails WHERE to_address = 'new.person@example.com'");
    expect(stored.body).toContain('/api/invitations/[removed from the outbox]');
    expect(stored.body).not.toContain(path.split('/').pop());

    const page = await call(path, { cookie: null });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Set your password');

    const accepted = await call(path, { method: 'POST', cookie: null, body: { password: 'a-strong-new-password', firstName: 'Nia' } });
    expect(accepted.status).toBe(200);
    const session = accepted.headers.get('set-cookie')!.split(';')[0]!;
    expect(await (await call('/api/auth/user', { cookie: session })).json()).toMatchObject({
      email: 'new.person@example.com',
      firstName: 'Nia',
    });
    expect((await sql('SELECT activated_at FROM users WHERE email = $1', ['new.person@example.com']))[0].activated_at).not.toBeNull();
    await signIn(api.baseUrl, 'new.person@example.com', 'a-strong-new-password');

    const reused = await call(path, { method: 'POST', cookie: null, body: { password: 'another-password-123' } });
    expect(reused.status).toBe(410);
    expect((await call(path, { cookie: null })).status).toBe(410);
  });

  it('refuses to invite an e-mail that already has an account, with a clear 409', async () => {
    const response = await call('/api/users/invite', { method: 'POST', body: { email: 'VIEWER@example.com', role: 'viewer' } });
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe('A user with the e-mail viewer@example.com already exists');
  });

  it('expires an invitation after 24 hours', async () => {
    await call('/api/users/invite', { method: 'POST', body: { email: 'late@example.com', role: 'viewer' } });
    const link = linkIn(
      smtp.mails.find((m) => m.to.includes('late@example.com'))!,
      /\/api\/invitations\/[\w-]+/,
    );
    await sql(
      "UPDATE invitations SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM users WHERE email = 'late@example.com')",
    );
    expect((await call(link, { method: 'POST', cookie: null, body: { password: 'too-late-password' } })).status).toBe(410);
  });
});

describe('changing users', () => {
  it('applies the role’s default permissions, or the given ones', async () => {
    const id = await idOf('viewer@example.com');
    const promoted = await call(`/api/users/${id}`, { method: 'PATCH', body: { role: 'admin' } });
    expect(promoted.status).toBe(200);
    expect((await promoted.json()).permissions).toEqual([...ROLE_DEFAULT_PERMISSIONS.admin]);
    const custom = await call(`/api/users/${id}`, {
      method: 'PATCH',
      body: { role: 'viewer', permissions: ['dashboard_view', 'export_data'] },
    });
    expect(await custom.json()).toMatchObject({ role: 'viewer', permissions: ['dashboard_view', 'export_data'] });
  });

  it('accepts only the 14 known permissions, naming the bad one', async () => {
    const id = await idOf('viewer@example.com');
    const response = await call(`/api/users/${id}/permissions`, {
      method: 'PATCH',
      body: { permissions: ['dashboard_view', 'launch_missiles'] },
    });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('permissions.1: is not a known permission');
    const ok = await call(`/api/users/${id}/permissions`, { method: 'PATCH', body: { permissions: ['audit_access'] } });
    expect((await ok.json()).permissions).toEqual(['audit_access']);
  });

  it('lets nobody change their own role or status', async () => {
    const self = await idOf(TEST_ADMIN.email);
    for (const [path, body] of [
      [`/api/users/${self}`, { role: 'viewer' }],
      [`/api/users/${self}/status`, { isActive: false }],
    ] as const) {
      const response = await call(path, { method: 'PATCH', body });
      expect(response.status).toBe(403);
      expect((await response.json()).message).toBe('You cannot change your own account');
    }
  });

  it('lets only a super_admin change or delete a super_admin', async () => {
    const manager = await signInAsUserManager();
    const root = await idOf(TEST_ADMIN.email);
    const second = await invited('second.root@example.com', 'super_admin');
    for (const target of [root, second]) {
      const before = await stateOf(target);
      for (const [method, path, body] of CHANGES(target)) {
        const response = await call(path, { method, body, cookie: manager });
        expect(response.status).toBe(403);
        expect((await response.json()).message).toBe('Only a super_admin can change or delete a super_admin');
      }
      expect(await stateOf(target)).toEqual(before);
    }

    const demoted = await call(`/api/users/${second}`, { method: 'PATCH', body: { role: 'viewer' } });
    expect(demoted.status).toBe(200);
    expect(await stateOf(second)).toMatchObject({ role: 'viewer', permissions: [...ROLE_DEFAULT_PERMISSIONS.viewer] });
  });

  it('lets a user manager change only accounts holding no permission the manager lacks', async () => {
    const manager = await signInAsUserManager();
    const auditor = await invited('auditor@example.com', 'viewer', ['dashboard_view', 'audit_access', 'system_admin']);
    const before = await stateOf(auditor);
    for (const [method, path, body] of CHANGES(auditor)) {
      const response = await call(path, { method, body, cookie: manager });
      expect(response.status).toBe(403);
      expect((await response.json()).message).toBe(
        'You cannot change or delete an account holding system_admin, audit_access, which you do not hold',
      );
    }
    expect(await stateOf(auditor)).toEqual(before);

    const within = await invited('within.reach@example.com', 'operator');
    const changed = await call(`/api/users/${within}/permissions`, {
      method: 'PATCH',
      cookie: manager,
      body: { permissions: ['dashboard_view'] },
    });
    expect(changed.status).toBe(200);
    expect((await call(`/api/users/${within}`, { method: 'DELETE', cookie: manager })).status).toBe(204);

    expect((await call(`/api/users/${auditor}/status`, { method: 'PATCH', body: { isActive: false } })).status).toBe(200);
    expect((await call(`/api/users/${auditor}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('keeps the last active super_admin when the other one is deactivated at the same moment', async () => {
    const root = await idOf(TEST_ADMIN.email);
    const second = await invited('last.standing@example.com', 'super_admin');
    for (const [method, path, body, verb] of [
      ['PATCH', `/api/users/${second}`, { role: 'viewer' }, 'demoted'],
      ['PATCH', `/api/users/${second}/status`, { isActive: false }, 'deactivated'],
      ['DELETE', `/api/users/${second}`, undefined, 'deleted'],
    ] as const) {
      // another transaction deactivates the bootstrap super admin and commits while the request waits for its row
      const other = new Client({ connectionString: api.databaseUrl });
      await other.connect();
      try {
        await other.query('BEGIN');
        await other.query('UPDATE users SET is_active = false WHERE id = $1', [root]);
        const pending = call(path, { method, body });
        await untilSomeoneWaitsFor((await other.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
        await other.query('COMMIT');
        const response = await pending;
        expect(response.status).toBe(409);
        expect((await response.json()).message).toBe(`The last active super_admin cannot be ${verb}`);
      } finally {
        await other.end();
        await sql('UPDATE users SET is_active = true WHERE id = $1', [root]);
      }
      expect(await stateOf(second)).toMatchObject({ role: 'super_admin', is_active: true });
    }
  });

  it('deactivation ends the user’s sessions at once and revokes pending invitations; reactivation keeps activatedAt', async () => {
    const operator = await signIn(api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
    expect((await call('/api/auth/user', { cookie: operator })).status).toBe(200);
    const id = await idOf('operator@example.com');
    const activatedAt = (await sql('SELECT activated_at FROM users WHERE id = $1', [id]))[0].activated_at;

    const off = await call(`/api/users/${id}/status`, { method: 'PATCH', body: { isActive: false } });
    expect(await off.json()).toMatchObject({ isActive: false });
    expect((await call('/api/auth/user', { cookie: operator })).status).toBe(401);
    expect((await sql('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [id]))[0].n).toBe(0);
    expect(
      (await call('/api/login', { method: 'POST', cookie: null, body: { email: 'operator@example.com', password: DEMO_PASSWORD } })).status,
    ).toBe(401);

    const on = await call(`/api/users/${id}/status`, { method: 'PATCH', body: { isActive: true } });
    expect(new Date((await on.json()).activatedAt)).toEqual(activatedAt);

    await call('/api/users/invite', { method: 'POST', body: { email: 'pending@example.com', role: 'viewer' } });
    const pending = await idOf('pending@example.com');
    await call(`/api/users/${pending}/status`, { method: 'PATCH', body: { isActive: false } });
    expect((await sql('SELECT revoked_at FROM invitations WHERE user_id = $1', [pending]))[0].revoked_at).not.toBeNull();
  });

  it('deletes a user: 204, then 404; a malformed id is a 400 naming it', async () => {
    await call('/api/users/invite', { method: 'POST', body: { email: 'gone@example.com', role: 'viewer' } });
    const id = await idOf('gone@example.com');
    expect((await call(`/api/users/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(`/api/users/${id}`, { method: 'DELETE' })).status).toBe(404);
    const bad = await call('/api/users/not-a-uuid', { method: 'DELETE' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe('id: must be a user id');
  });

  it('stops a user manager from granting what they do not hold', async () => {
    const manager = await signInAsUserManager();
    const id = await idOf('viewer@example.com');
    const response = await call(`/api/users/${id}/permissions`, {
      method: 'PATCH',
      cookie: manager,
      body: { permissions: ['system_admin'] },
    });
    expect(response.status).toBe(403);
    const promote = await call(`/api/users/${id}`, { method: 'PATCH', cookie: manager, body: { role: 'super_admin' } });
    expect(promote.status).toBe(403);
  });
});

describe('audit trail', () => {
  it('records every change with actor, target, before/after and request id, readable with audit_access', async () => {
    const response = await call('/api/audit?action=user.role.update&pageSize=5');
    expect(response.status).toBe(200);
    const { entries, total } = await response.json();
    expect(total).toBeGreaterThanOrEqual(2);
    expect(entries[0]).toMatchObject({
      action: 'user.role.update',
      actorEmail: TEST_ADMIN.email,
      targetType: 'user',
      requestId: expect.any(String),
    });
    expect(entries[0].before.role).not.toBe(entries[0].after.role);

    const actions = (await (await call(`/api/audit?actor=${encodeURIComponent(TEST_ADMIN.email)}&pageSize=200`)).json()).entries.map(
      (e: { action: string }) => e.action,
    );
    for (const action of ['user.invite', 'user.permissions.update', 'user.deactivate', 'user.activate', 'user.delete', 'auth.sign-in']) {
      expect(actions).toContain(action);
    }
    expect((await call('/api/audit?from=yesterday')).status).toBe(400);
  });
});

describe('validation messages', () => {
  it('tells a missing field from a field of the wrong type', async () => {
    const id = await idOf('viewer@example.com');
    const missing = await call(`/api/users/${id}/status`, { method: 'PATCH', body: {} });
    expect((await missing.json()).message).toBe('isActive: is required');
    const wrong = await call(`/api/users/${id}/status`, { method: 'PATCH', body: { isActive: 'yes' } });
    expect((await wrong.json()).message).toBe('isActive: must be true or false');
  });
});

describe('user ids in upper case', () => {
  it('are one’s own account all the same: refused as a change to oneself', async () => {
    const self = await idOf(TEST_ADMIN.email);
    const before = await stateOf(self);
    for (const [method, path, body] of CHANGES(self.toUpperCase())) {
      const response = await call(path, { method, body });
      expect(response.status).toBe(403);
      expect((await response.json()).message).toBe(`You cannot ${method === 'DELETE' ? 'delete' : 'change'} your own account`);
    }
    expect(await stateOf(self)).toEqual(before);
  });

  it('reach another account as its lower-case id would: the audit names that id, and its session sees the change at once', async () => {
    const id = await idOf('operator@example.com');
    const operator = await signIn(api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
    expect((await (await call('/api/auth/user', { cookie: operator })).json()).permissions).toContain('circuit_breaker_operate');

    const changed = await call(`/api/users/${id.toUpperCase()}/permissions`, {
      method: 'PATCH',
      body: { permissions: ['dashboard_view'] },
    });
    expect(changed.status).toBe(200);
    expect((await changed.json()).id).toBe(id);
    const { entries } = await (await call('/api/audit?action=user.permissions.update&pageSize=1')).json();
    expect(entries[0]).toMatchObject({ targetId: id, after: { permissions: ['dashboard_view'] } });
    expect((await (await call('/api/auth/user', { cookie: operator })).json()).permissions).toEqual(['dashboard_view']);
  });
});

/** Resolves once a database session waits for a lock the given backend holds: the API's request has reached it. */
async function untilSomeoneWaitsFor(blocker: number) {
  while ((await sql('SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [blocker])).length === 0) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}
