import { DEMO_PASSWORD, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../test/test-api';

let api: TestApi;
/** Replicas of one site share the session secret, as they would behind one gateway. */
const SESSION_SECRET = 'a-session-secret-the-two-replicas-of-this-file-share';
beforeAll(async () => {
  api = await startTestApi({ SESSION_SECRET });
});
afterAll(async () => {
  await api.stop();
});

const call = (path: string, init: RequestInit & { cookie?: string } = {}) =>
  fetch(`${api.baseUrl}${path}`, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers ?? {}), ...(init.cookie ? { cookie: init.cookie } : {}) },
  });
const postJson = (path: string, body: unknown, cookie?: string) =>
  call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), cookie });

const sql = (query: string, params: unknown[] = []) => api.sql(query, params);

describe('sign-in', () => {
  it('serves a sign-in page at GET /api/login', async () => {
    const response = await call('/api/login');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<form method="post" action="/api/login">');
    expect(html).toContain('name="password" type="password"');
  });

  it('signs in with JSON, returns the account, and sets an HttpOnly SameSite=Lax session cookie', async () => {
    const response = await postJson('/api/login', { email: TEST_ADMIN.email, password: TEST_ADMIN.password });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ email: TEST_ADMIN.email, role: 'super_admin', canElevate: false, firstName: 'Admin' });
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^cbh\.sid=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);

    const me = await call('/api/auth/user', { cookie: cookie.split(';')[0] });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: TEST_ADMIN.email, permissions: expect.arrayContaining(['user_management']) });
    expect((await sql('SELECT last_login_at FROM users WHERE email = $1', [TEST_ADMIN.email]))[0].last_login_at).not.toBeNull();
  });

  it('signs in with a form post and redirects to /, or back to the form with the reason', async () => {
    const form = (password: string) =>
      call('/api/login', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: 'viewer@example.com', password }).toString(),
      });
    const ok = await form(DEMO_PASSWORD);
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/');
    const bad = await form('wrong password');
    expect(bad.status).toBe(303);
    expect(bad.headers.get('location')).toBe(`/api/login?error=${encodeURIComponent('Invalid e-mail or password')}`);
  });

  it('refuses a wrong password or an unknown e-mail with the same 401', async () => {
    for (const body of [
      { email: TEST_ADMIN.email, password: 'nope' },
      { email: 'nobody@example.com', password: 'nope' },
    ]) {
      const response = await postJson('/api/login', body);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Invalid e-mail or password' });
    }
  });

  it('names the bad field of a malformed sign-in', async () => {
    const response = await postJson('/api/login', { email: 'not-an-email', password: '' });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toMatch(/email: must be an e-mail address; password: is required/);
  });

  it('issues a new session id at sign-in, so a planted one is worthless', async () => {
    const planted = 'cbh.sid=s%3Aplanted-session-id.signature';
    const response = await call('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: TEST_ADMIN.email, password: TEST_ADMIN.password }),
      cookie: planted,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')!.split(';')[0]).not.toBe(planted);
    expect((await call('/api/auth/user', { cookie: planted })).status).toBe(401);
  });

  it('ends the session on logout', async () => {
    const cookie = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
    const out = await call('/api/logout', { cookie });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/');
    expect((await call('/api/auth/user', { cookie })).status).toBe(401);
  });

  it('answers hot authenticated reads from memory, without a database read for the session', async () => {
    const cookie = await signIn(api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
    expect((await call('/api/auth/user', { cookie })).status).toBe(200);
    // Change both rows behind the API's back: the next read must not see it, because it reads neither.
    await sql("UPDATE users SET first_name = 'Changed behind the cache' WHERE email = 'operator@example.com'");
    await sql(
      "UPDATE sessions SET data = jsonb_set(data, '{passport,user}', '\"00000000-0000-0000-0000-000000000000\"') WHERE data->'passport'->>'user' = (SELECT id::text FROM users WHERE email = 'operator@example.com')",
    );
    const me = await call('/api/auth/user', { cookie });
    expect(me.status).toBe(200);
    expect((await me.json()).firstName).toBe('Omar');
  });

  it('limits sign-in attempts with a clear 429', async () => {
    const body = { email: 'admin@demo.example.com', password: 'guess' };
    for (let attempt = 0; attempt < 10; attempt++) expect((await postJson('/api/login', body)).status).toBe(401);
    const limited = await postJson('/api/login', { ...body, password: DEMO_PASSWORD });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.json()).message).toMatch(/^Too many sign-in attempts\. Try again in \d+ minute\(s\)\.$/);
  });

  it('records sign-ins and failed sign-ins in the audit trail', async () => {
    const rows = await sql("SELECT action, actor_email, request_id FROM audit_entries WHERE action LIKE 'auth.%' ORDER BY id");
    expect(rows.some((r) => r.action === 'auth.sign-in' && r.actor_email === TEST_ADMIN.email && r.request_id)).toBe(true);
    expect(rows.some((r) => r.action === 'auth.sign-in-failed')).toBe(true);
  });
});

