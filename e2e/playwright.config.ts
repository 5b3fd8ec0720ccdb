import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.mjs';
import { SUITE_WORKERS, suiteSiteUrl } from './support/suite-sites';

/**
 * Files that run after all the others, one at a time, with the machine to themselves: the guide's test installs and
 * builds in the checkout the other sites serve from, and the rest bound a time the product promises (a browser back
 * within 3 s of a failover, a shutdown within its grace, a database back within 5 s, a change on the wall within 2 s,
 * a drill's expectation met within 15 s), which the other worker's load beside them would stretch.
 */
const ALONE = ['getting-started', 'shutdown', 'replica-failover', 'database-restart', 'gateway', 'cluster-metrics', 'fleet', 'drills'].map(
  (name) => `**/${name}.e2e.ts`,
);

/** End-to-end tests in Debian's Chromium against the production build served by the real API. */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // one site per worker (support/suite-sites.ts): a worker's tests share its site only with one another
  workers: SUITE_WORKERS,
  retries: 0,
  globalSetup: './support/global-setup.ts',
  globalTeardown: './support/global-teardown.ts',
  reporter: [['list'], ['json', { outputFile: '../.test-results/e2e.json' }]],
  outputDir: '../test-results',
  use: {
    baseURL: suiteSiteUrl(),
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [
    // the phone's files first: the phone menu's is among the longest, and started last it would keep one worker busy
    // after the other had finished. A phone held upright (an iPhone 14's 390 × 844 CSS pixels at 3×), driven by taps
    {
      name: 'phone',
      testMatch: '**/*.phone.e2e.ts',
      use: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
    },
    { name: 'desktop', testIgnore: ['**/*.phone.e2e.ts', ...ALONE] },
    // after both (not run if either failed: the run is red already), in one worker
    { name: 'alone', testMatch: ALONE, workers: 1, dependencies: ['desktop', 'phone'] },
  ],
});
