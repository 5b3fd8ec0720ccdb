import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.mjs';

/** End-to-end tests in Debian's Chromium against the production build served by the real API. */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  globalSetup: './support/global-setup.ts',
  globalTeardown: './support/global-teardown.ts',
  reporter: [['list'], ['json', { outputFile: '../.test-results/e2e.json' }]],
  outputDir: '../test-results',
  use: {
    baseURL: process.env.E2E_BASE_URL,
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'desktop', testIgnore: '**/*.phone.e2e.ts' },
    // a phone held upright (an iPhone 14's 390 × 844 CSS pixels at 3×), driven by taps
    {
      name: 'phone',
      testMatch: '**/*.phone.e2e.ts',
      use: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
    },
  ],
});
