import type uPlot from 'uplot';

/** The next turn of the event loop: what comes after it runs in a task of its own. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

let warmed: Promise<void> | undefined;

/**
 * uPlot makes an Intl.NumberFormat and an Intl.DateTimeFormat as its module is evaluated, and a page's first of each
 * costs Chromium 12–44 ms (it reads the locale's and the time zone's data): with uPlot's own code, its evaluation was
 * one task of 55–68 ms on /load-test. Each is made here first, in a task of its own, so that uPlot's finds the data
 * read and its evaluation stays a short task; a later one costs well under a millisecond.
 */
function warmIntl(): Promise<void> {
  warmed ??= (async () => {
    await nextTask();
    new Intl.NumberFormat(navigator.language);
    await nextTask();
    new Intl.DateTimeFormat().resolvedOptions();
  })();
  return warmed;
}

/**
 * uPlot (23 KB gzip) is fetched when the first chart comes near the screen, not with the page that holds one: a
 * page whose charts sit below the fold, or that has none, does not wait for it.
 */
export const loadUPlot = (): Promise<typeof uPlot> => warmIntl().then(() => import('uplot').then((module) => module.default));
