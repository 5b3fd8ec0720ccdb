import { expect, test, type Browser, type Page } from './support/test';
import { ADMIN, DEMO_PASSWORD, startOwnSite, type Site } from './support/server';

/**
 * The Account page against the production build, on a site and database of its own (the journeys change an
 * account's permissions): a token made in the browser works from a script until its owner loses the permission.
 */
const OPERATOR = { email: 'operator@example.com', password: DEMO_PASSWORD };

let site: Site;
let adminCookie: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  site = await startOwnSite('account-data');
  const login = await fetch(`${site.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  adminCookie = login.headers.get('set-cookie')!.split(';')[0]!;
});

test.afterAll(async () => {
  await site?.stop();
});

/** A request as the admin, through the API a user manager's screen uses. */
async function asAdmin(pathname: string, method = 'GET', body?: unknown) {
  const response = await fetch(`${site.url}${pathname}`, {
    method,
    headers: { cookie: adminCookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(response.status, `${method} ${pathname}`).toBeLessThan(300);
  return response;
}

async function operatorId(): Promise<string> {
  const users = (await (await asAdmin('/api/users')).json()) as { id: string; email: string }[];
  return users.find((user) => user.email === OPERATOR.email)!.id;
}

async function signedInPage(browser: Browser, account: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${site.url}/api/login?method=password`);
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${site.url}/`);
  return page;
}

const withToken = (token: string, pathname: string) => fetch(`${site.url}${pathname}`, { headers: { authorization: `Bearer ${token}` } });

test('a token created on /account calls the API until its owner is demoted, then the next call is a 403', async ({ browser }) => {
  const id = await operatorId();
  await asAdmin(`/api/users/${id}/permissions`, 'PATCH', {
    permissions: ['dashboard_view', 'circuit_breaker_view', 'metrics_view', 'api_access'],
  });
  const page = await signedInPage(browser, OPERATOR);

  await page.getByTestId('account-name').click();
  await expect(page).toHaveURL(`${site.url}/account`);
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Profile' })).toContainText(OPERATOR.email);

  await page.getByRole('button', { name: 'New Token' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Access Token' });
  await dialog.getByLabel('Token name').fill('e2e-script');
  await dialog.getByLabel('Expires in (days)').fill('7');
  await dialog.getByRole('button', { name: 'Create Token' }).click();
  const token = await dialog.getByLabel('Access token').inputValue();
  expect(token).toMatch(/^cbh_[A-Za-z0-9_-]{43,}$/);
  await dialog.getByRole('button', { name: 'Done' }).click();

  const table = page.getByRole('region', { name: 'Your access tokens' });
  await expect(table.getByRole('cell', { name: 'e2e-script', exact: true })).toBeVisible();
  await expect(table).not.toContainText(token);

  expect((await withToken(token, '/api/circuit-breakers')).status).toBe(200);
  // the list says where it was used last, from the script's address
  await page.reload();
  await expect(page.getByRole('region', { name: 'Your access tokens' }).getByRole('row').filter({ hasText: 'e2e-script' })).toContainText(
    '127.0.0.1',
  );

  await asAdmin(`/api/users/${id}/permissions`, 'PATCH', { permissions: ['dashboard_view', 'api_access'] });
  const refused = await withToken(token, '/api/circuit-breakers');
  expect(refused.status).toBe(403);

  // revoked from the page, it is refused altogether
  await page.getByRole('button', { name: 'Revoke e2e-script' }).click();
  await page.getByRole('alertdialog', { name: 'Revoke token' }).getByRole('button', { name: 'Revoke' }).click();
  // while the confirmation is open the page behind it is hidden from the accessibility tree: wait for it to close
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(page.getByText('Token Revoked', { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your access tokens' }).getByRole('cell', { name: 'e2e-script', exact: true })).toHaveCount(
    0,
  );
  expect((await withToken(token, '/api/dashboard/activity')).status).toBe(401);
});

test('signing out everywhere else from /account signs the other browser’s open page out by itself', async ({ browser }) => {
  const elsewhere = await signedInPage(browser, OPERATOR);
  await elsewhere.goto(`${site.url}/dashboard`);
  await expect(elsewhere.getByTestId('live-status')).toHaveText('Live');
  await expect(elsewhere.getByTestId('account-name')).toBeVisible();

  const here = await signedInPage(browser, OPERATOR);
  await here.goto(`${site.url}/account`);
  const sessions = here.getByRole('region', { name: 'Your sessions' });
  // both browsers' sessions are listed (the first test's may be there too), this one marked
  await expect(sessions.getByRole('row').filter({ hasText: 'This session' })).toHaveCount(1);
  expect(await sessions.getByRole('row').count()).toBeGreaterThanOrEqual(3);

  await here.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await here.getByRole('alertdialog', { name: 'Sign out everywhere else' }).getByRole('button', { name: 'Sign out' }).click();
  await expect(here.getByText(/^\d+ other sessions? ended, \d+ access tokens? revoked\.$/)).toBeVisible();

  // the other page was not touched: it shows itself signed out on its own, and its session no longer works
  await expect(elsewhere.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible({ timeout: 10_000 });
  await expect(elsewhere.getByTestId('account-name')).toHaveCount(0);
  expect((await elsewhere.request.get(`${site.url}/api/auth/user`)).status()).toBe(401);
  // this one stays signed in, its own session the only one left
  await expect(sessions.getByRole('row')).toHaveCount(2);
  await expect(here.getByTestId('account-name')).toBeVisible();
});
