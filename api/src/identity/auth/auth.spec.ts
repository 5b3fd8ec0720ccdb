import { DEMO_PASSWORD, eventually, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../test/test-api';
import { AuthHousekeeping } from './auth-housekeeping.service';

let api: TestApi;
/** Replicas of one site share the session secret, as they would behind one gateway. */
const SESSION_SECRET = 'a-session-secret-the-two-replicas-of-this-file-share';
beforeAll(async () => {
  api = await startTestApi({ SESSION_SECRET });
});
afterAll(async () => {
  await api.stop();
});
// Each test starts as on a fresh site: no failed sign-in counted, no address known to an account.
beforeEach(async () => {
  await api.sql('DELETE FROM sign_in_attempts');
  await api.sql('DELETE FROM sign_in_known_addresses');
});

const call = (path: string, init: RequestInit & { cookie?: string } = {}) =>
  fetch(`${api.baseUrl}${path}`, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers ?? {}), ...(init.cookie ? { cookie: init.cookie } : {}) },
  });
const postJson = (path: string, body: unknown, cookie?: string) =>
  call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), cookie });
/** A sign-in from a client the gateway names (the test runs on loopback, which TRUST_PROXY trusts by default). */
const signInFrom = (address: string, email: string, password: string) =>
  call('/api/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ email, password }),
  });
