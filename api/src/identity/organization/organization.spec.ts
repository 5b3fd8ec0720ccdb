import WebSocket from 'ws';
import type { ApiTokenView, CreatedApiTokenView, OrganizationView, SessionView } from '@cbh/contracts';
import { DEMO_PASSWORD, eventually, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../test/test-api';
import { PgSessionStore } from '../auth/session-store';
import { TokenAuthenticator } from '../tokens/token-authenticator.service';
import { DEFAULT_ORGANIZATION_NAME } from './organization-settings.service';

let api: TestApi;
let root: string;
let organization: OrganizationView;
/** A second replica, for what must reach every replica at once. */
let second: TestApi | undefined;
beforeAll(async () => {
  api = await startTestApi();
  root = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  [organization] = await (await api.call('/api/organizations', { cookie: root })).json();
});
afterAll(async () => {
  await second?.stop();
  await api.stop();
});

const patch = (body: unknown, cookie = root, id = organization.id) =>
  api.call(`/api/organizations/${id}`, { method: 'PATCH', cookie, body });
const DEFAULTS = { invitationDomains: [], maxTokenDays: 365, idleSessionMinutes: null };

afterEach(async () => {
  expect((await patch(DEFAULTS)).status).toBe(200);
});

describe('the organisation', () => {
  it('exists from the first start, with no limits set', async () => {
    const listed = await (await api.call('/api/organizations', { cookie: root })).json();
    expect(listed).toEqual([{ id: expect.any(String), name: DEFAULT_ORGANIZATION_NAME, ...DEFAULTS }]);
  });

  it('lets an organization_admin change its settings, audited; user managers without it only read them', async () => {
    const response = await patch({ name: '  Acme  ', invitationDomains: ['Example.COM', 'example.org', 'example.com'], maxTokenDays: 30 });
    expect(response.status).toBe(200);
    const changed = { ...organization, name: 'Acme', invitationDomains: ['example.com', 'example.org'], maxTokenDays: 30 };
    expect(await response.json()).toEqual(changed);
    const [entry] = await api.sql(
      "SELECT actor_email, target_id, before, after FROM audit_entries WHERE action = 'organization.update' ORDER BY id DESC LIMIT 1",
    );
    expect(entry).toEqual({ actor_email: TEST_ADMIN.email, target_id: organization.id, before: organization, after: changed });

    const [{ id }] = await api.sql("SELECT id FROM users WHERE email = 'admin@demo.example.com'");
    await api.call(`/api/users/${id}/permissions`, { method: 'PATCH', cookie: root, body: { permissions: ['user_management'] } });
    const manager = await signIn(api.baseUrl, 'admin@demo.example.com', DEMO_PASSWORD);
    expect(await (await api.call('/api/organizations', { cookie: manager })).json()).toEqual([changed]);
    const refused = await patch({ name: 'Mine' }, manager);
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe('Requires the organization_admin permission');
    await patch({ name: organization.name });
  });

  it.each([
    [{ name: '' }, 'name: is required'],
    [{ name: 'x'.repeat(101) }, 'name: Too big'],
    [{ invitationDomains: Array.from({ length: 51 }, (_, n) => `d${n}.example.com`) }, 'invitationDomains: must list at most 50 domains'],
    [{ invitationDomains: ['https://example.com'] }, 'invitationDomains.0: must be a bare domain name'],
    [{ maxTokenDays: 0 }, 'maxTokenDays: must be at least 1 day'],
    [{ maxTokenDays: 366 }, 'maxTokenDays: must be at most 365 days'],
    [{ idleSessionMinutes: 4 }, 'idleSessionMinutes: must be at least 5 minutes'],
    [{ idleSessionMinutes: 43_201 }, 'idleSessionMinutes: must be at most 43200 minutes'],
    [{}, 'name, invitationDomains, maxTokenDays or idleSessionMinutes is required'],
    [{ colour: 'red' }, 'unknown field colour'],
  ])('refuses %j with a 400 naming the problem', async (body, message) => {
    const response = await patch(body);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toContain(message);
  });

  it('answers 404 for an organisation that does not exist', async () => {
    const response = await patch({ name: 'Nobody' }, root, '00000000-0000-4000-8000-000000000000');
    expect(response.status).toBe(404);
  });
});

describe('what the settings enforce', () => {
  const invite = (email: string) => api.call('/api/users/invite', { method: 'POST', cookie: root, body: { email } });

  it('sends invitations only to the invitation domains, when there are any', async () => {
    expect((await invite('anyone@elsewhere.test')).status).toBe(201);
    await patch({ invitationDomains: ['example.com', 'example.org'] });
    const refused = await invite('someone@elsewhere.test');
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toBe('Invitations may only go to addresses at example.com, example.org');
    // a subdomain is another domain
    expect((await invite('someone@mail.example.com')).status).toBe(400);
    expect((await invite('Someone@Example.org')).status).toBe(201);
    expect(await api.sql("SELECT email FROM users WHERE email IN ('someone@elsewhere.test', 'someone@mail.example.com')")).toEqual([]);
  });

  it('refuses access tokens living longer than the organisation allows', async () => {
    await patch({ maxTokenDays: 30 });
    const create = (expiresInDays: number) =>
      api.call('/api/tokens', { method: 'POST', cookie: root, body: { name: `lasting ${expiresInDays}`, expiresInDays } });
    const refused = await create(31);
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toBe("expiresInDays: must be at most 30 days, the organisation's limit for access tokens");
    expect((await create(30)).status).toBe(201);
  });

  it('shortens the tokens already issued when the longest lifetime is lowered, on every replica at once, audited; raising it lengthens none', async () => {
    const create = async (name: string, expiresInDays: number): Promise<CreatedApiTokenView> => {
      const response = await api.call('/api/tokens', { method: 'POST', cookie: root, body: { name, expiresInDays } });
      expect(response.status).toBe(201);
      return response.json();
    };
    const expiryOf = async (id: string) => {
      const tokens: ApiTokenView[] = await (await api.call('/api/tokens', { cookie: root })).json();
      return Date.parse(tokens.find((token) => token.id === id)!.expiresAt);
    };
    const lasting = await create('lasting', 300);
    const brief = await create('brief', 10);
    const replica = await startTestApi({ DATABASE_URL: api.databaseUrl });
    second = replica;
    // what the other replica's requests and sockets take the token's expiry to be (read through its cache)
    const seenThere = async () => (await replica.app.get(TokenAuthenticator).authenticate(lasting.token, null)).expiresAt;
    expect(await seenThere()).toBe(Date.parse(lasting.expiresAt));

    const before = Date.now();
    expect((await patch({ maxTokenDays: 30 })).status).toBe(200);
    const capped = await expiryOf(lasting.id);
    expect(capped).toBeGreaterThanOrEqual(before + 30 * 86_400_000 - 60_000);
    expect(capped).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000 + 60_000);
    expect(await expiryOf(brief.id)).toBe(Date.parse(brief.expiresAt));
    // the other replica drops its cached copy at once, not when it runs out
    expect(await eventually(async () => (await seenThere()) === capped)).toBe(true);
    const [entry] = await api.sql(
      "SELECT actor_email, target_id, after FROM audit_entries WHERE action = 'tokens.lifetime-capped' ORDER BY id DESC LIMIT 1",
    );
    expect(entry).toMatchObject({ actor_email: TEST_ADMIN.email, target_id: organization.id, after: { maxTokenDays: 30 } });
    expect(entry.after.shortened).toBeGreaterThanOrEqual(1);

    expect((await patch({ maxTokenDays: 365 })).status).toBe(200);
    expect(await expiryOf(lasting.id)).toBe(capped);
  });

  it('ends a session not seen for the idle limit: it is no longer listed, its next request is a 401 and its socket closes', async () => {
    const email = 'viewer@example.com';
    const idle = await signIn(api.baseUrl, email, DEMO_PASSWORD);
    const active = await signIn(api.baseUrl, email, DEMO_PASSWORD);
    const socket = await new Promise<WebSocket>((resolve, reject) => {
      const opened = new WebSocket(`${api.baseUrl.replace('http', 'ws')}/ws`, { headers: { cookie: idle } });
      opened.once('open', () => resolve(opened));
      opened.once('error', reject);
    });
    const closed = new Promise<string>((resolve) => socket.once('close', (_code, reason) => resolve(String(reason))));
    // what this replica saw is written first, so only the backdated time below stands
    await api.app.get(PgSessionStore).flushSeen();
    const sid = decodeURIComponent(idle.slice(idle.indexOf('=') + 1))
      .slice(2)
      .split('.')[0];
    await api.sql(`UPDATE sessions SET last_seen_at = now() - interval '10 minutes' WHERE sid = $1`, [sid]);
    expect((await (await api.call('/api/sessions', { cookie: active })).json()).length).toBe(2);

    expect((await patch({ idleSessionMinutes: 5 })).status).toBe(200);
    const listed: SessionView[] = await (await api.call('/api/sessions', { cookie: active })).json();
    expect(listed.map((session) => session.current)).toEqual([true]);
    expect((await api.call('/api/auth/user', { cookie: idle })).status).toBe(401);
    expect(await closed).toBe('Signed out');
    expect(await api.sql('SELECT sid FROM sessions WHERE sid = $1', [sid])).toEqual([]);
    expect((await api.call('/api/auth/user', { cookie: active })).status).toBe(200);
  });

  it('keeps idle sessions without an idle limit', async () => {
    const cookie = await signIn(api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
    await api.app.get(PgSessionStore).flushSeen();
    const sid = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1))
      .slice(2)
      .split('.')[0];
    await api.sql(`UPDATE sessions SET last_seen_at = now() - interval '30 days' WHERE sid = $1`, [sid]);
    await patch({ name: organization.name });
    expect((await api.call('/api/auth/user', { cookie })).status).toBe(200);
  });
});