describe('who may elevate', () => {
  it('tells only the elevation account, while it is not super_admin, that it may elevate', async () => {
    const cookie = await signIn(api.baseUrl, 'elevate@example.com', DEMO_PASSWORD);
    expect(await (await call('/api/auth/user', { cookie })).json()).toMatchObject({ canElevate: true, role: 'admin' });
    const viewer = await signIn(api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
    expect(await (await call('/api/auth/user', { cookie: viewer })).json()).toMatchObject({ canElevate: false });
  });
});

describe('two replicas on one database', () => {
  let second: TestApi;
  beforeAll(async () => {
    second = await startTestApi({ DATABASE_URL: api.databaseUrl, SESSION_SECRET });
  });
  afterAll(async () => {
    await second.stop();
  });
  const on = (replica: TestApi, path: string, cookie: string) =>
    fetch(`${replica.baseUrl}${path}`, { headers: { cookie }, redirect: 'manual' });
  const eventually = async (check: () => Promise<boolean>, ms = 2000) => {
    const deadline = Date.now() + ms;
    while (!(await check()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return check();
  };

  it('counts failed sign-ins across replicas: ten in all, wherever they were tried', async () => {
    const body = JSON.stringify({ email: 'operator@example.com', password: 'guess' });
    const attempt = (replica: TestApi) =>
      fetch(`${replica.baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    for (let i = 0; i < 5; i++) expect((await attempt(api)).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await attempt(second)).status).toBe(401);
    expect((await attempt(api)).status).toBe(429);
    expect((await attempt(second)).status).toBe(429);
    // kept hashed: neither the address nor the e-mail is in the table
    const keys = await sql('SELECT key_hash FROM sign_in_attempts');
    expect(keys.every((row) => /^[0-9a-f]{64}$/.test(row.key_hash))).toBe(true);
  });

  it('counts a burst of parallel attempts before judging them: no more than ten get through', async () => {
    const body = JSON.stringify({ email: 'parallel@example.com', password: 'guess' });
    const attempt = (replica: TestApi) =>
      fetch(`${replica.baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const statuses = await Promise.all(Array.from({ length: 14 }, (_, i) => attempt(i % 2 ? api : second).then((r) => r.status)));
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(4);
  });

  it('ends a signed-out session on every replica at once, with no window left by a cache', async () => {
    const cookie = await signIn(api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
    // the other replica has read (and cached) the session
    expect((await on(second, '/api/auth/user', cookie)).status).toBe(200);
    expect((await on(api, '/api/logout', cookie)).status).toBe(303);
    expect(await eventually(async () => (await on(second, '/api/auth/user', cookie)).status === 401)).toBe(true);
  });

  it('refuses a deactivated account on every replica at once', async () => {
    const cookie = await signIn(api.baseUrl, 'elevate@example.com', DEMO_PASSWORD);
    const admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
    const [{ id }] = await sql("SELECT id FROM users WHERE email = 'elevate@example.com'");
    expect((await on(second, '/api/auth/user', cookie)).status).toBe(200);
    const deactivated = await fetch(`${api.baseUrl}/api/users/${id}/status`, {
      method: 'PATCH',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ isActive: false }),
    });
    expect(deactivated.status).toBe(200);
    expect(await eventually(async () => (await on(second, '/api/auth/user', cookie)).status === 401)).toBe(true);
    expect((await on(api, '/api/auth/user', cookie)).status).toBe(401);
  });
});
