import { expect, test, type Page } from './support/test';
import { PATTERN_DEMOS, ROUTES } from '@cbh/contracts';
import { DEMO_PASSWORD, ELEVATION_EMAIL } from './support/server';
import { FITS, fits, heightOf, openMenu, phoneCheck, tapInMenu } from './support/phone';
import { signIn } from './support/sign-in';

/** The top bar's pages, in the menu's order, with the path each opens. */
const MAIN_PAGES: [string, string][] = [
  [ROUTES.home.title, ROUTES.home.path],
  [ROUTES.dashboard.title, ROUTES.dashboard.path],
  [ROUTES.breakers.title, ROUTES.breakers.path],
  [ROUTES.domains.title, ROUTES.domains.path],
  [ROUTES.onCall.title, ROUTES.onCall.path],
  [ROUTES.slos.title, ROUTES.slos.path],
  [ROUTES.drills.title, ROUTES.drills.path],
  [ROUTES.loadTest.title, ROUTES.loadTest.path],
  [ROUTES.notifications.title, ROUTES.notifications.path],
  [ROUTES.scrapeTargets.title, ROUTES.scrapeTargets.path],
  [ROUTES.users.title, ROUTES.users.path],
  [ROUTES.coreLogic.title, ROUTES.coreLogic.path],
  [ROUTES.organisationSettings.title, ROUTES.organisationSettings.path],
  [ROUTES.systemSettings.title, ROUTES.systemSettings.path],
  [ROUTES.releases.title, ROUTES.releases.path],
];

/** The 'Service Logic' sidebar's items as the menu lists them: label, slug and status. */
const SERVICE_ITEMS: [string, string, string][] = [
  ['Service Layer', 'core', 'active'],
  ['Error Handling', 'error-handling', 'active'],
  ['Middleware', 'middleware', 'active'],
  ['Background Tasks', 'background-tasks', 'active'],
  ['Data Access Layer', 'data-access', 'active'],
  ['Schema Registry', 'schema', 'active'],
  ['Cache', 'cache', 'active'],
  ['API Versioning', 'versioning', 'inactive'],
  ['Authentication', 'auth', 'active'],
  ['Validation', 'validation', 'active'],
  ['Rate Limiter', 'rate-limiter', 'monitoring'],
  ['Event Bus', 'events', 'active'],
  ['Notifications', 'notifications', 'monitoring'],
  ['Telemetry', 'telemetry', 'active'],
  ['Audit Trail', 'audit-trail', 'active'],
];

const url = (path: string) => new RegExp(`${path === '/' ? '' : path}/?$`);

/** Taps a link of the page's main area and checks the page it opens. */
async function tapThrough(page: Page, name: string | RegExp, path: string) {
  await page.getByRole('main').getByRole('link', { name }).first().tap();
  await expect(page).toHaveURL(url(path));
  return phoneCheck(page, path);
}

