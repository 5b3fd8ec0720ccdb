import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';

/**
 * Where the browser tests leave screenshots for a person to look at: SHOTS_DIR, when it is set
 * (`SHOTS_DIR=/tmp/shots npx playwright test -c e2e/playwright.config.ts screens`). Without it none are taken: they
 * assert nothing, and a full page's image costs up to a second of the two cores the suite runs on. A failing test's
 * screenshot is Playwright's own (screenshot: 'only-on-failure').
 */
const SHOTS_DIR = process.env.SHOTS_DIR;

/** A screenshot of the page (`fullPage`: its whole length) or of one element, as SHOTS_DIR/`name`.png; the image, when taken. */
export async function shoot(target: Page | Locator, name: string, { fullPage = false } = {}): Promise<Buffer | undefined> {
  if (!SHOTS_DIR) return undefined;
  mkdirSync(SHOTS_DIR, { recursive: true });
  const file = path.join(SHOTS_DIR, `${name}.png`);
  return 'goto' in target ? target.screenshot({ path: file, fullPage }) : target.screenshot({ path: file });
}
