import { expect, test, type Page } from './support/test';
import { seriousViolations } from './support/axe';
import { signIn } from './support/sign-in';
import { ADMIN } from './support/server';
import { shoot } from './support/shots';
import { recordShownTexts } from './support/toasts';

/** How far the page reaches past its viewport sideways (0: not at all). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

const main = (page: Page) => page.getByRole('main');

/** A look at the screen, for people to see (support/shots.ts). */
const shot = (page: Page, name: string) => shoot(page, `dead-ends-${name}-${page.viewportSize()?.width}`);

test.describe('the not-found page', () => {
  test('keeps its two sentences and leads a visitor home, at 1,400 px and on a phone', async ({ page }) => {
    for (const viewport of [
      { width: 1400, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto('/no-such-page');
      await expect(main(page).getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
      await expect(main(page).getByText('Did you forget to add the page to the router?')).toBeVisible();
      await expect(main(page).getByRole('link', { name: 'Open the dashboard' })).toHaveCount(0);
      const home = main(page).getByRole('link', { name: 'Go to the home page' });
      await expect(home).toBeVisible();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shot(page, 'not-found');
      expect(await seriousViolations(page, `not found at ${viewport.width} px`)).toEqual({
        where: `not found at ${viewport.width} px`,
        violations: [],
      });
      await home.click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Master Circuit Breaker Patterns');
    }
  });

  test('offers the dashboard to someone signed in', async ({ page }) => {
    await signIn(page);
    await page.goto('/no-such-page');
    await expect(main(page).getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
    await expect(main(page).getByRole('link', { name: 'Go to the home page' })).toBeVisible();
    await main(page).getByRole('link', { name: 'Open the dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(main(page).getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  });

  test("says what a service component without a page is, reached from the sidebar's link", async ({ page }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto('/');
    await page.getByRole('link', { name: 'Rate Limiter' }).first().click();
    await expect(page).toHaveURL(/\/services\/rate-limiter$/);
    await expect(main(page).getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
    await expect(main(page).getByText('Did you forget to add the page to the router?')).toBeVisible();
    const component = main(page).getByRole('region', { name: 'Rate Limiter' });
    await expect(component).toContainText('Security, monitoring');
    await expect(component).toContainText('Limits how often a client may call');
    await shot(page, 'service-component');
    expect(await seriousViolations(page, 'a service component')).toEqual({ where: 'a service component', violations: [] });
    await page.goto('/services/cache');
    await expect(main(page).getByRole('region', { name: 'Cache' })).toContainText('Keeps recent answers close');
  });
});

test("the landing's footer: every link leads to a page, none is a placeholder", async ({ page }) => {
  await page.goto('/');
  const footer = page.locator('footer');
  const links = footer.getByRole('link');
  await expect(links.first()).toBeVisible();
  const targets = await links.evaluateAll((anchors) =>
    anchors.map((anchor) => ({ name: anchor.textContent ?? '', href: anchor.getAttribute('href') ?? '' })),
  );
  expect(targets.length).toBeGreaterThanOrEqual(8);
  expect(targets.filter(({ href }) => href === '' || href.startsWith('#'))).toEqual([]);
  for (const { name, href } of targets) {
    expect([name, (await page.request.get(href)).status()]).toEqual([name, 200]);
    await page.goto(href);
    if (href.startsWith('/api/')) {
      await expect(page).toHaveTitle('Circuit Breaker Hub API');
      continue;
    }
    await expect(main(page).getByRole('heading', { level: 1 })).toBeVisible();
    await expect(main(page).getByRole('heading', { name: '404 Page Not Found' })).toHaveCount(0);
  }
  // and they are followed inside the site, as any of its links
  await page.goto('/');
  await footer.getByRole('link', { name: 'Saga' }).click();
  await expect(page).toHaveURL(/\/patterns\/saga$/);
  await expect(main(page).getByRole('heading', { level: 1 })).toContainText('Saga');
});

test('the sample monitoring figures say they are samples to a visitor, and not to someone signed in', async ({ page }) => {
  await page.goto('/');
  const notice = page.getByRole('note', { name: 'Sample figures' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('These are sample figures');
  for (const label of ['Success Rate', 'Avg Response Time', 'Requests / Min', 'Failed Calls'])
    await expect(page.getByRole('region', { name: label })).toContainText('Sample figure');
  await expect(page.getByRole('region', { name: 'Success Rate' })).toContainText('94.7%');
  for (const width of [1400, 390]) {
    await page.setViewportSize({ width, height: width > 400 ? 900 : 844 });
    await notice.scrollIntoViewIfNeeded();
    await shot(page, 'sample-figures');
    await page.locator('footer').scrollIntoViewIfNeeded();
    await shot(page, 'footer');
  }

  await signIn(page);
  await expect(page.getByRole('region', { name: 'Success Rate' })).toBeVisible();
  await expect(page.getByRole('note', { name: 'Sample figures' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Success Rate' })).not.toContainText('Sample figure');
});

test.describe('a signed-out visit to a page for signed-in people', () => {
  test('asks to sign in, with no refusal and no toast, at 1,400 px and on a phone', async ({ page }) => {
    const wasShown = await recordShownTexts(page);
    for (const [route, title] of [
      ['/users', 'User Management'],
      ['/dashboard', 'Dashboard'],
      ['/circuit-breakers', 'Circuit Breakers'],
      ['/domains', 'Domain Management'],
    ] as const) {
      for (const viewport of [
        { width: 1400, height: 900 },
        { width: 390, height: 844 },
      ]) {
        await page.setViewportSize(viewport);
        await page.goto(route);
        await expect(main(page).getByRole('heading', { level: 1 })).toHaveText(title);
        await expect(main(page).getByRole('heading', { name: 'Sign in to continue' })).toBeVisible();
        await expect(main(page).getByRole('link', { name: 'Sign in' })).toBeVisible();
        await expect(page.getByText(/don't have permission|Access Restricted|Access Denied/)).toHaveCount(0);
        expect(await overflow(page)).toBeLessThanOrEqual(0);
        if (route !== '/users') continue;
        await shot(page, 'sign-in-asked');
        const where = `sign-in asked at ${viewport.width} px`;
        expect(await seriousViolations(page, where)).toEqual({ where, violations: [] });
      }
    }
    expect(await wasShown('Access Denied')).toBe(false);
    expect(await wasShown('permission')).toBe(false);
  });

  test('comes back to the page asked for after signing in: /users → sign-in → /users', async ({ page }) => {
    await page.goto('/users');
    await main(page).getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/api\/login$/);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/users$/);
    await expect(main(page).getByRole('heading', { level: 1 })).toHaveText('User Management');
    await expect(main(page).getByRole('tab', { name: 'All Users' })).toBeVisible();
    // once only: home is home again afterwards
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Circuit Breaker Patterns');
  });

  test('Core Logic still goes straight to the sign-in page, and back to Core Logic after', async ({ page }) => {
    await page.goto('/core-logic');
    await expect(page).toHaveURL(/\/api\/login$/);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/core-logic$/);
    await expect(main(page).getByRole('heading', { level: 1 })).toContainText('Core Logic');
  });
});
