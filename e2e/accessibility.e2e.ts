import path from 'node:path';
import { expect, test } from './support/test';
import { seriousViolations } from './support/axe';
import { SCRATCH } from './support/server';
import { saveSignedInSession } from './support/sign-in';

const SIGNED_IN_SCREENS = [
  '/',
  '/dashboard',
  '/circuit-breakers/new',
  '/circuit-breakers',
  '/circuit-breakers/1',
  '/load-test',
  '/notifications',
  '/scrape-targets',
  '/core-logic',
  '/services/core',
  '/services/data-access',
  '/domains',
  '/users',
  '/elevate',
  '/patterns/cqrs',
  '/services/cache',
];

test('the check finds what it looks for: a nameless button and a low-contrast text on a page of the site', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Master Circuit Breaker Patterns' })).toBeVisible();
  await page.evaluate(() => {
    const broken = document.createElement('div');
    broken.innerHTML = '<button id="nameless"></button><p id="faint" style="color:#eee;background:#fff">faint</p>';
    document.querySelector('main')!.append(broken);
  });
  const found = await seriousViolations(page, 'broken on purpose');
  expect(found.violations).toHaveLength(2);
  expect(found.violations).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^button-name \(critical\): .*#nameless/),
      expect.stringMatching(/^color-contrast \(serious\): .*#faint/),
    ]),
  );
});

test('the landing page has no serious or critical accessibility violations', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Master Circuit Breaker Patterns' })).toBeVisible();
  expect(await seriousViolations(page, '/')).toEqual({ where: '/', violations: [] });
});

test.describe('signed in', () => {
  // one sign-in for the file, each screen a test of its own in a context with that session
  const state = path.join(SCRATCH, 'accessibility-admin.json');
  test.use({ storageState: state });
  test.beforeAll(({ browser }) => saveSignedInSession(browser, state));

  for (const screen of SIGNED_IN_SCREENS) {
    test(`${screen} has no serious or critical accessibility violations`, async ({ page }) => {
      await page.goto(screen);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await page.waitForLoadState('networkidle').catch(() => undefined);
      expect(await seriousViolations(page, screen)).toEqual({ where: screen, violations: [] });
    });
  }
});
