import WebSocket from 'ws';
import { PERMISSIONS, type CreatedApiTokenView } from '@cbh/contracts';
import { DEMO_PASSWORD, eventually, signIn, twoReplicasForThisFile, TEST_ADMIN, type TestApi } from '../../../test/test-api';
import { tokenHash } from './token-authenticator.service';
import { simpleBreaker } from '../../../test/breaker-bodies';

const METRICS_TOKEN = 'a-metrics-token-for-the-scraper';

const spec = twoReplicasForThisFile({ METRICS_TOKEN });

/** A call with `Authorization: Bearer <token>` (and whatever else is given), to one replica. */
function withToken(
  token: string,
  path: string,
  {
    method = 'GET',
    body,
    headers = {},
    replica = spec.api,
  }: { method?: string; body?: unknown; headers?: Record<string, string>; replica?: TestApi } = {},
) {
  return fetch(`${replica.baseUrl}${path}`, {
    method,
    redirect: 'manual',
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
}

async function createToken(cookie: string, body: Record<string, unknown> = {}): Promise<CreatedApiTokenView> {
  const response = await spec.api.call('/api/tokens', { method: 'POST', cookie, body: { name: 'ci-export', expiresInDays: 30, ...body } });
  expect(response.status).toBe(201);
  return response.json();
}

const INVALID = { statusCode: 401, error: 'Unauthorized', message: 'The access token is not valid' };

describe('creating, listing and revoking', () => {
  it('creates a token shown once, kept only as its hash, with every permission of its owner unless narrowed', async () => {
    const response = await spec.api.call('/api/tokens', {
      method: 'POST',
      cookie: spec.admin,
      body: { name: 'ci-export', expiresInDays: 30 },
    });
    expect(response.status).toBe(201);
    const created: CreatedApiTokenView = await response.json();
    expect(created.token).toMatch(/^cbh_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.token.slice(0, 12));
    expect(created.permissions).toEqual([...PERMISSIONS]);
    const days = (Date.parse(created.expiresAt) - Date.parse(created.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(30, 3);
    const [row] = await spec.api.sql('SELECT * FROM api_tokens WHERE id = $1', [created.id]);
    expect(row.token_hash).toBe(tokenHash(created.token));
    expect(JSON.stringify(await spec.api.sql('SELECT * FROM api_tokens'))).not.toContain(created.token.slice(12));

    const listed = await (await spec.api.call('/api/tokens', { cookie: spec.admin })).json();
    const mine = listed.find((token: { id: string }) => token.id === created.id);
    expect(mine).toEqual({
      id: created.id,
      name: 'ci-export',
      prefix: created.prefix,
      permissions: created.permissions,
      createdAt: created.createdAt,
      expiresAt: created.expiresAt,
      lastUsedAt: null,
      lastUsedFrom: null,
      remotes: null,
    });
    expect(JSON.stringify(listed)).not.toContain(created.token);
  });

  it('refuses permissions the owner lacks (400 naming them), bad bodies, and accounts without api_access', async () => {
    const operator = await signIn(spec.api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
    const refused = await spec.api.call('/api/tokens', { method: 'POST', cookie: operator, body: { name: 'x', expiresInDays: 1 } });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe('Requires the api_access permission');

    const [{ id }] = await spec.api.sql("SELECT id FROM users WHERE email = 'operator@example.com'");
    expect(
      (
        await spec.api.call(`/api/users/${id}/permissions`, {
          method: 'PATCH',
          cookie: spec.admin,
          body: { permissions: ['metrics_view', 'api_access'] },
        })
      ).status,
    ).toBe(200);
    const beyond = await spec.api.call('/api/tokens', {
      method: 'POST',
      cookie: operator,
      body: { name: 'x', expiresInDays: 1, permissions: ['metrics_view', 'user_management', 'audit_access'] },
    });
    expect(beyond.status).toBe(400);
    expect((await beyond.json()).message).toBe('permissions: you do not hold user_management, audit_access');
    for (const body of [
      { name: 'x', expiresInDays: 0 },
      { name: 'x', expiresInDays: 366 },
      { name: '', expiresInDays: 5 },
      { expiresInDays: 5 },
    ]) {
      expect((await spec.api.call('/api/tokens', { method: 'POST', cookie: operator, body })).status).toBe(400);
    }
    const narrowed = await createToken(operator, { permissions: ['metrics_view'] });
    expect(narrowed.permissions).toEqual(['metrics_view']);
    expect((await spec.api.sql('SELECT count(*)::int AS n FROM api_tokens WHERE id = $1', [narrowed.id]))[0].n).toBe(1);
  });

  it('lists and revokes only one’s own tokens: another account’s token id is a 404, with a session or a token', async () => {
    const mine = await createToken(spec.admin, { name: 'mine' });
    const adminDemo = await signIn(spec.api.baseUrl, 'admin@demo.example.com', DEMO_PASSWORD);
    const [{ id }] = await spec.api.sql("SELECT id FROM users WHERE email = 'admin@demo.example.com'");
    await spec.api.call(`/api/users/${id}/permissions`, {
      method: 'PATCH',
      cookie: spec.admin,
      body: { permissions: ['dashboard_view', 'circuit_breaker_view', 'api_access'] },
    });
    const theirs = await createToken(adminDemo, { name: 'theirs' });
    const listed: { id: string }[] = await (await spec.api.call('/api/tokens', { cookie: adminDemo })).json();
    expect(listed.map((token) => token.id)).toEqual([theirs.id]);

    const bySession = await spec.api.call(`/api/tokens/${mine.id}`, { method: 'DELETE', cookie: adminDemo });
    expect(bySession.status).toBe(404);
    expect((await bySession.json()).message).toBe('No such access token');
    const byToken = await withToken(theirs.token, `/api/tokens/${mine.id}`, { method: 'DELETE' });
    expect(byToken.status).toBe(404);
    expect((await withToken(mine.token, '/api/auth/user')).status).toBe(200);

    // its own token: revoked, refused on both replicas at once (the second had it cached)
    expect((await withToken(theirs.token, '/api/auth/user', { replica: spec.second })).status).toBe(200);
    expect((await spec.api.call(`/api/tokens/${theirs.id}`, { method: 'DELETE', cookie: adminDemo })).status).toBe(204);
    expect(await eventually(async () => (await withToken(theirs.token, '/api/auth/user', { replica: spec.second })).status === 401)).toBe(
      true,
    );
    for (const replica of [spec.api, spec.second]) {
      const after = await withToken(theirs.token, '/api/auth/user', { replica });
      expect(after.status).toBe(401);
      expect(await after.json()).toEqual(INVALID);
    }
    const [audit] = await spec.api.sql("SELECT actor_email, target_id, before FROM audit_entries WHERE action = 'token.revoke'");
    expect(audit).toEqual({
      actor_email: 'admin@demo.example.com',
      target_id: theirs.id,
      before: { name: 'theirs', prefix: theirs.prefix },
    });
  });

  it('keeps at most 50 tokens per account: one more is a 429 naming the limit', async () => {
    const viewer = await signIn(spec.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
    const [{ id }] = await spec.api.sql("SELECT id FROM users WHERE email = 'viewer@example.com'");
    await spec.api.call(`/api/users/${id}/permissions`, {
      method: 'PATCH',
      cookie: spec.admin,
      body: { permissions: ['dashboard_view', 'api_access'] },
    });
    const answers = await Promise.all(
      Array.from({ length: 52 }, (_, i) =>
        spec.api.call('/api/tokens', { method: 'POST', cookie: viewer, body: { name: `t${i}`, expiresInDays: 1 } }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(50);
    const over = answers.filter((answer) => answer.status === 429);
    expect(over).toHaveLength(2);
    expect((await over[0]!.json()).message).toBe('You already hold 50 access tokens, the most one account may; revoke one first');
    expect((await spec.api.sql('SELECT count(*)::int AS n FROM api_tokens WHERE user_id = $1', [id]))[0].n).toBe(50);
  });
});

describe('requests made with a token', () => {
  it('act as the owner with the token’s permissions, set no cookie, and are audited as via the token', async () => {
    const created = await createToken(spec.admin, { name: 'ci-export' });
    const me = await withToken(created.token, '/api/auth/user');
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe(TEST_ADMIN.email);
    expect(me.headers.get('set-cookie')).toBeNull();

    const breaker = await withToken(created.token, '/api/circuit-breakers', {
      method: 'POST',
      body: simpleBreaker('via-token'),
    });
    expect(breaker.status).toBe(201);
    expect(breaker.headers.get('set-cookie')).toBeNull();
    const [entry] = await spec.api.sql(
      "SELECT actor_email, via FROM audit_entries WHERE action = 'breaker.create' ORDER BY id DESC LIMIT 1",
    );
    expect(entry).toEqual({ actor_email: TEST_ADMIN.email, via: { tokenId: created.id, name: 'ci-export', prefix: created.prefix } });
    const listed = await (await spec.api.call('/api/audit?action=token.create', { cookie: spec.admin })).json();
    expect(listed.entries[0].via).toBeNull();
  });

  it('may do only what both the token and its owner may, judged again on every request on every replica', async () => {
    const [{ id }] = await spec.api.sql("SELECT id FROM users WHERE email = 'admin@demo.example.com'");
    await spec.api.call(`/api/users/${id}/permissions`, {
      method: 'PATCH',
      cookie: spec.admin,
      body: { permissions: ['dashboard_view', 'circuit_breaker_view', 'domain_management', 'api_access'] },
    });
    const owner = await signIn(spec.api.baseUrl, 'admin@demo.example.com', DEMO_PASSWORD);
    const token = (await createToken(owner, { permissions: ['circuit_breaker_view', 'domain_management'] })).token;
    expect((await withToken(token, '/api/circuit-breakers')).status).toBe(200);
    expect((await withToken(token, '/api/dashboard/stats')).status).toBe(403);
    for (const replica of [spec.api, spec.second]) expect((await withToken(token, '/api/domains', { replica })).status).toBe(200);

    // the owner loses domain_management: the token does too, at once, on both replicas
    await spec.api.call(`/api/users/${id}/permissions`, {
      method: 'PATCH',
      cookie: spec.admin,
      body: { permissions: ['dashboard_view', 'circuit_breaker_view', 'api_access'] },
    });
    expect(await eventually(async () => (await withToken(token, '/api/domains', { replica: spec.second })).status === 403)).toBe(true);
    for (const replica of [spec.api, spec.second]) {
      const refused = await withToken(token, '/api/domains', { replica });
      expect(refused.status).toBe(403);
      expect((await refused.json()).message).toBe('Requires the domain_management permission');
    }
    expect((await withToken(token, '/api/circuit-breakers', { replica: spec.second })).status).toBe(200);

    // deactivated: refused everywhere as an invalid token
    await spec.api.call(`/api/users/${id}/status`, { method: 'PATCH', cookie: spec.admin, body: { isActive: false } });
    expect(await eventually(async () => (await withToken(token, '/api/circuit-breakers', { replica: spec.second })).status === 401)).toBe(
      true,
    );
    for (const replica of [spec.api, spec.second])
      expect(await (await withToken(token, '/api/circuit-breakers', { replica })).json()).toEqual(INVALID);
    await spec.api.call(`/api/users/${id}/status`, { method: 'PATCH', cookie: spec.admin, body: { isActive: true } });
  });

  it('a super_admin’s narrowed token is held to its list', async () => {
    const token = (await createToken(spec.admin, { permissions: ['circuit_breaker_view'] })).token;
    expect((await withToken(token, '/api/circuit-breakers')).status).toBe(200);
    expect((await withToken(token, '/api/users')).status).toBe(403);
  });

  it('answers unknown, revoked and malformed tokens with one 401, and an expired one with a 401 that says so', async () => {
    const revoked = await createToken(spec.admin, { name: 'revoked' });
    await spec.api.call(`/api/tokens/${revoked.id}`, { method: 'DELETE', cookie: spec.admin });
    const expired = await createToken(spec.admin, { name: 'expired' });
    await spec.api.sql("UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1", [expired.id]);
    const unknown = `cbh_${'A'.repeat(43)}`;
    for (const token of [unknown, revoked.token, 'not-a-token', '', 'cbh_', `${revoked.token}x`]) {
      const response = await withToken(token, '/api/circuit-breakers');
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(INVALID);
    }
    const response = await withToken(expired.token, '/api/circuit-breakers');
    expect(response.status).toBe(401);
    expect((await response.json()).message).toMatch(/^The access token expired on \d{4}-\d\d-\d\dT[\d:.]+Z; create a new one$/);
  });

  it('refuses a token beside a session cookie, and a token in the query string, with 400', async () => {
    const { token } = await createToken(spec.admin);
    const both = await withToken(token, '/api/circuit-breakers', { headers: { cookie: spec.admin } });
    expect(both.status).toBe(400);
    expect((await both.json()).message).toMatch(/^Send either an access token or a session cookie, not both/);
    for (const query of [`access_token=${token}`, `token=${token}`]) {
      const inUrl = await fetch(`${spec.api.baseUrl}/api/circuit-breakers?${query}`);
      expect(inUrl.status).toBe(400);
      expect((await inUrl.json()).message).toMatch(/^Access tokens are never accepted in the URL/);
    }
  });

  it('never creates or lists tokens, signs in or out, or elevates: those need a person’s session (403 naming why)', async () => {
    const { token } = await createToken(spec.admin);
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/tokens', { name: 'more', expiresInDays: 1 }, 'Creating access tokens'],
      ['GET', '/api/tokens', undefined, 'Listing access tokens'],
      ['POST', '/api/login', { email: TEST_ADMIN.email, password: TEST_ADMIN.password }, 'Signing in'],
      ['POST', '/api/logout', undefined, 'Signing out'],
      ['POST', '/api/auth/elevate-privileges', { method: 'master_key', masterKey: 'x' }, 'Elevating privileges'],
    ];
    for (const [method, path, body, what] of cases) {
      const response = await withToken(token, path, { method, body });
      expect(response.status).toBe(403);
      expect((await response.json()).message).toBe(`${what} needs a person's session; an access token cannot do it`);
      expect(response.headers.get('set-cookie')).toBeNull();
    }
    expect((await spec.api.sql('SELECT count(*)::int AS n FROM sessions WHERE user_id IS NULL'))[0].n).toBe(0);
  });

  it('records the last use at most once a minute, with the address it came from', async () => {
    const created = await createToken(spec.admin);
    await withToken(created.token, '/api/circuit-breakers');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [first] = await spec.api.sql('SELECT last_used_at, last_used_from FROM api_tokens WHERE id = $1', [created.id]);
    expect(first.last_used_at).not.toBeNull();
    expect(first.last_used_from).toMatch(/127\.0\.0\.1/);
    await withToken(created.token, '/api/circuit-breakers');
    await withToken(created.token, '/api/circuit-breakers', { replica: spec.second });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [again] = await spec.api.sql('SELECT last_used_at FROM api_tokens WHERE id = $1', [created.id]);
    expect(again.last_used_at).toEqual(first.last_used_at);
  });

  it('reads /metrics with metrics_view, and the METRICS_TOKEN still works', async () => {
    const { token } = await createToken(spec.admin, { permissions: ['metrics_view'] });
    expect((await withToken(token, '/metrics')).status).toBe(200);
    expect((await withToken(METRICS_TOKEN, '/metrics')).status).toBe(200);
    const without = (await createToken(spec.admin, { permissions: ['dashboard_view'] })).token;
    expect((await withToken(without, '/metrics')).status).toBe(403);
    expect((await withToken('cbh_nope', '/metrics')).status).toBe(401);
  });
});

describe('/ws with a token', () => {
  const connect = (headers: Record<string, string>, replica = spec.api, query = '') =>
    new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(`${replica.baseUrl.replace('http', 'ws')}/ws${query}`, { headers });
      socket.once('open', () => resolve(socket));
      socket.once('error', reject);
    });

  it('opens a socket with a bearer token, refuses bad ones, and closes it on every replica when the token is revoked', async () => {
    const created = await createToken(spec.admin);
    await expect(connect({ authorization: 'Bearer cbh_nope' })).rejects.toThrow('Unexpected server response: 401');
    await expect(connect({ authorization: `Bearer ${created.token}`, cookie: spec.admin })).rejects.toThrow(
      'Unexpected server response: 400',
    );
    await expect(connect({}, spec.api, `?access_token=${created.token}`)).rejects.toThrow('Unexpected server response: 400');
    const here = await connect({ authorization: `Bearer ${created.token}` });
    const there = await connect({ authorization: `Bearer ${created.token}` }, spec.second);
    const closed = (socket: WebSocket) =>
      new Promise<string>((resolve) => socket.once('close', (_code, reason) => resolve(String(reason))));
    const closes = [closed(here), closed(there)];
    expect((await spec.api.call(`/api/tokens/${created.id}`, { method: 'DELETE', cookie: spec.admin })).status).toBe(204);
    expect(await Promise.all(closes)).toEqual(['Token revoked', 'Token revoked']);
  });

  it('sends a token’s socket only what the token may read, also after its owner changed', async () => {
    const [{ id }] = await spec.api.sql("SELECT id FROM users WHERE email = 'admin@demo.example.com'");
    const grant = (permissions: string[]) =>
      spec.api.call(`/api/users/${id}/permissions`, { method: 'PATCH', cookie: spec.admin, body: { permissions } });
    await grant(['dashboard_view', 'circuit_breaker_view', 'api_access']);
    const owner = await signIn(spec.api.baseUrl, 'admin@demo.example.com', DEMO_PASSWORD);
    const narrowed = await createToken(owner, { permissions: ['dashboard_view'] });
    const socket = await connect({ authorization: `Bearer ${narrowed.token}` });
    const control = await connect({ cookie: owner });
    const heard: string[] = [];
    socket.on('message', (data) => heard.push(JSON.parse(String(data)).type));
    // the owner changes (userChanged): the socket is judged again with the token's permissions, not the owner's
    await grant(['dashboard_view', 'circuit_breaker_view', 'metrics_view', 'api_access']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const configUpdated = new Promise<void>((resolve) =>
      control.on('message', (data) => JSON.parse(String(data)).type === 'configUpdated' && resolve()),
    );
    const created = await spec.api.call('/api/circuit-breakers', {
      method: 'POST',
      cookie: spec.admin,
      body: simpleBreaker('heard-by-readers'),
    });
    expect(created.status).toBe(201);
    await configUpdated;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard.filter((type) => type === 'configUpdated')).toEqual([]);
    socket.close();
    control.close();
  });
});
