import { expect, type Locator, type Page } from '@playwright/test';
import { seriousViolations } from './axe';

/** Opens the top bar's menu with a tap; the menu's dialog once it is open. */
export async function openMenu(page: Page): Promise<Locator> {
  await page.getByRole('banner').getByRole('button', { name: 'Menu' }).tap();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu).toBeVisible();
  return menu;
}

/** Taps a link of the menu (by its exact name, or a pattern) and waits for the page it leads to. */
export async function tapInMenu(page: Page, name: string | RegExp, path: string | RegExp): Promise<void> {
  const menu = await openMenu(page);
  await menu.getByRole('link', { name, exact: true }).tap();
  await expect(menu).toHaveCount(0);
  await expect(page).toHaveURL(path);
}

/** How far the page, and the main area that scrolls inside it, reach past their width (0: not at all). */
function horizontalOverflow(page: Page) {
  return page.evaluate(() => {
    const main = document.querySelector('main');
    return {
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      main: main ? main.scrollWidth - main.clientWidth : 0,
    };
  });
}

/** What a phone-sized page should be: its content in, nothing sideways, no serious axe finding, 24 px targets. */
export const FITS = { overflow: { page: 0, main: 0 }, violations: [] };

/** How the screen is now: how far it overflows sideways and its serious axe violations, target size among them. */
export async function fits(page: Page, where: string) {
  const overflow = await horizontalOverflow(page);
  const { violations } = await seriousViolations(page, where, ['target-size']);
  return { where, overflow, violations };
}

/** `fits` for a page once drawn: its heading shown, nothing in it still loading. Compare with `{ where, ...FITS }`. */
export async function phoneCheck(page: Page, where: string) {
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(main.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);
  return fits(page, where);
}

/** The height of a control as drawn, for the 44 px a primary action should have on a touch screen. */
export async function heightOf(control: Locator): Promise<number> {
  return (await control.boundingBox())?.height ?? 0;
}
