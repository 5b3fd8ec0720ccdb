import { expect, type Page } from '@playwright/test';
import { ADMIN } from './server';

/** Signs in through the /api/login form (of the suite's site, or the one at `origin`) and waits for home. */
export async function signIn(page: Page, account: { email: string; password: string } = ADMIN, origin = '') {
  await page.goto(`${origin}/api/login`);
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
}
