import { mkdtempSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser } from './support/test';
import { validateXML } from 'xmllint-wasm';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '@cbh/embedded-postgres';
import type { StatusPageView } from '@cbh/contracts';
import { startSmtpSink } from '../api/test/smtp-sink';
import { freePort } from '../tools/testing/free-port.mjs';
import { seriousViolations } from './support/axe';
import { ACCOUNTS_ENV, ROOT, SCRATCH, startSite, type Site } from './support/server';
import { apiSignIn, createBreaker, siteApi } from './support/site-api';
import { shoot } from './support/shots';

test.skip(Boolean(process.env.DATABASE_URL), 'the test stops a PostgreSQL of its own');

/**
 * The public status page as the people who depend on a service see it, against the production build and the real
 * API on a PostgreSQL of its own: with JavaScript off, a breaker forced open shows as a partial outage within 5 s;
 * the badge follows; a confirmed subscriber gets the incident's mail and its unsubscribe link works; the Atom feed
 * validates against RFC 4287's schema; and with the database stopped, the page still answers.
 */
let database: EmbeddedDatabase;
let site: Site;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let admin: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  smtp = await startSmtpSink();
  database = await startEmbeddedPostgres({
    dataDir: mkdtempSync(path.join(SCRATCH, 'status-public-')),
    port: await freePort(),
    database: 'circuit_breaker_hub',
  });
  const port = await freePort();
  site = await startSite({
    port,
    env: { ...ACCOUNTS_ENV, DATABASE_URL: database.url, PUBLIC_URL: `http://127.0.0.1:${port}`, SMTP_URL: smtp.url },
  });
  admin = await apiSignIn(site);
});

test.afterAll(async () => {
  await site?.stop();
  await database?.stop().catch(() => undefined);
  await smtp?.stop();
});

const withoutScript = (browser: Browser, width = 1400, height = 900) =>
  browser.newContext({ baseURL: site.url, javaScriptEnabled: false, viewport: { width, height } }).then((context) => context.newPage());

/** The text of the last mail to an address that contains a piece of text, quoted-printable soft breaks undone. */
const mailTo = (address: string, containing: string) =>
  smtp.mails
    .filter((mail) => mail.to.includes(address))
    .map((mail) => mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='))
    .filter((raw) => raw.includes(containing))
    .at(-1);

test('a published component follows its breaker, its badge too; a confirmed subscriber is mailed the incident and can unsubscribe', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const breaker = await createBreaker(site, admin, 'checkout-payments');
  const other = await createBreaker(site, admin, 'checkout-stock');
  const created = await siteApi(site, admin, '/api/status-pages', 'POST', {
    slug: 'shop',
    title: 'Example Shop',
    description: 'Everything our customers use.',
    public: true,
    components: [
      // one of its two breakers open: a partial outage
      { name: 'Checkout', group: 'Buying', breakers: [breaker.id, other.id] },
      { name: 'Catalogue', group: 'Browsing' },
    ],
  });
  expect(created.status).toBe(201);
  const statusPage = (await created.json()) as StatusPageView;

  // subscribe and confirm, as a reader would: the form, the mail, the confirmation page's button
  const page = await withoutScript(browser);
  await page.goto('/status/shop');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Example Shop');
  await expect(page.getByText('All systems operational')).toBeVisible();
  await page.getByRole('textbox', { name: 'Your e-mail address' }).fill('reader@example.com');
  await page.getByRole('button', { name: /subscribe/i }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  await expect(page.getByText('a link to confirm the subscription is on its way')).toBeVisible();
  await expect.poll(() => mailTo('reader@example.com', '/confirm?code=')).toBeTruthy();
  const confirm = /http:\/\/\S+\/status\/shop\/confirm\?code=[\w.-]+/.exec(mailTo('reader@example.com', '/confirm?code=')!)![0];
  await page.goto(confirm.replace(/^http:\/\/[^/]+/, ''));
  await page.getByRole('button', { name: 'Confirm subscription' }).click();
  await expect(page.getByRole('heading', { name: 'Subscription confirmed' })).toBeVisible();

  // the breaker forced open: the page with JavaScript off shows the outage within 5 s
  await page.goto('/status/shop');
  expect((await siteApi(site, admin, `/api/circuit-breakers/${breaker.id}/force-open`, 'POST')).status).toBe(200);
  const opened = Date.now();
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('heading', { level: 2, name: 'Partial outage' }).or(page.getByText('Partial outage').first())).toBeVisible({
      timeout: 200,
    });
  }).toPass({ timeout: 5000, intervals: [250] });
  const seenAfter = Date.now() - opened;
  console.log(`public page showed partial_outage ${seenAfter} ms after the breaker was forced open`);
  expect(seenAfter).toBeLessThanOrEqual(5000);
  const badge = await (await fetch(`${site.url}/badge/shop.svg`)).text();
  expect(badge).toContain('Partial outage');
  expect(await (await fetch(`${site.url}/badge/shop/Checkout.svg`)).text()).toContain('Partial outage');
  expect(await (await fetch(`${site.url}/badge/shop/Catalogue.svg`)).text()).toContain('Operational');
  await shoot(page, 'status-public-1400', { fullPage: true });

  // an incident: the subscriber's mail, its unsubscribe link opened and its button pressed
  const incident = await siteApi(site, admin, `/api/status-pages/${statusPage.id}/incidents`, 'POST', {
    title: 'Card payments failing',
    impact: 'major',
    components: [{ id: statusPage.components[0]!.id, state: 'major_outage' }],
    message: 'Card payments **fail** for some customers. We are on it.',
  });
  expect(incident.status).toBe(201);
  await expect.poll(() => mailTo('reader@example.com', 'Card payments failing'), { timeout: 15_000 }).toBeTruthy();
  const mail = mailTo('reader@example.com', 'Card payments failing')!;
  expect(mail).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
  const unsubscribe = /http:\/\/\S+\/status\/shop\/unsubscribe\?code=[\w.-]+/.exec(mail)![0];
  await page.goto(unsubscribe.replace(/^http:\/\/[^/]+/, ''));
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  const subscribers = await (await siteApi(site, admin, `/api/status-pages/${statusPage.id}/subscribers`)).json();
  expect(subscribers).toEqual([]);

  // the page on a phone, with the incident and its timeline
  const phone = await withoutScript(browser, 390, 844);
  await phone.goto('/status/shop');
  await expect(phone.getByText('Card payments failing').first()).toBeVisible();
  expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth).catch(() => 0)).toBeLessThanOrEqual(0);
  await shoot(phone, 'status-public-390', { fullPage: true });
});

