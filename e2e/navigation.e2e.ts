import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from './support/test';
import { linkIn, startSmtpSink } from '../api/test/smtp-sink';
import { freePort } from '../tools/testing/free-port.mjs';
import { seriousViolations } from './support/axe';
import { ACCOUNTS_ENV, ADMIN, DIST, ownDatabase, startSite, type Site } from './support/server';
import { apiSignIn, createBreaker, siteApi } from './support/site-api';
import { shoot } from './support/shots';

/**
 * The top bar and the pages it reaches, on a site of its own (a database of its own and an SMTP server on loopback):
 * one row from 900 px up, every page highlighted when shown, the settings for the holders of their own permission
 * (an account invited here and given system_admin alone), New breaker on the wall and the system settings on a phone.
 */
const DATABASE = `navigation_e2e_${process.pid}`;
const SYSTEM_ADMIN = { email: 'sysadmin@example.com', password: 'system-admin-password-e2e' };

let site: Site;
let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
let smtp: Awaited<ReturnType<typeof startSmtpSink>> | undefined;
let admin: string;

test.describe.configure({ mode: 'serial' });

/** The built learning remote as an upload: a version for the releases page to list, never promoted. */
function upload() {
  const folder = path.join(DIST, 'mfe-patterns');
  const files = readdirSync(folder).map((name) => ({ path: name, content: readFileSync(path.join(folder, name)).toString('base64') }));
  return { gitCommit: 'e2e0a0b', files };
}

/** An account invited through the API, its password set through the e-mailed link, then given system_admin alone. */
async function inviteSystemAdmin() {
  const invited = await siteApi(site, admin, '/api/users/invite', 'POST', { email: SYSTEM_ADMIN.email, role: 'viewer' });
  expect(invited.status, await invited.clone().text()).toBeLessThan(300);
  const { id } = (await invited.json()) as { id: string };
  await expect.poll(() => smtp!.mails.filter((mail) => mail.to.includes(SYSTEM_ADMIN.email)).length, { timeout: 15_000 }).toBe(1);
  const link = linkIn(
    smtp!.mails.find((mail) => mail.to.includes(SYSTEM_ADMIN.email))!,
    /http:\/\/127\.0\.0\.1:\d+\/api\/invitations\/[\w-]+/,
  );
  const accepted = await fetch(link, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: SYSTEM_ADMIN.password, firstName: 'Sam' }),
  });
  expect(accepted.status, await accepted.clone().text()).toBe(200);
  const granted = await siteApi(site, admin, `/api/users/${id}/permissions`, 'PATCH', { permissions: ['system_admin'] });
  expect(granted.status, await granted.clone().text()).toBe(200);
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  smtp = await startSmtpSink();
  database = await ownDatabase(DATABASE);
  const port = await freePort();
  site = await startSite({
    port,
    env: { ...ACCOUNTS_ENV, DATABASE_URL: database.url, PUBLIC_URL: `http://127.0.0.1:${port}`, SMTP_URL: smtp.url },
  });
  admin = await apiSignIn(site);
  await createBreaker(site, admin, 'nav-quiet');
  const uploaded = await siteApi(site, admin, '/api/releases/mfe_patterns/versions', 'POST', upload());
  expect(uploaded.status, await uploaded.clone().text()).toBe(201);
  await inviteSystemAdmin();
});

test.afterAll(async () => {
  await site?.stop();
  await database?.drop();
  await smtp?.stop();
});

