import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.mjs';

/**
 * Each `--disable-features` the running browser was given, in order, as lists of names (whatever Debian's wrapper
 * added too). Chromium may rewrite its process title, leaving its arguments joined by spaces rather than NULs.
 */
const disabledFeatureSwitches = (pid: number) =>
  readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    .split(/[\0 ]/)
    .filter((arg) => arg.startsWith('--disable-features='))
    .map((arg) => arg.slice('--disable-features='.length).split(','));

it('launches Chromium with Playwright’s own disabled features kept and the address bar’s popup page off', async () => {
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const switches = disabledFeatureSwitches(server.process().pid!);
    // Chromium keeps the last one only; Playwright's comes first
    expect(switches.length).toBeGreaterThanOrEqual(2);
    const kept = switches.at(-1)!;
    const playwrights = switches.slice(0, -1).flat();
    expect(playwrights.filter((feature) => !kept.includes(feature))).toEqual([]);
    expect(kept).toEqual(expect.arrayContaining(['PaintHolding', 'WebUIOmniboxPopup', 'PreloadTopChromeWebUI']));

    // and no window of a new context loads the popup's chrome:// page
    const browser = await chromium.connect(server.wsEndpoint());
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto('data:text/html,<h1>hub</h1>');
    const session = await browser.newBrowserCDPSession();
    const { targetInfos } = (await session.send('Target.getTargets')) as { targetInfos: { url: string }[] };
    expect(targetInfos.filter((target) => target.url.startsWith('chrome://omnibox-popup'))).toEqual([]);
    await browser.close();
  } finally {
    await server.close();
  }
});
