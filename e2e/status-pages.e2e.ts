import { expect, test, type Browser } from './support/test';
import { freePort } from '../tools/testing/free-port.mjs';
import { ACCOUNTS_ENV, ownDatabase, startSite, type Site } from './support/server';
import { checkScreen, signedInOn } from './support/screens';
import { apiSignIn, createBreaker, siteApi } from './support/site-api';

/**
 * The status pages remote against the production build and the real API, on a site of its own: a page created in the
 * browser with a component that includes a breaker shows the breaker's state; an incident opened from the breaker's
 * page (prefilled), updated and resolved; axe and no sideways scroll at 1400 and 390 px.
 */
const DATABASE = `status_pages_e2e_${process.pid}`;

let site: Site;
let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
let admin: string;
let breaker: { id: number; name: string };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await ownDatabase(DATABASE);
  const port = await freePort();
  site = await startSite({ port, env: { ...ACCOUNTS_ENV, DATABASE_URL: database.url, PUBLIC_URL: `http://127.0.0.1:${port}` } });
  admin = await apiSignIn(site);
  breaker = await createBreaker(site, admin, 'status-checkout');
});

test.afterAll(async () => {
  await site?.stop();
  await database?.drop();
});

const signedIn = (browser: Browser, width?: number, height?: number) => signedInOn(site, browser, width, height);

test('creates a page with a component including a breaker, and shows the breaker’s state on it', async ({ browser }) => {
  const page = await signedIn(browser);
  await page.goto('/notifications');
  await page.locator('main header').getByRole('link', { name: 'Status pages' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Status Pages');
  await expect(page.getByText('No status pages yet')).toBeVisible();
  await checkScreen(page, 'the empty list at 1400 px');

  await page.getByRole('button', { name: 'New status page' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New status page' });
  await dialog.getByLabel('Title').fill('Checkout');
  await expect(dialog.getByLabel('Slug')).toHaveValue('checkout');
  await dialog.getByLabel(/^Public/).check();
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Checkout');

  await page.getByRole('button', { name: 'Add component' }).click();
  const add = page.getByRole('dialog', { name: 'Add component' });
  await add.getByLabel('Name').fill('Card payments');
  await add.getByRole('checkbox', { name: new RegExp(breaker.name) }).check();
  await add.getByRole('button', { name: 'Save' }).click();
  const table = page.getByRole('table', { name: 'Components' });
  await expect(table.getByRole('row', { name: /Card payments/ }).getByTestId('component-state')).toHaveText('Operational');

  expect((await siteApi(site, admin, `/api/circuit-breakers/${breaker.id}/force-open`, 'POST')).status).toBe(200);
  await expect(table.getByRole('row', { name: /Card payments/ }).getByTestId('component-state')).toHaveText('Major outage', {
    timeout: 15_000,
  });
  await checkScreen(page, 'a status page’s components at 1400 px');
  await page.context().close();
});

test('opens an incident from the open breaker’s page, posts an update and resolves it', async ({ browser }) => {
  const page = await signedIn(browser);
  await page.goto(`/circuit-breakers/${breaker.id}`);
  const offer = page.getByRole('region', { name: 'Open an incident' });
  await offer.getByRole('link', { name: 'Card payments on Checkout' }).click();
  const form = page.getByRole('form', { name: 'Open incident' });
  await expect(form.getByRole('checkbox', { name: 'Card payments' })).toBeChecked();
  await expect(form.getByLabel('State of Card payments')).toHaveValue('partial_outage');
  await form.getByLabel('Title').fill('Card payments failing');
  await form.getByLabel('Message').fill('We are **investigating** failed card payments.');
  await form.getByRole('button', { name: 'Open incident' }).click();

  const incident = page.getByRole('article', { name: 'Card payments failing' });
  await expect(incident.locator('li > div strong', { hasText: 'investigating' })).toBeVisible();
  await incident.getByRole('button', { name: 'Post update' }).click();
  await incident.getByLabel(/^Status/).selectOption('identified');
  await incident.getByLabel(/^Message/).fill('The card processor is down.');
  await incident.getByRole('button', { name: 'Post update' }).click();
  await expect(incident.getByText('The card processor is down.')).toBeVisible();
  await checkScreen(page, 'an open incident at 1400 px');

  await incident.getByRole('button', { name: 'Post update' }).click();
  await incident.getByLabel(/^Status/).selectOption('resolved');
  await incident.getByLabel(/^Message/).fill('Fixed.');
  await incident.getByRole('button', { name: 'Resolve' }).click();
  await expect(page.getByRole('region', { name: 'Resolved' }).getByRole('article', { name: 'Card payments failing' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Open incidents' }).getByText('No open incidents')).toBeVisible();
  await page.context().close();
});

test('fits a 390 px phone without sideways scroll, with no serious axe violation', async ({ browser }) => {
  const page = await signedIn(browser, 390, 844);
  await page.goto('/status-pages');
  await expect(page.getByRole('table', { name: 'Status pages' })).toBeVisible();
  await checkScreen(page, 'the list at 390 px');
  await page.getByRole('link', { name: 'Checkout', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Checkout');
  for (const tab of ['Components', 'Incidents', 'Subscribers', 'Appearance']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tabpanel')).toBeVisible();
    await checkScreen(page, `the ${tab} tab at 390 px`);
  }
  await page.context().close();
});
