import { linkIn, startSmtpSink } from '../../../test/smtp-sink';
import { signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../test/test-api';

/**
 * The cross-site request forgery defences, as a browser's requests reach the API: Fetch Metadata and Origin on
 * every state-changing request, JSON-only bodies, and sign-out by navigation from another site asking first.
 * (e2e/cross-site.e2e.ts drives the same attacks from pages on other origins in Chromium.)
 */
const REMOTE_ORIGIN = 'http://127.0.0.1:4777';
let api: TestApi;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let admin: string;
let breakerId: number;
beforeAll(async () => {
  smtp = await startSmtpSink();
  api = await startTestApi({ PUBLIC_URL: 'https://hub.example.com', REMOTE_ORIGINS: REMOTE_ORIGIN, SMTP_URL: smtp.url });
  admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  const breakers = await (await api.call('/api/circuit-breakers', { cookie: admin })).json();
  breakerId = breakers[0].id;
});
afterAll(async () => {
  await api.stop();
  await smtp.stop();
});

const forceOpen = (headers: Record<string, string>) =>
  fetch(`${api.baseUrl}/api/circuit-breakers/${breakerId}/force-open`, {
    method: 'POST',
    headers: { cookie: admin, 'content-type': 'application/json', ...headers },
    body: '{}',
  });
const overrideOf = async () => (await api.sql('SELECT override FROM circuit_breaker_configs WHERE id = $1', [breakerId]))[0];

describe('state-changing requests from other origins', () => {
  it.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }],
    ['Sec-Fetch-Site: same-site (another port of the same host)', { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:9999' }],
    ['an Origin that is not the host, without Fetch Metadata', { origin: 'http://attacker.localhost' }],
    ['an opaque origin', { origin: 'null' }],
  ])('are refused with a 403 in the error shape: %s', async (_name, headers) => {
    const before = await overrideOf();
    const response = await forceOpen(headers);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ statusCode: 403, error: 'Forbidden', message: expect.stringMatching(/Cross-origin/) });
    expect(await overrideOf()).toEqual(before);
  });

  it('refuses a cross-site form that signs a visitor in as another account (login CSRF)', async () => {
    const response = await fetch(`${api.baseUrl}/api/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      body: new URLSearchParams({ email: TEST_ADMIN.email, password: TEST_ADMIN.password }).toString(),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('refuses the invitation form posted from another origin, leaving the invitation unused; from the site itself it sets the password', async () => {
    const email = 'invited.by.form@example.com';
    expect((await api.call('/api/users/invite', { method: 'POST', cookie: admin, body: { email, role: 'viewer' } })).status).toBe(201);
    const path = linkIn(
      smtp.mails.find((m) => m.to.includes(email))!,
      /\/api\/invitations\/[\w-]+/,
    );
    // the fields the page's set-password form sends
    const postForm = (headers: Record<string, string>) =>
      fetch(`${api.baseUrl}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ firstName: 'Ivy', lastName: 'Form', password: 'a-strong-form-password' }).toString(),
      });
    const stateOf = async () =>
      (
        await api.sql(
          `SELECT u.password_hash IS NULL AS "noPassword", u.activated_at AS "activatedAt", i.used_at AS "usedAt"
             FROM users u JOIN invitations i ON i.user_id = u.id WHERE u.email = $1`,
          [email],
        )
      )[0];
    const apiPort = Number(new URL(api.baseUrl).port);
    const anotherPort = `http://127.0.0.1:${apiPort === 9999 ? 9998 : 9999}`;

    for (const headers of [
      { 'sec-fetch-site': 'same-site', origin: anotherPort },
      { 'sec-fetch-site': 'cross-site', origin: 'http://evil.example' },
    ]) {
      const refused = await postForm(headers);
      expect(refused.status).toBe(403);
      expect(refused.headers.get('set-cookie')).toBeNull();
      expect(await refused.json()).toMatchObject({ statusCode: 403, error: 'Forbidden', message: expect.stringMatching(/Cross-origin/) });
      expect(await stateOf()).toEqual({ noPassword: true, activatedAt: null, usedAt: null });
    }

    const accepted = await postForm({ 'sec-fetch-site': 'same-origin', origin: api.baseUrl });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get('location')).toBe('/');
    const session = accepted.headers.get('set-cookie')!.split(';')[0]!;
    expect(await (await api.call('/api/auth/user', { cookie: session })).json()).toMatchObject({ email, firstName: 'Ivy' });
    expect(await stateOf()).toMatchObject({ noPassword: false, activatedAt: expect.any(Date), usedAt: expect.any(Date) });
    await signIn(api.baseUrl, email, 'a-strong-form-password');
  });

  it.each([
    ['the page itself (same-origin)', { 'sec-fetch-site': 'same-origin', origin: 'https://hub.example.com' }],
    ['PUBLIC_URL behind a gateway that renames the host', { origin: 'https://hub.example.com' }],
    ['a remote origin from REMOTE_ORIGINS', { 'sec-fetch-site': 'same-site', origin: REMOTE_ORIGIN }],
    ['a client that is not a browser (no Origin, no Fetch Metadata)', {}],
  ])('are allowed from %s', async (_name, headers) => {
    expect((await forceOpen(headers)).status).toBe(200);
    await api.call(`/api/circuit-breakers/${breakerId}/reset`, { method: 'POST', cookie: admin, body: {} });
  });

  it('leaves reads to the access guard: a cross-site GET or HEAD is answered, a cross-site DELETE refused', async () => {
    const crossSite = { cookie: admin, 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' };
    for (const method of ['GET', 'HEAD']) {
      expect((await fetch(`${api.baseUrl}/api/circuit-breakers`, { method, headers: crossSite })).status).toBe(200);
    }
    const removal = await fetch(`${api.baseUrl}/api/circuit-breakers/${breakerId}`, { method: 'DELETE', headers: crossSite });
    expect(removal.status).toBe(403);
    const breakers = await (await api.call('/api/circuit-breakers', { cookie: admin })).json();
    expect(breakers.map((breaker: { id: number }) => breaker.id)).toContain(breakerId);
  });

  it('exempts a bearer-token request that carries no cookie: a forged request has no way to attach the token', async () => {
    const response = await fetch(`${api.baseUrl}/api/circuit-breakers/${breakerId}/force-open`, {
      method: 'POST',
      headers: { authorization: 'Bearer cbh_not-a-real-token', 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
      body: '{}',
    });
    // past the cross-origin check, the access guard judges it: no session, so 401 rather than the forgery's 403
    expect(response.status).toBe(401);
  });
});