test('the top bar is one row: the title, Live, the open-breaker count and the menu button, nothing past the edge', async ({ page }) => {
  await signIn(page);
  const banner = page.getByRole('banner');
  const menuButton = banner.getByRole('button', { name: 'Menu' });
  const parts = [
    banner.getByRole('link', { name: 'Circuit Breaker Hub' }),
    page.getByTestId('live-status'),
    page.getByTestId('open-breakers'),
    menuButton,
  ];
  const boxes = await Promise.all(parts.map(async (part) => (await part.boundingBox())!));
  const bar = (await banner.boundingBox())!;
  for (const box of boxes) {
    expect(box.y + box.height).toBeLessThanOrEqual(bar.y + bar.height);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  // one row: every part beside the one before it
  for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.x).toBeGreaterThan(boxes[i - 1]!.x + boxes[i - 1]!.width - 1);
  expect(bar.height).toBeLessThanOrEqual(64);
  expect(await heightOf(menuButton)).toBeGreaterThanOrEqual(44);
  await expect(banner.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(page.getByRole('complementary', { name: 'Service Logic' })).toBeHidden();
});

test('the menu is a dialog: focus moves in, the close button and a tap beside it close it, focus returns to the button', async ({
  page,
}) => {
  await signIn(page);
  // while the menu is open, the page behind it (its button too) is hidden from assistive technology
  const button = page.locator('header button[aria-label="Menu"]');
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  let menu = await openMenu(page);
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  expect(await menu.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
  await menu.getByRole('button', { name: 'Close menu' }).tap();
  await expect(menu).toHaveCount(0);
  await expect(button).toBeFocused();

  menu = await openMenu(page);
  // the strip of the page left beside the sheet
  await page.touchscreen.tap(10, 400);
  await expect(menu).toHaveCount(0);
  await expect(button).toBeFocused();
});

test('a super admin reaches every page of the top bar from the menu, each as wide as the screen', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const menu = await openMenu(page);
  await expect(menu.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText(MAIN_PAGES.map(([name]) => name));
  await expect(menu.getByTestId('role-badge')).toHaveText('Super Administrator');
  await expect(menu.getByRole('link', { name: 'Logout' })).toHaveAttribute('href', '/api/logout');
  expect(await fits(page, 'the menu')).toEqual({ where: 'the menu', ...FITS });
  await menu.getByRole('button', { name: 'Close menu' }).tap();

  const checked = [];
  const heading = page.getByRole('main').getByRole('heading', { level: 1 }).first();
  for (const [name, path] of MAIN_PAGES) {
    const before = new URL(page.url()).pathname !== path && (await heading.count()) ? await heading.textContent() : null;
    await tapInMenu(page, name, url(path));
    // a page of the same remote may keep the last one drawn while its code arrives: measure the new page, not that one
    if (before) await expect(heading).not.toHaveText(before);
    checked.push(await phoneCheck(page, path));
  }
  await tapInMenu(page, 'Admin', url(ROUTES.account.path));
  checked.push(await phoneCheck(page, ROUTES.account.path));
  expect(checked).toEqual([...MAIN_PAGES.map(([, path]) => path), ROUTES.account.path].map((where) => ({ where, ...FITS })));
});

test('the pages other pages link to open by taps and fit the screen too', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const checked = [];
  await tapInMenu(page, ROUTES.dashboard.title, url(ROUTES.dashboard.path));
  checked.push(await tapThrough(page, 'Create Circuit Breaker', ROUTES.createBreaker.path));
  await tapInMenu(page, ROUTES.dashboard.title, url(ROUTES.dashboard.path));
  checked.push(await tapThrough(page, 'Run Load Test', ROUTES.loadTest.path));
  await tapInMenu(page, ROUTES.breakers.title, url(ROUTES.breakers.path));
  checked.push(await tapThrough(page, ROUTES.scrapeTargets.title, ROUTES.scrapeTargets.path));
  await tapInMenu(page, ROUTES.breakers.title, url(ROUTES.breakers.path));
  await page.getByTestId('breaker-tile').first().getByRole('link').tap();
  await expect(page).toHaveURL(/\/circuit-breakers\/\d+$/);
  checked.push(await phoneCheck(page, ROUTES.breakerDetail.path));
  for (const pattern of PATTERN_DEMOS) {
    await tapInMenu(page, ROUTES.coreLogic.title, url(ROUTES.coreLogic.path));
    checked.push(await tapThrough(page, new RegExp(`^${pattern.title}`), `/patterns/${pattern.slug}`));
  }
  expect(checked).toEqual(
    [
      ROUTES.createBreaker.path,
      ROUTES.loadTest.path,
      ROUTES.scrapeTargets.path,
      ROUTES.breakerDetail.path,
      ...PATTERN_DEMOS.map((pattern) => `/patterns/${pattern.slug}`),
    ].map((where) => ({ where, ...FITS })),
  );
});

test('the sidebar’s 15 items are in the menu with their statuses in words, each a tap away', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/');
  const menu = await openMenu(page);
  const services = menu.getByRole('navigation', { name: 'Service Logic' });
  await expect(services.getByRole('group')).toHaveCount(5);
  await expect(services.getByRole('link')).toHaveText(SERVICE_ITEMS.map(([label, , status]) => `${label}${status}`));
  await menu.getByRole('button', { name: 'Close menu' }).tap();

  const checked = [];
  for (const [label, slug, status] of SERVICE_ITEMS) {
    await tapInMenu(page, new RegExp(`^${label}\\W*${status}$`), url(`/services/${slug}`));
    checked.push(await phoneCheck(page, `/services/${slug}`));
  }
  expect(checked).toEqual(SERVICE_ITEMS.map(([, slug]) => ({ where: `/services/${slug}`, ...FITS })));
});

test('signed out, the menu offers Home, Dashboard, Load Test, Login and Start Demo', async ({ page }) => {
  await page.goto('/');
  const menu = await openMenu(page);
  await expect(menu.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText(['Home', 'Dashboard', 'Load Test']);
  await expect(menu.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/api/login');
  await expect(menu.getByRole('link', { name: 'Start Demo' })).toHaveAttribute('href', '/api/login');
  await expect(menu.getByRole('link', { name: 'Logout' })).toHaveCount(0);
  expect(await fits(page, 'the menu, signed out')).toEqual({ where: 'the menu, signed out', ...FITS });
});

test('the elevation account finds Elevate to Super Admin in the menu', async ({ page }) => {
  await signIn(page, { email: ELEVATION_EMAIL, password: DEMO_PASSWORD });
  await tapInMenu(page, ROUTES.elevate.title, url(ROUTES.elevate.path));
  expect(await phoneCheck(page, ROUTES.elevate.path)).toEqual({ where: ROUTES.elevate.path, ...FITS });
});