async function signedIn(browser: Browser, account: { email: string; password: string }, width = 1400, height = 900): Promise<Page> {
  const context = await browser.newContext({ baseURL: site.url, viewport: { width, height } });
  const page = await context.newPage();
  await page.goto('/api/login?method=password');
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${site.url}/`);
  return page;
}

const mainNav = (page: Page) => page.getByRole('banner').getByRole('navigation', { name: 'Main' });
/** How far the page, or the main area that scrolls inside it, reaches past its width (0 or less: not at all). */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const main = document.querySelector('main');
    return Math.max(document.documentElement.scrollWidth - window.innerWidth, main ? main.scrollWidth - main.clientWidth : 0);
  });

/**
 * The bar's height, how far apart its parts' vertical middles are (a second row would be 30 px or more), how far
 * its last part reaches past the window's right edge and how many parts overlap the one before (a row that does not
 * fit would rather overflow or overlap than wrap).
 */
const barRow = (page: Page) =>
  page.getByRole('banner').evaluate((bar) => {
    const boxes = [...bar.querySelectorAll('a, button, [data-testid="live-status"]')]
      .map((element) => element.getBoundingClientRect())
      .filter((box) => box.width > 0 && box.height > 0);
    const middles = boxes.map((box) => box.top + box.height / 2);
    const byLeft = [...boxes].sort((a, b) => a.left - b.left);
    return {
      overlaps: byLeft.filter((box, i) => i > 0 && box.left < byLeft[i - 1]!.right - 0.5).length,
      height: Math.round(bar.getBoundingClientRect().height),
      spread: Math.round(Math.max(...middles) - Math.min(...middles)),
      past: Math.round(Math.max(...boxes.map((box) => box.right)) - window.innerWidth),
    };
  });

test('the top bar keeps one row from 900 px up on every page, and the page shown does not widen its link', async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await signedIn(browser, ADMIN);
  const pages = ['/', '/dashboard', '/circuit-breakers', '/domains', '/users', '/load-test', '/settings/system', '/status-pages'];
  for (const pathname of pages) {
    for (const width of [900, 1100, 1280, 1400]) {
      // each width loads the page at that width: Chromium at times kept a page's media queries as they were at the
      // width it was loaded at when the window was narrowed right after (matchMedia said 900 px, the styles 1400),
      // in one run in four to eight
      await page.setViewportSize({ width, height: 900 });
      await page.goto(pathname);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await expect(page.getByTestId('live-status')).toHaveText('Live');
      // the charts follow their box through a ResizeObserver, which runs with the next frame: measure after it
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const row = await barRow(page);
      const where = `${pathname} at ${width} px: ${JSON.stringify(row)}`;
      expect(row.height, where).toBeLessThanOrEqual(57);
      expect(row.spread, where).toBeLessThanOrEqual(4);
      expect(row.past, where).toBeLessThanOrEqual(-8);
      expect(row.overlaps, where).toBe(0);
      expect(await overflow(page), `${pathname} at ${width} px`).toBeLessThanOrEqual(0);
      if (pathname === '/circuit-breakers' || pathname === '/users') await shoot(page, `navigation-${pathname.slice(1)}-${width}`);
    }
  }
  // the active link keeps the weight of the others: only its colour and underline change
  await page.goto('/dashboard');
  const weight = (name: string) =>
    mainNav(page)
      .getByRole('link', { name, exact: true })
      .evaluate((a) => getComputedStyle(a).fontWeight);
  expect(await weight('Dashboard')).toBe(await weight('Home'));
  await page.context().close();
});

test('every page is highlighted when shown: on the row, or More and its link under it', async ({ browser }) => {
  const page = await signedIn(browser, ADMIN);
  await page.goto('/circuit-breakers');
  await expect(mainNav(page).getByRole('link', { name: 'Circuit Breakers' })).toHaveAttribute('aria-current', 'page');
  const more = mainNav(page).getByRole('button', { name: 'More' });
  await expect(more).not.toHaveClass(/active/);

  const underMore = {
    '/load-test': 'Load Test',
    '/scrape-targets': 'Scrape Targets',
    '/notifications': 'Notifications',
    '/settings/organisation': 'Organisation',
    '/settings/system': 'System',
    '/settings/releases': 'Releases',
  };
  for (const [pathname, name] of Object.entries(underMore)) {
    await page.goto('/dashboard');
    await more.click();
    await mainNav(page).getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL(`${site.url}${pathname}`);
    await expect(more).toHaveClass(/active/);
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await more.click();
    await expect(mainNav(page).locator('[aria-current="page"]')).toHaveText([name]);
    if (pathname === '/settings/system') {
      await shoot(page, 'navigation-more-open-1400');
      expect(await seriousViolations(page, 'the top bar with More open')).toEqual({ where: 'the top bar with More open', violations: [] });
    }
    await page.keyboard.press('Escape');
    await expect(more).toHaveAttribute('aria-expanded', 'false');
  }
  await page.context().close();
});

test('a system_admin without user_management reaches System and Releases from More, and not User Management', async ({ browser }) => {
  const page = await signedIn(browser, SYSTEM_ADMIN);
  const more = mainNav(page).getByRole('button', { name: 'More' });
  await more.click();
  await expect(mainNav(page).getByRole('group', { name: 'Settings' }).getByRole('link')).toHaveText(['System', 'Releases']);
  await expect(mainNav(page).getByRole('link', { name: 'User Management' })).toHaveCount(0);
  await mainNav(page).getByRole('link', { name: 'Releases' }).click();
  await expect(page).toHaveURL(`${site.url}/settings/releases`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Releases');
  const patterns = page.getByTestId('release-mfe_patterns');
  await expect(patterns.getByRole('button', { name: /^Promote/ })).toBeVisible();
  await expect(patterns.getByRole('button', { name: /^Rollback/ })).toBeVisible();

  await more.click();
  await mainNav(page).getByRole('link', { name: 'System', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('System');
  await expect(page.getByRole('form', { name: 'Retention settings' })).toBeVisible();
  await page.context().close();
});

test('the wall offers New breaker in its header, and a breaker with no traffic shows no figures but says so', async ({ browser }) => {
  const page = await signedIn(browser, ADMIN);
  await page.goto('/circuit-breakers');
  const header = page.locator('main header').first();
  const tile = page.getByRole('article', { name: 'nav-quiet' });
  await expect(tile).toBeVisible();
  await expect(tile.getByTestId('no-traffic')).toHaveText('no traffic');
  await expect(tile.locator('dd')).toHaveText(['0', '—', '—', '—']);
  await shoot(page, 'navigation-wall-1400');
  await header.getByRole('link', { name: 'New breaker' }).click();
  await expect(page).toHaveURL(`${site.url}/circuit-breakers/new`);
  await expect(mainNav(page).getByRole('link', { name: 'Circuit Breakers' })).toHaveAttribute('aria-current', 'page');
  await page.context().close();
});

test('the system settings and the releases fit a 390 × 844 phone, and the phone menu lists the settings', async ({ browser }) => {
  const page = await signedIn(browser, ADMIN, 390, 844);
  // a prune has run: its table of what it removed is on the System page too
  expect((await page.request.post('/api/system/retention/prune')).status()).toBe(200);
  for (const pathname of ['/settings/system', '/settings/releases']) {
    await page.goto(pathname);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    if (pathname === '/settings/system') {
      await expect(page.getByRole('button', { name: 'Save' })).toBeInViewport();
      await expect(page.getByRole('button', { name: 'Prune now' })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Removed by the last prune' })).toBeVisible();
    } else {
      const patterns = page.getByTestId('release-mfe_patterns');
      await expect(patterns.getByRole('button', { name: /^Rollback/ })).toBeVisible();
      const promote = patterns.getByRole('button', { name: /^Promote/ });
      await expect(promote).toBeVisible();
      const box = (await promote.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      await shoot(patterns, 'navigation-release-card-390');
    }
    expect(await overflow(page), pathname).toBeLessThanOrEqual(0);
    await shoot(page, `navigation${pathname.replaceAll('/', '-')}-390`, { fullPage: true });
  }
  await page.goto('/users');
  await page.getByRole('tab', { name: 'System' }).click();
  await expect(page.getByRole('form', { name: 'Retention settings' })).toBeVisible();
  expect(await overflow(page), '/users System tab').toBeLessThanOrEqual(0);
  await shoot(page, 'navigation-users-system-390', { fullPage: true });

  await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu.getByRole('group', { name: 'Settings' }).getByRole('link')).toHaveText(['Organisation', 'System', 'Releases']);
  await menu.getByRole('link', { name: 'Load Test' }).click();
  await expect(page).toHaveURL(`${site.url}/load-test`);
  await page.context().close();
});