test('the page is accessible, its Atom feed validates, and it is small', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: site.url, viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const response = await page.goto('/status/shop');
  expect((await response!.body()).length).toBeLessThanOrEqual(50 * 1024);
  expect(await seriousViolations(page, 'status page')).toEqual({ where: 'status page', violations: [] });
  const feed = await fetch(`${site.url}/status/shop/feed.atom`);
  expect(feed.headers.get('content-type')).toContain('application/atom+xml');
  const xml = await feed.text();
  expect(xml).toContain('Card payments failing');
  const schema = { fileName: 'atom.rng', contents: readFileSync(path.join(ROOT, 'api/src/status/public/atom.rng'), 'utf8') };
  const result = await validateXML({ xml: { fileName: 'feed.atom', contents: xml }, schema, extension: 'relaxng' });
  expect({ valid: result.valid, errors: result.errors.map((error) => error.message) }).toEqual({ valid: true, errors: [] });
});

test('with the database stopped, every replica keeps serving the last rendering, saying how old it is', async ({ browser }) => {
  const page = await withoutScript(browser);
  await page.goto('/status/shop');
  await expect(page.getByText('Card payments failing').first()).toBeVisible();
  const live = await (await fetch(`${site.url}/api/public/status/shop`)).json();
  expect(live.state).toBe('major_outage');
  await database.stop();
  // past the rendering's freshness: the next request tries the database, fails, and serves the last one
  await new Promise((resolve) => setTimeout(resolve, 3500));
  // a visitor new to the page (the first one's browser may show its own copy a few seconds: stale-while-revalidate)
  const visitor = await withoutScript(browser);
  const response = await visitor.goto('/status/shop');
  expect(response!.status()).toBe(200);
  await expect(visitor.getByText(/Showing the status as of/)).toBeVisible();
  await expect(visitor.getByText('Card payments failing').first()).toBeVisible();
  const summary = await fetch(`${site.url}/api/public/status/shop`);
  expect(summary.status).toBe(200);
  expect(await summary.json()).toEqual(live);
});