const attemptRows = async (): Promise<number> => (await sql('SELECT count(*)::int AS rows FROM sign_in_attempts'))[0].rows;

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
    const out = await call('/api/logout', { method: 'POST', cookie });
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

  it('limits a client to ten failures per e-mail in 15 minutes, with a clear 429', async () => {
    // from an address the account signed in from, the client's own limits decide (the per-account one spares it)
    await signIn(api.baseUrl, 'admin@demo.example.com', DEMO_PASSWORD);
    const body = { email: 'admin@demo.example.com', password: 'guess' };
    for (let attempt = 0; attempt < 10; attempt++) expect((await postJson('/api/login', body)).status).toBe(401);
    const limited = await postJson('/api/login', { ...body, password: DEMO_PASSWORD });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.json()).message).toMatch(/^Too many sign-in attempts\. Try again in \d+ minute\(s\)\.$/);
  });

  it('holds an e-mail back after five failures from any addresses, doubling the wait, but not where it signed in before', async () => {
    const email = 'viewer@example.com';
    expect((await signInFrom('192.0.2.10', email, DEMO_PASSWORD)).status).toBe(200);
    for (let i = 1; i <= 5; i++) expect((await signInFrom(`203.0.113.${i}`, email, 'guess')).status).toBe(401);
    const held = await signInFrom('203.0.113.6', email, DEMO_PASSWORD);
    expect(held.status).toBe(429);
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(held.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await held.json()).message).toBe('Too many sign-in attempts. Try again in 1 minute(s).');
    // the owner, at an address the account signed in from, is not kept out by failures elsewhere
    expect((await signInFrom('192.0.2.10', email, DEMO_PASSWORD)).status).toBe(200);

    // a minute later (as the database's clock counts) one more try is judged, and its failure doubles the wait
    await sql("UPDATE sign_in_attempts SET at = at - interval '61 seconds'");
    expect((await signInFrom('203.0.113.7', email, 'guess')).status).toBe(401);
    const doubled = await signInFrom('203.0.113.8', email, DEMO_PASSWORD);
    expect(doubled.status).toBe(429);
    expect(Number(doubled.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(Number(doubled.headers.get('retry-after'))).toBeLessThanOrEqual(120);
  });

  it('writes nothing for a refused attempt', async () => {
    const email = 'nobody-at-all@example.com';
    for (let i = 1; i <= 5; i++) expect((await signInFrom(`198.51.100.${i}`, email, 'guess')).status).toBe(401);
    const rows = await attemptRows();
    for (let i = 6; i <= 8; i++) expect((await signInFrom(`198.51.100.${i}`, email, 'guess')).status).toBe(429);
    expect(await attemptRows()).toBe(rows);
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped address as the IPv4 address', async () => {
    // from an address the account signed in from, the client's limit of ten failures per e-mail decides
    const email = 'operator@example.com';
    expect((await signInFrom('2001:db8:1:2::1', email, DEMO_PASSWORD)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await signInFrom('2001:db8:1:2::a', email, 'guess')).status).toBe(401);
    expect((await signInFrom('2001:db8:1:2:ffff:ffff:ffff:ffff', email, DEMO_PASSWORD)).status).toBe(429);
    expect((await signInFrom('2001:db8:1:3::a', email, DEMO_PASSWORD)).status).toBe(200);

    expect((await signInFrom('198.18.0.1', email, DEMO_PASSWORD)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await signInFrom('::ffff:198.18.0.1', email, 'guess')).status).toBe(401);
    expect((await signInFrom('198.18.0.1', email, DEMO_PASSWORD)).status).toBe(429);
  });

  it('prunes expired sessions, attempts older than every window and addresses unused for a month', async () => {
    const cookie = await signIn(api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
    const signed = decodeURIComponent(cookie.slice('cbh.sid='.length));
    const sid = signed.slice('s:'.length, signed.lastIndexOf('.'));
    await sql("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE sid = $1", [sid]);
    const [{ last }] = await sql('SELECT coalesce(max(id), 0) AS last FROM sign_in_attempts');
    expect((await signInFrom('192.0.2.50', 'pruned@example.com', 'guess')).status).toBe(401);
    await sql("UPDATE sign_in_attempts SET at = at - interval '61 minutes' WHERE id > $1", [last]);
    // and every address an account signed in from was last used a month ago
    await sql("UPDATE sign_in_known_addresses SET signed_in_at = now() - interval '31 days'");
    expect((await signInFrom('192.0.2.50', 'pruned@example.com', 'guess')).status).toBe(401);
    const [{ fresh }] = await sql("SELECT max(id) AS fresh FROM sign_in_attempts WHERE at > now() - interval '1 minute'");

    await api.app.get(AuthHousekeeping).prune();
    expect(await sql('SELECT sid FROM sessions WHERE sid = $1', [sid])).toEqual([]);
    const left = await sql('SELECT id FROM sign_in_attempts WHERE id > $1', [last]);
    // the old attempt's rows are gone; the fresh one's (address and e-mail, address, e-mail) stay
    expect(left).toHaveLength(3);
    expect(left.map((row) => row.id)).toContain(fresh);
    expect(await sql('SELECT key_hash FROM sign_in_known_addresses')).toEqual([]);
  });

  it('records sign-ins and an account’s failed sign-ins in the audit trail, but no guess at an e-mail no account has', async () => {
    const before = (await sql("SELECT count(*)::int AS n FROM audit_entries WHERE action = 'auth.sign-in-failed'"))[0].n;
    const fail = (email: string) => postJson('/api/login', { email, password: 'not-the-password' });
    expect((await fail('nobody-here@example.com')).status).toBe(401);
    expect((await sql("SELECT count(*)::int AS n FROM audit_entries WHERE action = 'auth.sign-in-failed'"))[0].n).toBe(before);
    expect((await fail('viewer@example.com')).status).toBe(401);
    const [failed] = await sql("SELECT target_id, after FROM audit_entries WHERE action = 'auth.sign-in-failed' ORDER BY id DESC LIMIT 1");
    const [viewer] = await sql("SELECT id FROM users WHERE email = 'viewer@example.com'");
    expect(failed).toEqual({ target_id: viewer.id, after: { email: 'viewer@example.com' } });
    const rows = await sql("SELECT action, actor_email, request_id FROM audit_entries WHERE action LIKE 'auth.%' ORDER BY id");
    expect(rows.some((r) => r.action === 'auth.sign-in' && r.actor_email === TEST_ADMIN.email && r.request_id)).toBe(true);
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

  it('counts failed sign-ins across replicas: ten in all, wherever they were tried', async () => {
    // from an address the account signed in from, the client's own limit of ten failures per e-mail decides
    await signIn(second.baseUrl, 'operator@example.com', DEMO_PASSWORD);
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

  it('counts a burst of parallel attempts from many addresses before judging them: no more than five get through', async () => {
    const body = JSON.stringify({ email: 'parallel@example.com', password: 'guess' });
    const attempt = (replica: TestApi, address: string) =>
      fetch(`${replica.baseUrl}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body,
      });
    const statuses = await Promise.all(
      Array.from({ length: 14 }, (_, i) => attempt(i % 2 ? api : second, `192.0.2.${100 + i}`).then((r) => r.status)),
    );
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(9);
  });

  it('keeps twenty sessions per account: the 21st sign-in ends the oldest, on every replica at once', async () => {
    const email = 'viewer@example.com';
    const oldest = await signIn(api.baseUrl, email, DEMO_PASSWORD);
    // the other replica has read (and cached) it
    expect((await on(second, '/api/auth/user', oldest)).status).toBe(200);
    const newer: string[] = [];
    for (let i = 0; i < 20; i++) newer.push(await signIn(api.baseUrl, email, DEMO_PASSWORD));
    expect(await eventually(async () => (await on(second, '/api/auth/user', oldest)).status === 401)).toBe(true);
    expect((await on(api, '/api/auth/user', oldest)).status).toBe(401);
    for (const cookie of [newer[0]!, newer[19]!]) expect((await on(second, '/api/auth/user', cookie)).status).toBe(200);
    const [{ sessions }] = await sql(
      'SELECT count(*)::int AS sessions FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = $1)',
      [email],
    );
    expect(sessions).toBe(20);
  });

  it('ends a signed-out session on every replica at once, with no window left by a cache', async () => {
    const cookie = await signIn(api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
    // the other replica has read (and cached) the session
    expect((await on(second, '/api/auth/user', cookie)).status).toBe(200);
    const signedOut = await fetch(`${api.baseUrl}/api/logout`, { method: 'POST', headers: { cookie }, redirect: 'manual' });
    expect(signedOut.status).toBe(303);
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
