// Debian's Chromium, as the browser tests, the bundle benchmark and `npm test` launch it.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The features Playwright itself disables (its chromiumSwitches): Chromium keeps only the last `--disable-features`
 * on its command line, and Playwright puts ours after its own, so ours must carry its list too.
 * `scripts/chromium.spec.ts` launches the real browser and fails when Playwright's list moves past this one.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The address bar's popup, drawn as a web page of its own: Chromium 156 (Debian's 156.0.8078.114) loads it, some 200
 * chrome:// modules, into every new window, headless too, so that each browser context of a test first spends a
 * second of the machine's two cores on a popup nobody opens (a traced cold load of `/`: LCP 1.9 s with it, 1.2 s
 * without). Nothing a page does depends on it.
 */
const ADDRESS_BAR_POPUP = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup', 'PreloadTopChromeWebUI'];

// Headless as root in a sandboxless container; no background networking, component updates or sync, whose
// connections a machine without internet access refuses (many at a time, at every start).
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...ADDRESS_BAR_POPUP].join(',')}`,
];
