import { ROLE_DEFAULT_PERMISSIONS } from '@cbh/contracts';
import { loadConfig } from '../../platform/config/config';
import { startOidcProvider, type AccountClaims, type TestOidcProvider } from '../../../test/oidc-provider';
import { DEMO_PASSWORD, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../test/test-api';
import { OIDC_REFUSALS } from './auth.service';

/**
 * The address people open the site at. The test plays the browser: where the provider sends it back to this
 * address, the test calls the API itself, as a gateway in front of the site would.
 */
const PUBLIC_URL = 'http://hub.example.test';

let provider: TestOidcProvider;
let api: TestApi;
beforeAll(async () => {
  provider = await startOidcProvider(`${PUBLIC_URL}/api/login/callback`);
  api = await startTestApi({ ...provider.env, PUBLIC_URL });
});
afterAll(async () => {
  await api?.stop();
  await provider?.stop();
});

/** A browser on one API: it keeps the API's cookies between requests and follows no redirect by itself. */
class Browser {
  readonly cookies = new Map<string, string>();
  constructor(private readonly site: TestApi = api) {}

  async get(path: string): Promise<Response> {
    const response = await fetch(`${this.site.baseUrl}${path}`, {
      redirect: 'manual',
      headers: { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [name, ...value] = cookie.split(';')[0]!.split('=');
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(cookie)) this.cookies.delete(name!);
      else this.cookies.set(name!, value.join('='));
    }
    return response;
  }

  /** Signs in with a password, as the sign-in form does. */
  async signInWithPassword(email: string, password: string) {
    const response = await fetch(`${this.site.baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(response.status).toBe(200);
    const [name, value] = response.headers.get('set-cookie')!.split(';')[0]!.split('=');
    this.cookies.set(name!, value!);
  }

  /** The signed-in account's e-mail and role, or null when signed out. */
  async account(): Promise<{ email: string; role: string } | null> {
    const response = await this.get('/api/auth/user');
    return response.status === 200 ? ((await response.json()) as { email: string; role: string }) : null;
  }

  /** The message a page shows in its alert (a refusal), read from where a redirect led. */
  async alertAt(response: Response): Promise<string | undefined> {
    expect(response.status).toBe(303);
    const page = await (await this.get(response.headers.get('location')!)).text();
    return /<p class="error" role="alert">([^<]*)<\/p>/.exec(page)?.[1]?.replace(/&#39;/g, "'");
  }
}

/**
 * The whole round trip: `start` (the sign-in, or the linking page) sends the browser to the provider, the person
 * signs in there as `sub`, and the provider sends the browser back to the callback; its answer is returned.
 */
async function throughProvider(browser: Browser, sub: string, claims: AccountClaims, start = '/api/login'): Promise<Response> {
  await provider.setAccount(sub, claims);
  const started = await browser.get(start);
  const authorizationUrl =
    started.status === 200
      ? /<a class="action" href="([^"]+)"/.exec(await started.text())![1]!.replace(/&amp;/g, '&')
      : started.headers.get('location')!;
  const back = await provider.signIn(authorizationUrl, sub);
  expect(`${back.origin}${back.pathname}`).toBe(`${PUBLIC_URL}/api/login/callback`);
  return browser.get(`${back.pathname}${back.search}`);
}

const sql = (query: string, params: unknown[] = []) => api.sql(query, params);
const countSessions = async () => (await sql('SELECT count(*)::int AS n FROM sessions'))[0].n as number;
const identitiesOf = (email: string) =>
  sql('SELECT i.issuer, i.subject FROM user_identities i JOIN users u ON u.id = i.user_id WHERE u.email = $1', [email]);

/** The super admin gives an account another role through the API, as the users screen does. */
async function setRole(email: string, role: string) {
  const [{ id }] = await sql('SELECT id FROM users WHERE email = $1', [email]);
  const cookie = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  expect((await api.call(`/api/users/${id}`, { method: 'PATCH', body: { role }, cookie })).status).toBe(200);
}

/** The super admin sets an account's permissions through the API, as the permissions dialog does. */
async function setPermissions(email: string, permissions: readonly string[]) {
  const [{ id }] = await sql('SELECT id FROM users WHERE email = $1', [email]);
  const cookie = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  expect((await api.call(`/api/users/${id}/permissions`, { method: 'PATCH', body: { permissions }, cookie })).status).toBe(200);
}

describe('OpenID Connect sign-in', () => {
  it('sends an anonymous visitor to the provider without writing a session row: the checks travel in a short-lived sealed cookie', async () => {
    const before = await countSessions();
    const response = await fetch(`${api.baseUrl}/api/login`, { redirect: 'manual' });
    expect(await countSessions()).toBe(before);
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin).toBe(provider.issuer);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('nonce')).toBeTruthy();
    const cookies = response.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(/^cbh\.oidc=v1:[\w.-]+; Path=\/api\/login; Max-Age=600; HttpOnly; SameSite=Lax$/);
    // nothing of the request's checks can be read from the cookie
    expect(cookies[0]).not.toContain(location.searchParams.get('state'));

    const form = await fetch(`${api.baseUrl}/api/login?method=password`);
    expect(await form.text()).toContain('name="password" type="password"');
  });

  it.each<[string, AccountClaims]>([
    ['sends no email_verified', { email: 'unconfirmed@sso.example.com' }],
    ['says email_verified: false', { email: 'unconfirmed@sso.example.com', email_verified: false }],
  ])('refuses a provider account that %s, and says why on the sign-in page', async (_case, claims) => {
    const browser = new Browser();
    const answer = await throughProvider(browser, 'unconfirmed', claims);
    expect(await browser.account()).toBeNull();
    expect(await browser.alertAt(answer)).toBe(OIDC_REFUSALS.unverified);
    expect(await sql("SELECT 1 FROM users WHERE email = 'unconfirmed@sso.example.com'")).toEqual([]);
  });

  it.each([
    ['the super admin', 'sign in with the password only', TEST_ADMIN.email, OIDC_REFUSALS.privileged],
    ['an admin', 'sign in with the password only', 'admin@demo.example.com', OIDC_REFUSALS.privileged],
    ['a viewer', 'sign in with the password and link', 'viewer@example.com', OIDC_REFUSALS.existingAccount],
  ])('never signs in as %s whose confirmed e-mail a provider account claims: it says to %s', async (_who, _says, email, refusal) => {
    const browser = new Browser();
    const answer = await throughProvider(browser, `impostor-of-${email}`, { email, email_verified: true, given_name: 'Mallory' });
    expect(await browser.account()).toBeNull();
    expect(await browser.alertAt(answer)).toBe(refusal);
    expect(await identitiesOf(email)).toEqual([]);
    const [attempt] = await sql(
      "SELECT actor_id, after FROM audit_entries WHERE action = 'auth.sign-in-failed' AND after->>'subject' = $1",
      [`impostor-of-${email}`],
    );
    expect(attempt).toMatchObject({ actor_id: null, after: { method: 'oidc', email, reason: refusal } });
  });

  it('creates a new e-mail as an active viewer bound to its (issuer, sub), which signs in to it even after its e-mail changed', async () => {
    const first = new Browser();
    const answer = await throughProvider(first, 'newcomer', { email: 'Newcomer@sso.example.com', email_verified: true, given_name: 'Nia' });
    expect(answer.headers.get('location')).toBe('/');
    expect(await first.account()).toMatchObject({ email: 'newcomer@sso.example.com', role: 'viewer', firstName: 'Nia' });
    expect(await identitiesOf('newcomer@sso.example.com')).toEqual([{ issuer: provider.issuer, subject: 'newcomer' }]);

    const again = new Browser();
    await throughProvider(again, 'newcomer', { email: 'renamed@sso.example.com', email_verified: true });
    expect(await again.account()).toMatchObject({ email: 'newcomer@sso.example.com' });
    expect(await sql("SELECT 1 FROM users WHERE email = 'renamed@sso.example.com'")).toEqual([]);

    // another provider account claiming that e-mail is someone else
    const other = new Browser();
    const refused = await throughProvider(other, 'someone-else', { email: 'newcomer@sso.example.com', email_verified: true });
    expect(await other.alertAt(refused)).toBe(OIDC_REFUSALS.existingAccount);
  });

  it('signs a bound (issuer, sub) in once its provider stops sending email_verified; a new one without it is still refused', async () => {
    await throughProvider(new Browser(), 'entra-user', { email: 'entra-user@sso.example.com', email_verified: true });

    const returning = new Browser();
    await throughProvider(returning, 'entra-user', { email: 'entra-user@sso.example.com' });
    expect(await returning.account()).toMatchObject({ email: 'entra-user@sso.example.com', role: 'viewer' });

    const newcomer = new Browser();
    const refused = await throughProvider(newcomer, 'entra-newcomer', { email: 'entra-newcomer@sso.example.com' });
    expect(await newcomer.alertAt(refused)).toBe(OIDC_REFUSALS.unverified);
    expect(await sql("SELECT 1 FROM users WHERE email = 'entra-newcomer@sso.example.com'")).toEqual([]);
  });

  it('refuses an (issuer, sub) bound to an account that has since become an admin, and signs in again once it is not', async () => {
    await throughProvider(new Browser(), 'rising', { email: 'rising@sso.example.com', email_verified: true });
    await setRole('rising@sso.example.com', 'admin');

    const browser = new Browser();
    const refused = await throughProvider(browser, 'rising', { email: 'rising@sso.example.com', email_verified: true });
    expect(await browser.account()).toBeNull();
    expect(await browser.alertAt(refused)).toBe(OIDC_REFUSALS.privileged);
    expect(await identitiesOf('rising@sso.example.com')).toEqual([{ issuer: provider.issuer, subject: 'rising' }]);

    await setRole('rising@sso.example.com', 'operator');
    await throughProvider(browser, 'rising', { email: 'rising@sso.example.com', email_verified: true });
    expect(await browser.account()).toMatchObject({ email: 'rising@sso.example.com', role: 'operator' });
  });

  it('judges privilege by the permissions held, not the role: a viewer given a sensitive one is never signed in or linked through a provider', async () => {
    await throughProvider(new Browser(), 'granted', { email: 'granted@sso.example.com', email_verified: true });
    const viewer = ROLE_DEFAULT_PERMISSIONS.viewer;
    for (const permission of ['user_management', 'audit_access'] as const) {
      await setPermissions('granted@sso.example.com', [...viewer, permission]);
      const browser = new Browser();
      const refused = await throughProvider(browser, 'granted', { email: 'granted@sso.example.com', email_verified: true });
      expect(await browser.account()).toBeNull();
      expect(await browser.alertAt(refused)).toBe(OIDC_REFUSALS.privileged);
      // another provider account claiming its e-mail is told it belongs to an account that signs in with a password
      const impostor = new Browser();
      const claimed = await throughProvider(impostor, `impostor-${permission}`, { email: 'granted@sso.example.com', email_verified: true });
      expect(await impostor.alertAt(claimed)).toBe(OIDC_REFUSALS.privileged);
    }

    // a password account given one may not link an organization account
    await setPermissions('viewer@example.com', [...viewer, 'system_admin']);
    try {
      const browser = new Browser();
      await browser.signInWithPassword('viewer@example.com', DEMO_PASSWORD);
      const page = await (await browser.get('/api/login/link')).text();
      expect(page).toContain(`<p class="error" role="alert">${OIDC_REFUSALS.privilegedLink}</p>`);
      expect(page).not.toContain('class="action"');
    } finally {
      await setPermissions('viewer@example.com', viewer);
    }

    await setPermissions('granted@sso.example.com', [...viewer, 'circuit_breaker_operate', 'api_access']);
    const browser = new Browser();
    await throughProvider(browser, 'granted', { email: 'granted@sso.example.com', email_verified: true });
    expect(await browser.account()).toMatchObject({ email: 'granted@sso.example.com', role: 'viewer' });
  });

  it('refuses a deactivated account its (issuer, sub) is bound to', async () => {
    await throughProvider(new Browser(), 'leaver', { email: 'leaver@sso.example.com', email_verified: true });
    await sql("UPDATE users SET is_active = false WHERE email = 'leaver@sso.example.com'");
    const browser = new Browser();
    const answer = await throughProvider(browser, 'leaver', { email: 'leaver@sso.example.com', email_verified: true });
    expect(await browser.account()).toBeNull();
    expect(await browser.alertAt(answer)).toMatch(/deactivated/);
  });

  it('refuses addresses of service accounts, whether one has the address or not, and creates no account', async () => {
    const cookie = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
    expect((await api.call('/api/service-accounts', { method: 'POST', cookie, body: { name: 'ci-bot' } })).status).toBe(201);
    for (const [sub, email] of [
      ['claims-ci-bot', 'ci-bot@service-account.invalid'],
      ['claims-nobody', 'Nobody@Service-Account.invalid'],
    ] as const) {
      const browser = new Browser();
      const refused = await throughProvider(browser, sub, { email, email_verified: true });
      expect(await browser.account()).toBeNull();
      expect(await browser.alertAt(refused)).toBe(OIDC_REFUSALS.serviceAccount);
      expect(await sql('SELECT 1 FROM user_identities WHERE subject = $1', [sub])).toEqual([]);
    }
    expect(await sql("SELECT first_name FROM users WHERE email LIKE '%@service-account.invalid'")).toEqual([{ first_name: 'ci-bot' }]);
  });

  it('refuses an answer without the cookie of its request, or with a forged one, and writes nothing', async () => {
    const before = await sql('SELECT (SELECT count(*) FROM sessions)::int AS sessions, (SELECT count(*) FROM audit_entries)::int AS audit');
    for (const cookie of [undefined, 'cbh.oidc=v1:AAAA.BBBB.CCCC']) {
      const response = await fetch(
        `${api.baseUrl}/api/login/callback?code=a-code&state=a-state&iss=${encodeURIComponent(provider.issuer)}`,
        {
          redirect: 'manual',
          headers: cookie ? { cookie } : {},
        },
      );
      expect(response.status).toBe(303);
      expect(decodeURIComponent(response.headers.get('location')!)).toMatch(/took too long or was started in another window/);
    }
    expect(
      await sql('SELECT (SELECT count(*) FROM sessions)::int AS sessions, (SELECT count(*) FROM audit_entries)::int AS audit'),
    ).toEqual(before);
  });
});

describe('linking an organization account to an account', () => {
  it('binds it to the signed-in account that asked, audited; from then on it signs in to that account', async () => {
    const browser = new Browser();
    await browser.signInWithPassword('operator@example.com', DEMO_PASSWORD);
    const page = await (await browser.get('/api/login/link')).text();
    expect(page).toContain('<h1>Link your organization account</h1>');
    expect(page).toContain('<strong>operator@example.com</strong>');

    const answer = await throughProvider(
      browser,
      'operator-at-sso',
      { email: 'Operator@Example.com', email_verified: true },
      '/api/login/link',
    );
    expect(answer.headers.get('location')).toBe('/api/login/link?linked=1');
    const done = await (await browser.get('/api/login/link?linked=1')).text();
    expect(done).toContain('role="status">Your organization account is linked');
    expect(done).toContain(`<li>${provider.issuer}, since `);
    const [{ id }] = await sql("SELECT id FROM users WHERE email = 'operator@example.com'");
    expect(await sql("SELECT actor_email, target_id, after FROM audit_entries WHERE action = 'auth.identity-linked'")).toEqual([
      { actor_email: 'operator@example.com', target_id: id, after: { issuer: provider.issuer, subject: 'operator-at-sso' } },
    ]);

    const later = new Browser();
    await throughProvider(later, 'operator-at-sso', { email: 'operator@example.com', email_verified: true });
    expect(await later.account()).toMatchObject({ email: 'operator@example.com', role: 'operator' });
  });

  it.each([
    ['the super admin', TEST_ADMIN.email, TEST_ADMIN.password],
    ['an admin', 'admin@demo.example.com', DEMO_PASSWORD],
  ])('tells %s that it signs in with its password only, and offers no way to the provider', async (_who, email, password) => {
    const browser = new Browser();
    await browser.signInWithPassword(email, password);
    const response = await browser.get('/api/login/link');
    expect(response.headers.getSetCookie()).toEqual([]);
    const page = await response.text();
    expect(page).toContain(`<strong>${email}</strong>`);
    expect(page).toContain(`<p class="error" role="alert">${OIDC_REFUSALS.privilegedLink}</p>`);
    expect(page).not.toContain('class="action"');
    expect(page).not.toContain(provider.issuer);
  });

  it('binds nothing to an account made an admin while its person was at the provider', async () => {
    await setRole('admin@demo.example.com', 'operator');
    const browser = new Browser();
    await browser.signInWithPassword('admin@demo.example.com', DEMO_PASSWORD);
    await provider.setAccount('ada-at-sso', { email: 'admin@demo.example.com', email_verified: true });
    const page = await (await browser.get('/api/login/link')).text();
    const authorizationUrl = /<a class="action" href="([^"]+)"/.exec(page)![1]!.replace(/&amp;/g, '&');
    await setRole('admin@demo.example.com', 'admin');
    const back = await provider.signIn(authorizationUrl, 'ada-at-sso');
    const answer = await browser.get(`${back.pathname}${back.search}`);
    expect(answer.headers.get('location')).toMatch(/^\/api\/login\/link\?error=/);
    expect(await browser.alertAt(answer)).toBe(OIDC_REFUSALS.privilegedLink);
    expect(await identitiesOf('admin@demo.example.com')).toEqual([]);
    expect(await sql("SELECT 1 FROM audit_entries WHERE action = 'auth.identity-linked' AND after->>'subject' = 'ada-at-sso'")).toEqual([]);
  });

  it('refuses an organization account whose confirmed e-mail is another', async () => {
    const browser = new Browser();
    await browser.signInWithPassword('viewer@example.com', DEMO_PASSWORD);
    const answer = await throughProvider(browser, 'someone', { email: 'someone@sso.example.com', email_verified: true }, '/api/login/link');
    expect(answer.headers.get('location')).toMatch(/^\/api\/login\/link\?error=/);
    expect(await browser.alertAt(answer)).toBe(OIDC_REFUSALS.otherEmail('viewer@example.com'));
    expect(await identitiesOf('viewer@example.com')).toEqual([]);
  });

  it('binds nothing when the browser is signed in as another account by the time the provider answers', async () => {
    const browser = new Browser();
    await browser.signInWithPassword('viewer@example.com', DEMO_PASSWORD);
    await provider.setAccount('viewer-at-sso', { email: 'viewer@example.com', email_verified: true });
    const page = await (await browser.get('/api/login/link')).text();
    const authorizationUrl = /<a class="action" href="([^"]+)"/.exec(page)![1]!.replace(/&amp;/g, '&');
    await browser.signInWithPassword('admin@demo.example.com', DEMO_PASSWORD);
    const back = await provider.signIn(authorizationUrl, 'viewer-at-sso');
    const answer = await browser.get(`${back.pathname}${back.search}`);
    expect(await browser.alertAt(answer)).toBe(OIDC_REFUSALS.signInFirst);
    expect(await sql("SELECT 1 FROM user_identities WHERE subject = 'viewer-at-sso'")).toEqual([]);
  });

  it('asks a signed-out visitor to sign in with the password first', async () => {
    const browser = new Browser();
    expect(await browser.alertAt(await browser.get('/api/login/link'))).toBe(OIDC_REFUSALS.signInFirst);
  });
});

describe('ELEVATION_EMAIL without an account yet (no demo accounts)', () => {
  it('creates no account for it from a first sign-in, whatever the spelling: it is invited and has a password', async () => {
    const site = await startTestApi({ ...provider.env, PUBLIC_URL, SEED_DEMO: 'false', ELEVATION_EMAIL: 'Elevate@corp.example' });
    try {
      const browser = new Browser(site);
      const refused = await throughProvider(browser, 'would-be-elevator', { email: 'elevate@CORP.example', email_verified: true });
      expect(await browser.account()).toBeNull();
      expect(await browser.alertAt(refused)).toBe(OIDC_REFUSALS.reservedEmail);
      expect(await site.sql("SELECT 1 FROM users WHERE lower(email) = 'elevate@corp.example'")).toEqual([]);
      expect(await site.sql("SELECT 1 FROM user_identities WHERE subject = 'would-be-elevator'")).toEqual([]);
    } finally {
      await site.stop();
    }
  });
});

describe('OIDC_ALLOWED_DOMAINS', () => {
  it('creates accounts only for e-mail addresses at the listed domains', async () => {
    const site = await startTestApi({ ...provider.env, PUBLIC_URL, OIDC_ALLOWED_DOMAINS: 'example.org, Staff.Example.org' });
    try {
      const outsider = new Browser(site);
      const refused = await throughProvider(outsider, 'outsider', { email: 'outsider@sso.example.com', email_verified: true });
      expect(await outsider.alertAt(refused)).toBe(OIDC_REFUSALS.domain(['example.org', 'staff.example.org']));
      expect(await site.sql("SELECT 1 FROM users WHERE email = 'outsider@sso.example.com'")).toEqual([]);

      const insider = new Browser(site);
      await throughProvider(insider, 'insider', { email: 'insider@staff.example.org', email_verified: true });
      expect(await insider.account()).toMatchObject({ email: 'insider@staff.example.org', role: 'viewer' });
    } finally {
      await site.stop();
    }
  });

  it('stops the start with a message naming the variable when an entry is not a domain', () => {
    expect(() => loadConfig({ SESSION_SECRET: 'x'.repeat(32), OIDC_ALLOWED_DOMAINS: 'example.org, @example.com' })).toThrow(
      /OIDC_ALLOWED_DOMAINS.*comma-separated list of e-mail domains/,
    );
  });
});