describe('request bodies', () => {
  it.each([
    ['text/plain', 'text/plain;charset=UTF-8', '{}'],
    ['an HTML form', 'application/x-www-form-urlencoded', 'a=1'],
    ['multipart', 'multipart/form-data; boundary=x', '--x--'],
  ])('are refused with a 415 unless JSON: %s', async (_name, type, body) => {
    const response = await fetch(`${api.baseUrl}/api/circuit-breakers/${breakerId}/reset`, {
      method: 'POST',
      headers: { cookie: admin, 'content-type': type },
      body,
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ statusCode: 415, message: expect.stringContaining('application/json') });
  });

  it('judges the path as the router reads it: a percent-encoded /api is no way around', async () => {
    const response = await fetch(`${api.baseUrl}/%61pi/circuit-breakers/${breakerId}/force-open`, {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(response.status).toBe(415);
    expect(await overrideOf()).toEqual({ override: 'none' });
  });

  it('refuses an invitation sent as an HTML form: no account is created', async () => {
    const response = await fetch(`${api.baseUrl}/api/users/invite`, {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'forged@example.com', role: 'admin' }).toString(),
    });
    expect(response.status).toBe(415);
    expect(await api.sql(`SELECT 1 FROM users WHERE email = 'forged@example.com'`)).toHaveLength(0);
  });

  it('takes the sign-in form as a form, and a request without a body as before', async () => {
    const form = await fetch(`${api.baseUrl}/api/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ email: TEST_ADMIN.email, password: TEST_ADMIN.password }).toString(),
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/');
    const bodyless = await fetch(`${api.baseUrl}/api/circuit-breakers/${breakerId}/reset`, { method: 'POST', headers: { cookie: admin } });
    expect(bodyless.status).toBe(200);
  });
});

describe('sign-out by navigation', () => {
  const signedIn = async (cookie: string) => (await api.call('/api/auth/user', { cookie })).status === 200;

  it.each([
    ['from another site', { 'sec-fetch-site': 'cross-site' }],
    // a plain-http site other than localhost gets no Fetch Metadata: where the link was is unknown
    ['from nowhere the browser says', {}],
  ])('%s shows a Sign out button instead of signing out', async (_name, headers) => {
    const cookie = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
    const response = await fetch(`${api.baseUrl}/api/logout`, { redirect: 'manual', headers: { cookie, ...headers } });
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain('<form method="post" action="/api/logout">');
    expect(page).toContain('<button type="submit">Sign out</button>');
    expect(await signedIn(cookie)).toBe(true);

    // the button posts from the site itself and signs out
    const confirmed = await fetch(`${api.baseUrl}/api/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(confirmed.status).toBe(303);
    expect(await signedIn(cookie)).toBe(false);
  });

  it('serves its pages, the sign-out question included, with a CSP that no other site may frame (no clickjacking)', async () => {
    for (const path of ['/api/login', '/api/login/link', '/api/logout']) {
      const response = await fetch(`${api.baseUrl}${path}`, { redirect: 'manual', headers: { 'sec-fetch-site': 'cross-site' } });
      expect([path, response.headers.get('content-security-policy')]).toEqual([path, expect.stringContaining("frame-ancestors 'none'")]);
    }
  });

  it('from the site itself, or typed in the address bar, signs out at once', async () => {
    for (const site of ['same-origin', 'none']) {
      const cookie = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
      const response = await fetch(`${api.baseUrl}/api/logout`, { redirect: 'manual', headers: { cookie, 'sec-fetch-site': site } });
      expect(response.status).toBe(303);
      expect(await signedIn(cookie)).toBe(false);
    }
  });

  it('refuses the confirmation posted from another site', async () => {
    const cookie = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
    const response = await fetch(`${api.baseUrl}/api/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:9999' },
    });
    expect(response.status).toBe(403);
    expect(await signedIn(cookie)).toBe(true);
  });
});
