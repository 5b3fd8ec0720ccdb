import { expect, test, type BrowserContext } from './support/test';

/**
 * The suite's own test (support/test.ts): a context a test opens and leaves open is closed at its end, and one a file
 * opens in beforeAll, for all its tests, stays open.
 */
test.describe.configure({ mode: 'serial' });

let filesOwn: BrowserContext;
let open = 0;

test.beforeAll(async ({ browser }) => {
  filesOwn = await browser.newContext();
  open = browser.contexts().length;
});

test.afterAll(() => filesOwn.close());

test('a test opens a context and leaves it open', async ({ browser }) => {
  await (await browser.newContext()).newPage();
  expect(browser.contexts()).toHaveLength(open + 1);
});

test('the next test finds it closed, and the file’s own context still open', async ({ browser }) => {
  expect(browser.contexts()).toHaveLength(open);
});
