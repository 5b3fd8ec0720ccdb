import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './support/sign-in';

const SIGNED_IN_SCREENS = [
  '/',
  '/dashboard',
  '/circuit-breakers/new',
  '/load-test',
  '/core-logic',
  '/services/core',
  '/services/data-access',
  '/domains',
  '/users',
  '/elevate',
  '/patterns/cqrs',
  '/services/cache',
];

/** Serious and critical axe violations on the page as it is now, described for the failure message. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

test('the landing page has no serious or critical accessibility violations', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Master Circuit Breaker Patterns' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('no signed-in screen has serious or critical accessibility violations', async ({ page }) => {
  await signIn(page);
  for (const path of SIGNED_IN_SCREENS) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await page.waitForLoadState('networkidle').catch(() => undefined);
    expect({ path, violations: await seriousViolations(page) }).toEqual({ path, violations: [] });
  }
});
