import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from './support/test';
import { signIn } from './support/sign-in';
import { ADMIN } from './support/server';
import { suiteSiteUrl } from './support/suite-sites';

/**
 * Cross-site request forgery, tried as an attacker would, in Chromium: pages served from another port of the
 * site's host (same site, other origin: the session cookie's SameSite=Lax lets their requests carry it) and from
 * another host name (another site) post to the site while a visitor has it open.
 */
let attacker: Server;
let sameSite: string;
let crossSite: string;
const pages = new Map<string, string>();

test.beforeAll(async () => {
  attacker = createServer((request, response) => {
    response.writeHead(pages.has(request.url!) ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(pages.get(request.url!) ?? 'not found');
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  const { port } = attacker.address() as AddressInfo;
  sameSite = `http://127.0.0.1:${port}`;
  crossSite = `http://localhost:${port}`;
});
test.afterAll(() => new Promise<void>((resolve) => attacker.close(() => resolve())));

const site = () => suiteSiteUrl()!;
const autoSubmit = (action: string, fields: Record<string, string>) =>
  `<!doctype html><title>You won a prize</title><form method="post" action="${action}">${Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
    .join('')}</form><script>document.forms[0].submit()</script>`;

/** Serves `html` at `path` on the attacker's server and opens it from `origin`; resolves with the site's answer. */
async function visitAttack(page: Page, origin: string, path: string, html: string, answeredAt: string) {
  pages.set(path, html);
  const answer = page.waitForResponse((response) => response.url() === `${site()}${answeredAt}`);
  await page.goto(`${origin}${path}`);
  return answer;
}

async function firstBreaker(page: Page) {
  const breakers = (await (await page.request.get('/api/circuit-breakers')).json()) as { id: number; override: string }[];
  return breakers[0]!;
}

test('a form from another port of the same host cannot invite an admin with the visitor’s session', async ({ page }) => {
  await signIn(page);
  const answer = await visitAttack(
    page,
    sameSite,
    '/invite',
    autoSubmit(`${site()}/api/users/invite`, { email: 'planted-admin@example.com', role: 'admin' }),
    '/api/users/invite',
  );
  expect(answer.status()).toBe(403);
  // the browser did send the session cookie (SameSite=Lax lets a same-site form carry it): the refusal is the defence's
  expect((await answer.request().allHeaders())['cookie']).toContain('cbh.sid=');
  expect(await answer.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
  const users = (await (await page.request.get(`${site()}/api/users`)).json()) as { email: string }[];
  expect(users.map((user) => user.email)).not.toContain('planted-admin@example.com');
});

test('a same-site page cannot force a breaker open, nor reset one with a plain-text request', async ({ page }) => {
  await signIn(page);
  const breaker = await firstBreaker(page);
  expect(breaker.override).toBe('none');
  const refused: number[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(`${site()}/api/circuit-breakers/`)) refused.push(response.status());
  });
  await visitAttack(
    page,
    sameSite,
    '/force-open',
    autoSubmit(`${site()}/api/circuit-breakers/${breaker.id}/force-open`, {}),
    `/api/circuit-breakers/${breaker.id}/force-open`,
  );
  expect(refused).toEqual([403]);
  await page.goto('/');
  expect((await firstBreaker(page)).override).toBe('none');

  // A no-cors fetch with a text/plain body is the other request a page may send without a preflight. Its answer
  // is opaque to the page; what counts is that nothing changed.
  await page.request.post(`/api/circuit-breakers/${breaker.id}/force-open`, { data: {} });
  expect((await firstBreaker(page)).override).toBe('forced-open');
  pages.set(
    '/reset',
    `<!doctype html><script>fetch(${JSON.stringify(`${site()}/api/circuit-breakers/${breaker.id}/reset`)}, {
      method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: 'reset' })
      .then(() => { document.title = 'sent'; })</script>`,
  );
  const sent = page.waitForResponse((response) => response.url().endsWith(`/api/circuit-breakers/${breaker.id}/reset`));
  await page.goto(`${sameSite}/reset`);
  await sent;
  await expect(page).toHaveTitle('sent');
  await page.goto('/');
  expect((await firstBreaker(page)).override).toBe('forced-open');
  expect((await page.request.post(`/api/circuit-breakers/${breaker.id}/reset`, { data: {} })).status()).toBe(200);
});

test('a cross-site form cannot sign a visitor in as the attacker’s account (login CSRF)', async ({ page }) => {
  const answer = await visitAttack(page, crossSite, '/login', autoSubmit(`${site()}/api/login`, ADMIN), '/api/login');
  expect(answer.status()).toBe(403);
  await page.goto('/');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible();
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
});

test('a sign-out link on another site asks before signing out; the site’s own Logout signs out at once', async ({ page }) => {
  await signIn(page);
  pages.set('/links', `<!doctype html><title>Links</title><a href="${site()}/api/logout">Read more</a>`);
  await page.goto(`${crossSite}/links`);
  await page.getByRole('link', { name: 'Read more' }).click();
  await expect(page.getByRole('heading', { name: 'Sign out' })).toBeVisible();
  await expect(page.getByText('Do you want to sign out of Circuit Breaker Hub?')).toBeVisible();
  expect((await page.request.get('/api/auth/user')).status()).toBe(200);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible();
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);

  await signIn(page);
  await page.getByRole('banner').getByRole('link', { name: 'Logout' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible();
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
});
