import { test as base } from '@playwright/test';

export * from '@playwright/test';

/**
 * Playwright's test, which closes at its end every browser context it opened besides its own page's. A context left
 * open lives on for the rest of the worker's files: its pages keep polling their site and drawing live figures on
 * the two cores the other tests share, and a failure's screenshots show them beside the page that failed.
 * Contexts a file opens in beforeAll, for several tests, are not the test's and stay.
 */
export const test = base.extend<{ closeOpenedContexts: void }>({
  closeOpenedContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use();
      const opened = browser.contexts().filter((context) => !before.has(context));
      await Promise.all(opened.map((context) => context.close().catch(() => undefined)));
    },
    { auto: true },
  ],
});
