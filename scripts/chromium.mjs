// Debian's Chromium, as the browser tests, the bundle benchmark and `npm test` launch it.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
];
