import type { Page } from '@playwright/test';

/**
 * Records every text the page adds to the document, from its first script on. The site shows one toast at a time,
 * so a toast can be replaced by the next before a check looks for it (a load test at 100 % failures opens its
 * breaker within a second, and the "opened" toast takes the place of "initiated"): what was shown is asked here.
 */
export async function recordShownTexts(page: Page) {
  await page.addInitScript(() => {
    const shown: string[] = [];
    (window as unknown as { __shownTexts: string[] }).__shownTexts = shown;
    new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) if (node.textContent) shown.push(node.textContent);
    }).observe(document, { childList: true, subtree: true });
  });
  return (text: string) =>
    page.evaluate((wanted) => (window as unknown as { __shownTexts: string[] }).__shownTexts.some((shown) => shown.includes(wanted)), text);
}
