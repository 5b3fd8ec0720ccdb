import WebSocket from 'ws';
import type { CreatedApiTokenView, EndedSessionsView, SessionView } from '@cbh/contracts';
import { DEMO_PASSWORD, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../test/test-api';
import { sessionKey } from '../auth/session-key';
import { PgSessionStore } from '../auth/session-store';

const FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const VIEWER = 'viewer@example.com';
const OPERATOR = 'operator@example.com';

let api: TestApi;
let root: string;
beforeAll(async () => {
  api = await startTestApi();
  root = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(async () => {
  await api.stop();
});

/** Signs in through POST /api/login with a browser's user agent; the session cookie. */
async function signInWith(userAgent: string, email = VIEWER, password = DEMO_PASSWORD): Promise<string> {
  const response = await fetch(`${api.baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status).toBe(200);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

const sidOf = (cookie: string) =>
  decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1))
    .slice(2)
    .split('.')[0]!;

async function sessionsOf(cookie: string): Promise<SessionView[]> {
  const response = await api.call('/api/sessions', { cookie });
  expect(response.status).toBe(200);
  return response.json();
}

const signedIn = async (cookie: string) => (await api.call('/api/auth/user', { cookie })).status === 200;

/** A socket on /ws signed in with a session cookie, or with the headers given (a bearer token). */
const connect = (credential: string | Record<string, string>) =>
  new Promise<WebSocket>((resolve, reject) => {
    const headers = typeof credential === 'string' ? { cookie: credential } : credential;
    const socket = new WebSocket(`${api.baseUrl.replace('http', 'ws')}/ws`, { headers });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
const closed = (socket: WebSocket) => new Promise<string>((resolve) => socket.once('close', (_code, reason) => resolve(String(reason))));

const idOf = async (email: string): Promise<string> => (await api.sql('SELECT id FROM users WHERE email = $1', [email]))[0].id;

/** Lets the account make access tokens (viewers cannot by default). */
async function grantApiAccess(email: string) {
  const body = { permissions: ['dashboard_view', 'circuit_breaker_view', 'api_access'] };
  expect((await api.call(`/api/users/${await idOf(email)}/permissions`, { method: 'PATCH', cookie: root, body })).status).toBe(200);
}

/** A new access token of the session's account; its secret. */
async function createToken(cookie: string): Promise<string> {
  const response = await api.call('/api/tokens', { method: 'POST', cookie, body: { name: 'script', expiresInDays: 30 } });
  expect(response.status).toBe(201);
  return ((await response.json()) as CreatedApiTokenView).token;
}

const tokenWorks = async (token: string) =>
  (await fetch(`${api.baseUrl}/api/auth/user`, { headers: { authorization: `Bearer ${token}` } })).status === 200;

/** Ends every session of the account behind the API's back, so each test starts from the sessions it makes. */
const clearSessionsOf = (email: string) => api.sql('DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = $1)', [email]);

describe('listing one’s sessions', () => {
  beforeEach(() => clearSessionsOf(VIEWER));

  it('lists the caller’s live sessions newest first, with browser, system and address, the current one marked', async () => {
    const older = await signInWith(FIREFOX);
    const newer = await signInWith(CHROME);
    await signInWith(FIREFOX, OPERATOR);
    const listed = await sessionsOf(older);
    expect(listed.map(({ browser, os, current, address }) => ({ browser, os, current, address }))).toEqual([
      { browser: 'Chrome 131', os: 'Windows', current: false, address: '127.0.0.1' },
      { browser: 'Firefox 133', os: 'macOS', current: true, address: '127.0.0.1' },
    ]);
    // named by a hash of the session id, never by the id the cookie carries
    expect(listed.map((session) => session.id)).toEqual([sessionKey(sidOf(newer)), sessionKey(sidOf(older))]);
    expect(JSON.stringify(listed)).not.toContain(sidOf(older));
    const [first] = listed;
    expect(Date.parse(first!.expiresAt)).toBeGreaterThan(Date.parse(first!.signedInAt));
    expect(Math.abs(Date.parse(first!.lastSeenAt) - Date.now())).toBeLessThan(60_000);
    expect((await sessionsOf(newer)).map((session) => session.current)).toEqual([true, false]);
  });

  it('writes when a session was last seen at most once a minute, not per request', async () => {
    const cookie = await signInWith(FIREFOX);
    const store = api.app.get(PgSessionStore);
    const lastSeen = async () =>
      Date.parse((await api.sql('SELECT last_seen_at FROM sessions WHERE sid = $1', [sidOf(cookie)]))[0].last_seen_at);
    await api.sql(`UPDATE sessions SET last_seen_at = now() - interval '2 minutes' WHERE sid = $1`, [sidOf(cookie)]);
    const before = await lastSeen();
    expect(await signedIn(cookie)).toBe(true);
    expect(await lastSeen()).toBe(before); // the request wrote nothing
    await store.flushSeen();
    const written = await lastSeen();
    expect(Date.now() - written).toBeLessThan(10_000);
    expect(await signedIn(cookie)).toBe(true);
    await store.flushSeen();
    expect(await lastSeen()).toBe(written); // seen again within the minute: not written again
  });
});

describe('ending sessions', () => {
  beforeEach(() => clearSessionsOf(VIEWER));

  it('ends another of one’s sessions: its socket closes, its cookie is signed out and it is no longer listed', async () => {
    const here = await signInWith(FIREFOX);
    const there = await signInWith(CHROME);
    const socket = await connect(there);
    const reason = closed(socket);
    const response = await api.call(`/api/sessions/${sessionKey(sidOf(there))}`, { method: 'DELETE', cookie: here });
    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await reason).toBe('Signed out');
    expect((await api.call('/api/auth/user', { cookie: there })).status).toBe(401);
    expect(await signedIn(here)).toBe(true);
    expect((await sessionsOf(here)).map((session) => session.id)).toEqual([sessionKey(sidOf(here))]);
    const [entry] = await api.sql("SELECT actor_email, after FROM audit_entries WHERE action = 'session.end' ORDER BY id DESC LIMIT 1");
    expect(entry).toEqual({ actor_email: VIEWER, after: { session: sessionKey(sidOf(there)), current: false } });
  });

  it('signs the current session out when it is the one ended', async () => {
    const cookie = await signInWith(FIREFOX);
    const response = await api.call(`/api/sessions/${sessionKey(sidOf(cookie))}`, { method: 'DELETE', cookie });
    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toMatch(/^cbh\.sid=;.*Expires=Thu, 01 Jan 1970/);
    expect(await signedIn(cookie)).toBe(false);
    expect(await api.sql('SELECT sid FROM sessions WHERE sid = $1', [sidOf(cookie)])).toEqual([]);
  });

  it('answers 404 for someone else’s session or an unknown one, and 400 for what is not a session id', async () => {
    const mine = await signInWith(FIREFOX);
    const theirs = await signInWith(FIREFOX, OPERATOR);
    for (const id of [sessionKey(sidOf(theirs)), sessionKey('no-such-session')]) {
      const response = await api.call(`/api/sessions/${id}`, { method: 'DELETE', cookie: mine });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'No such session' });
    }
    // the session's own id is not how it is named
    expect((await api.call(`/api/sessions/${sidOf(theirs)}`, { method: 'DELETE', cookie: mine })).status).toBe(400);
    expect(await signedIn(theirs)).toBe(true);
  });

  it('signs out everywhere else, keeping the current session', async () => {
    const here = await signInWith(FIREFOX);
    const others = [await signInWith(CHROME), await signInWith(CHROME)];
    const operator = await signInWith(FIREFOX, OPERATOR);
    const socket = await connect(others[0]!);
    const reason = closed(socket);
    const response = await api.call('/api/sessions/others', { method: 'DELETE', cookie: here });
    expect(response.status).toBe(200);
    expect((await response.json()) as EndedSessionsView).toEqual({ ended: 2, revokedTokens: 0 });
    expect(await reason).toBe('Signed out');
    expect(await Promise.all([here, ...others, operator].map(signedIn))).toEqual([true, false, false, true]);
    expect((await sessionsOf(here)).length).toBe(1);
  });

  it("revokes the caller's access tokens too, closing their sockets, and leaves other accounts' alone", async () => {
    await grantApiAccess(VIEWER);
    const here = await signInWith(FIREFOX);
    const stolen = await signInWith(CHROME);
    const tokens = [await createToken(here), await createToken(stolen)];
    const socket = await connect({ authorization: `Bearer ${tokens[1]}` });
    const reason = closed(socket);
    const rootToken = await createToken(root);
    const response = await api.call('/api/sessions/others', { method: 'DELETE', cookie: here });
    expect((await response.json()) as EndedSessionsView).toEqual({ ended: 1, revokedTokens: 2 });
    expect(await reason).toBe('Token revoked');
    expect(await Promise.all(tokens.map(tokenWorks))).toEqual([false, false]);
    expect(await tokenWorks(rootToken)).toBe(true);
    expect(await signedIn(here)).toBe(true);
    const [entry] = await api.sql("SELECT after FROM audit_entries WHERE action = 'session.end-others' ORDER BY id DESC LIMIT 1");
    expect(entry.after).toEqual({ ended: 1, revokedTokens: 2 });
  });
});

describe("ending another account's sessions", () => {
  it('lets a user manager sign an account out everywhere, audited', async () => {
    await clearSessionsOf(VIEWER);
    const cookies = [await signInWith(FIREFOX), await signInWith(CHROME)];
    const socket = await connect(cookies[0]!);
    const reason = closed(socket);
    const id = await idOf(VIEWER);
    const response = await api.call(`/api/users/${id}/sessions`, { method: 'DELETE', cookie: root });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ended: 2, revokedTokens: 0 });
    expect(await reason).toBe('Signed out');
    expect(await Promise.all(cookies.map(signedIn))).toEqual([false, false]);
    const [entry] = await api.sql("SELECT actor_email, target_id, after FROM audit_entries WHERE action = 'user.sessions.end'");
    expect(entry).toEqual({ actor_email: TEST_ADMIN.email, target_id: id, after: { ended: 2, revokedTokens: 0 } });
  });

  it("revokes the account's access tokens too, closing their sockets: a token made from a stolen session goes with it", async () => {
    await clearSessionsOf(VIEWER);
    await grantApiAccess(VIEWER);
    const stolen = await signInWith(CHROME);
    const token = await createToken(stolen);
    const socket = await connect({ authorization: `Bearer ${token}` });
    const reason = closed(socket);
    const rootToken = await createToken(root);
    const id = await idOf(VIEWER);
    const response = await api.call(`/api/users/${id}/sessions`, { method: 'DELETE', cookie: root });
    expect(await response.json()).toEqual({ ended: 1, revokedTokens: 1 });
    expect(await reason).toBe('Token revoked');
    expect(await tokenWorks(token)).toBe(false);
    expect(await tokenWorks(rootToken)).toBe(true);
    const [entry] = await api.sql(
      "SELECT after FROM audit_entries WHERE action = 'user.sessions.end' AND target_id = $1 ORDER BY id DESC LIMIT 1",
      [id],
    );
    expect(entry.after).toEqual({ ended: 1, revokedTokens: 1 });
  });

  it('follows the rules of every account change: no one’s own, no super_admin but by one, an unknown account is a 404', async () => {
    // the demo admin is made a user manager
    const manager = await idOf('admin@demo.example.com');
    const granted = await api.call(`/api/users/${manager}/permissions`, {
      method: 'PATCH',
      cookie: root,
      body: { permissions: ['dashboard_view', 'circuit_breaker_view', 'user_management'] },
    });
    expect(granted.status).toBe(200);
    const cookie = await signIn(api.baseUrl, 'admin@demo.example.com', DEMO_PASSWORD);
    const refused = await api.call(`/api/users/${await idOf(TEST_ADMIN.email)}/sessions`, { method: 'DELETE', cookie });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe('Only a super_admin can change or delete a super_admin');
    expect(await signedIn(root)).toBe(true);
    const own = await api.call(`/api/users/${manager}/sessions`, { method: 'DELETE', cookie });
    expect(own.status).toBe(403);
    expect(await signedIn(cookie)).toBe(true);
    const unknown = await api.call('/api/users/00000000-0000-4000-8000-000000000000/sessions', { method: 'DELETE', cookie });
    expect(unknown.status).toBe(404);
  });
});
