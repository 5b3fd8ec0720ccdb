import { expect, test, type Locator, type Page } from './support/test';
import { Client } from 'pg';
import { seriousViolations } from './support/axe';
import { ACCOUNTS_ENV, ownDatabase, startSite, type Site } from './support/server';
import { signIn } from './support/sign-in';
import { freePort } from '../tools/testing/free-port.mjs';
import { simpleBreaker } from '../api/test/breaker-bodies';
import { shoot } from './support/shots';

/**
 * One way of doing each thing, on the notifications page and the domain screens of the production build, on a site
 * and database of their own (a delivery, a domain with an expiry): every moment relative with the exact time on
 * hover or tap, the page header's actions beside the title on a wide screen and under it on a phone, breakers picked
 * from the hub's list with a warning for a name it does not hold, and both pages as wide as the window at most.
 */
const DATABASE = `one_way_e2e_${process.pid}`;
const WIDE = { width: 1400, height: 900 };
const PHONE = { width: 390, height: 844 };
const BREAKER = 'Ledger Writer';
const DOMAIN = 'shop.example.test';

let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
let site: Site;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await ownDatabase(DATABASE);
  site = await startSite({ port: await freePort(), env: { ...ACCOUNTS_ENV, DATABASE_URL: database.url } });
});
test.afterAll(async () => {
  await site?.stop();
  await database?.drop();
});

async function signedIn(page: Page) {
  await page.setViewportSize(WIDE);
  await signIn(page, undefined, site.url);
}

async function post(page: Page, path: string, data: unknown) {
  const response = await page.request.post(`${site.url}${path}`, { data });
  expect(response.ok(), await response.text()).toBe(true);
  return response.json();
}

