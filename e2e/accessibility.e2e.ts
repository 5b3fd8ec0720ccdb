import { expect, test } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { signIn } from './support/sign-in';

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

test('the landing page has no serious or critical accessibility violations', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Master Circuit Breaker Patterns' })).toBeVisible();
  expect(await seriousViolations(page, '/')).toEqual({ where: '/', violations: [] });
});

test('no signed-in screen has serious or critical accessibility violations', async ({ page }) => {
  await signIn(page);
  for (const path of SIGNED_IN_SCREENS) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await page.waitForLoadState('networkidle').catch(() => undefined);
    expect(await seriousViolations(page, path)).toEqual({ where: path, violations: [] });
  }
});
