import { expect, type Browser, type Page } from '@playwright/test';
import { ADMIN } from './server';
import { suiteSiteUrl } from './suite-sites';

type Account = { email: string; password: string };

/** Signs in through the /api/login form (of the suite's site, or the one at `origin`) and waits for home. */
export async function signIn(page: Page, account: Account = ADMIN, origin = '') {
  await page.goto(`${origin}/api/login`);
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
}

/**
 * Signs the account in on the worker's site, in a context of its own (without the file it is about to write), runs
 * `andThen` with that page, then saves the session to `file`: for `test.use({ storageState })` or a new context, so
 * that a file's tests start signed in rather than each passing through the form.
 */
export async function saveSignedInSession(
  browser: Browser,
  file: string,
  account: Account = ADMIN,
  andThen?: (page: Page) => Promise<void>,
) {
  const page = await browser.newPage({ baseURL: suiteSiteUrl(), storageState: { cookies: [], origins: [] } });
  try {
    await signIn(page, account);
    await andThen?.(page);
    await page.context().storageState({ path: file });
  } finally {
    await page.context().close();
  }
}
