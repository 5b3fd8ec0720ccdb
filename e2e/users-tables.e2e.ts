import { expect, test, type Page } from './support/test';
import { ADMIN, startOwnSite, type Site } from './support/server';
import { shoot } from './support/shots';

/**
 * The tables of /users against the production build, on a site of its own with 70 invited accounts: they fit at
 * 1,100 and 1,400 px and on a 390 px phone, page and search on the server, keep every row action reachable, and
 * name permissions for people.
 */
let site: Site;
let cookie: string;

test.describe.configure({ mode: 'serial' });

const TABS = ['All Users', 'Role Management', 'Permissions', 'Service Accounts', 'Audit Log'];
const WIDTHS = [
  { width: 1100, height: 900 },
  { width: 1400, height: 900 },
  { width: 390, height: 844 },
];

test.beforeAll(async () => {
  site = await startOwnSite('users-tables-data');
  const login = await fetch(`${site.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  for (let n = 1; n <= 70; n += 1) {
    const response = await fetch(`${site.url}/api/users/invite`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ email: `member-${String(n).padStart(2, '0')}@tables.example.com`, role: 'viewer' }),
    });
    expect(response.status).toBe(201);
  }
});

test.afterAll(async () => {
  await site?.stop();
});

async function signIn(page: Page) {
  await page.goto(`${site.url}/api/login?method=password`);
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${site.url}/`);
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

for (const size of WIDTHS) {
  test(`every tab of /users fits ${size.width} px, and a row's actions are reachable`, async ({ page }) => {
    await page.setViewportSize(size);
    await signIn(page);
    await page.goto(`${site.url}/users`);
    const table = page.getByRole('table', { name: 'Users' });
    await expect(table).toBeVisible();
    for (const tab of TABS) {
      await page.getByRole('tab', { name: tab }).click();
      await page.waitForTimeout(300);
      expect.soft(await overflow(page), `${tab} at ${size.width} px`).toBeLessThanOrEqual(0);
      // no table scrolls sideways inside the page either
      const wide = await page
        .locator('main table')
        .evaluateAll((tables) => tables.filter((table) => table.parentElement!.scrollWidth > table.parentElement!.clientWidth + 1).length);
      expect.soft(wide, `tables scrolling sideways on ${tab} at ${size.width} px`).toBe(0);
      if (tab === 'Permissions' && size.width < 500) {
        // the permission matrix reads as a list on a phone: each permission with the roles that grant it
        const matrix = page.getByRole('main').locator('dl[aria-label="Permission matrix"]');
        await expect(matrix.locator('div').filter({ hasText: 'View dashboard' })).toContainText(
          'Viewer, Operator, Administrator, Super Administrator',
        );
      }
      await shoot(page, `tables-${tab.replace(/ /g, '-').toLowerCase()}-${size.width}`, { fullPage: true });
    }
    await page.getByRole('tab', { name: 'All Users' }).click();
    const menu = page.getByRole('button', { name: 'Actions for member-01@tables.example.com' });
    await menu.scrollIntoViewIfNeeded();
    await expect(menu).toBeInViewport();
    await menu.click();
    const actions = page.getByRole('group', { name: 'Actions for member-01@tables.example.com' });
    for (const action of ['Change role', 'Permissions', 'End sessions', 'Delete']) {
      await expect(actions.getByRole('button', { name: action })).toBeInViewport();
    }
    await shoot(page, `tables-menu-${size.width}`);
    await actions.getByRole('button', { name: 'End sessions' }).click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await page.keyboard.press('Escape');
  });
}

test('74 accounts come a page of 25 at a time; the search finds one; the figures count them all', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page);
  await page.goto(`${site.url}/users`);
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table.getByRole('row')).toHaveCount(26);
  const total = await (await fetch(`${site.url}/api/users/summary`, { headers: { cookie } })).json();
  expect(total.total).toBeGreaterThanOrEqual(74);
  await expect(page.getByText(`1–25 of ${total.total}`)).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText(`26–50 of ${total.total}`)).toBeVisible();
  await page.getByLabel('Search users by name or e-mail').fill('member-42@');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByText('member-42@tables.example.com')).toBeVisible();
  await expect(page.getByText(/of \d+$/)).toHaveCount(0);
});

test('permissions are named for people, with the key as a hint', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page);
  await page.goto(`${site.url}/users`);
  await page.getByRole('tab', { name: 'Permissions' }).click();
  await expect(page.getByRole('rowheader', { name: /View dashboard/ })).toContainText('dashboard_view');
  await page.getByRole('tab', { name: 'All Users' }).click();
  await page.getByRole('button', { name: 'Actions for member-01@tables.example.com' }).click();
  await page.getByRole('button', { name: 'Permissions' }).click();
  await expect(page.getByRole('switch', { name: 'Read the audit log (audit_access)' })).toBeVisible();
  await shoot(page, 'tables-permissions-dialog-1400');
});
