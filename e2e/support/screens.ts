import { expect, type Browser, type Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { ADMIN, type Site } from './server';

/** A new browser context on a site of a file's own, `width` × `height`, with the admin signed in through the form. */
export async function signedInOn(site: Site, browser: Browser, width = 1400, height = 900): Promise<Page> {
  const context = await browser.newContext({ baseURL: site.url, viewport: { width, height } });
  const page = await context.newPage();
  await page.goto('/api/login?method=password');
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${site.url}/`);
  return page;
}

/** How far the page, or the main area that scrolls inside it, reaches past its width (0 or less: not at all). */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const main = document.querySelector('main');
    return Math.max(document.documentElement.scrollWidth - window.innerWidth, main ? main.scrollWidth - main.clientWidth : 0);
  });

/** The screen as drawn has no serious or critical axe finding and nothing reaching past its width. */
export async function checkScreen(page: Page, where: string) {
  expect(await seriousViolations(page, where)).toEqual({ where, violations: [] });
  expect(await overflow(page), where).toBeLessThanOrEqual(0);
}