/** A <When>: relative words, the exact time in its title once hovered, and beside the words after a tap. */
async function expectMoment(moment: Locator, relative: RegExp) {
  await expect(moment).toHaveText(relative);
  await moment.hover();
  await expect(moment).toHaveAttribute('title', /\b20\d\d, \d\d:\d\d:\d\d\b/);
  const exact = (await moment.getAttribute('title')) ?? '';
  await moment.click();
  await expect(moment).toContainText(`(${exact})`);
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

test('the delivery log says when, relative, with the exact time on hover or tap', async ({ page }) => {
  await signedIn(page);
  const breaker = await post(page, '/api/circuit-breakers', simpleBreaker(BREAKER, { successThreshold: 1 }));
  const channel = await post(page, '/api/notification-channels', { name: 'API log', type: 'log' });
  await post(page, '/api/notification-rules', {
    name: 'Openings',
    channelIds: [channel.id],
    events: ['breaker.opened'],
    breakers: [BREAKER],
  });
  await post(page, `/api/circuit-breakers/${breaker.id}/force-open`, {});

  await page.goto(`${site.url}/notifications`);
  const log = page.getByRole('region', { name: 'Deliveries' });
  const row = log.getByRole('row').filter({ hasText: BREAKER }).first();
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expectMoment(row.locator('time').first(), /^(just now|\d+ minutes? ago)/);
  // the channel's last delivery reads the same way
  const channels = page.getByRole('region', { name: 'Notification channels' });
  await expect(channels.getByRole('row').filter({ hasText: 'API log' }).locator('time')).toHaveText(/^(just now|\d+ minutes? ago)$/);
  await shoot(page, 'oneway-notifications-1400', { fullPage: true });
});

test('the domain screens say when, relative, with the exact time on hover or tap', async ({ page }) => {
  await signedIn(page);
  await post(page, '/api/domains', { domain: DOMAIN });
  // what an RDAP answer would have filled in: the registration's end, in some four months
  const db = new Client({ connectionString: database!.url });
  await db.connect();
  try {
    await db.query(`UPDATE domains SET expires_at = now() + interval '120 days', registrar = 'Example Registrar' WHERE domain = $1`, [
      DOMAIN,
    ]);
  } finally {
    await db.end();
  }
  await page.goto(`${site.url}/domains`);
  const row = page.getByRole('region', { name: 'Domain portfolio', exact: true }).getByRole('row').filter({ hasText: DOMAIN });
  await expectMoment(row.locator('time'), /^in \d+ months?/);
  await shoot(page, 'oneway-domains-1400', { fullPage: true });
});

/** The header's title, description and first action, as drawn. */
async function header(page: Page, action: string) {
  const main = page.getByRole('main');
  const title = await main.getByRole('heading', { level: 1 }).boundingBox();
  const description = await main.locator('header p').first().boundingBox();
  const button = await main.locator('header').getByRole('button', { name: action, exact: true }).boundingBox();
  return { title: title!, description: description!, button: button! };
}

test('a page header has its actions on the right at 1,400 px and under the description on a phone', async ({ page }) => {
  await signedIn(page);
  await page.goto(`${site.url}/domains`);
  let drawn = await header(page, 'Add Domain');
  expect(drawn.button.x).toBeGreaterThan(drawn.title.x + drawn.title.width);
  expect(drawn.button.x).toBeGreaterThan(drawn.description.x + drawn.description.width);
  expect(drawn.button.y).toBeLessThan(drawn.description.y + drawn.description.height);

  await page.setViewportSize(PHONE);
  drawn = await header(page, 'Add Domain');
  expect(drawn.button.y).toBeGreaterThanOrEqual(drawn.description.y + drawn.description.height);
  expect(drawn.button.x + drawn.button.width).toBeLessThanOrEqual(PHONE.width);
});

test('the maintenance window form picks a breaker from the list and warns of a name the hub does not hold', async ({ page }) => {
  await signedIn(page);
  await page.goto(`${site.url}/notifications`);
  await page.getByRole('button', { name: 'Add window' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add maintenance window' });
  await dialog.getByLabel('Name').fill('Database upgrade');
  await dialog.getByLabel('Starts').fill('2030-05-01T22:00');
  await dialog.getByLabel('Ends').fill('2030-05-01T23:30');
  const breakers = dialog.getByRole('combobox', { name: 'Breakers' });
  await breakers.fill('ledg');
  await expect(dialog.getByRole('option', { name: BREAKER })).toBeVisible();
  const axe = [await seriousViolations(page, 'Window form, the list open')];
  await dialog.getByRole('option', { name: BREAKER }).click();
  await expect(dialog.getByRole('button', { name: `Remove ${BREAKER}` })).toBeVisible();
  await breakers.fill('Ledger Writre');
  await breakers.press('Enter');
  await expect(dialog.getByText('No breaker named Ledger Writre yet: it will match once one exists.')).toBeVisible();
  axe.push(await seriousViolations(page, 'Window form, an unknown breaker'));
  await shoot(page, 'oneway-window-form-1400');
  await dialog.getByRole('button', { name: 'Remove Ledger Writre' }).click();
  await expect(dialog.getByText(/No breaker named/)).toHaveCount(0);
  // a breaker already chosen is not offered again
  await breakers.fill('ledg');
  await expect(dialog.getByRole('option')).toHaveCount(0);
  await breakers.fill('');
  expect(axe.filter((result) => result.violations.length > 0)).toEqual([]);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const windows = await (await page.request.get(`${site.url}/api/maintenance-windows`)).json();
  expect(windows).toContainEqual(expect.objectContaining({ name: 'Database upgrade', breakers: [BREAKER], domains: [] }));
});

for (const [size, viewport] of [
  ['1400', WIDE],
  ['390', PHONE],
] as const) {
  test(`/notifications and /domains fit ${viewport.width} px with their actions in view`, async ({ page }) => {
    await signedIn(page);
    await page.setViewportSize(viewport);
    await page.goto(`${site.url}/notifications`);
    for (const add of ['Add rule', 'Add window']) {
      await page.getByRole('button', { name: add }).scrollIntoViewIfNeeded();
      await expect(page.getByRole('button', { name: add })).toBeInViewport();
    }
    await expect(page.getByRole('region', { name: 'Deliveries' })).toBeVisible();
    await noSidewaysScroll(page);
    await shoot(page, `oneway-notifications-${size}`, { fullPage: true });

    await page.goto(`${site.url}/domains`);
    await expect(page.getByRole('button', { name: 'Add Domain', exact: true })).toBeInViewport();
    await expect(page.getByRole('region', { name: 'Domain portfolio', exact: true })).toBeVisible();
    await noSidewaysScroll(page);
    await shoot(page, `oneway-domains-${size}`, { fullPage: true });

    await page.goto(`${site.url}/notifications`);
    await page.getByRole('button', { name: 'Add window' }).click();
    await page.getByRole('dialog', { name: 'Add maintenance window' }).getByRole('combobox', { name: 'Breakers' }).fill('ledg');
    await expect(page.getByRole('option', { name: BREAKER })).toBeVisible();
    await noSidewaysScroll(page);
    await shoot(page, `oneway-window-form-${size}`);
  });
}
