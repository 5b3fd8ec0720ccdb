// The operators' console under load: 200 breakers, each with a load test running through it, on the production
// build. Prints the size of the metricsUpdate messages (bytes per message and per second, as a /ws client
// receives them) and, in Chromium showing /circuit-breakers, what each metricsUpdate costs the page: from the
// message's arrival to the end of React's render plus style and layout (p50/p75/p95/max; goal p75 within one
// 16 ms frame), and the intervals between animation frames meanwhile.
// Usage: npm run build && node bench/console-wall.mjs [--breakers 200] [--rate 5] [--seconds 20]
import WebSocket from 'ws';
import { chromium } from '@playwright/test';
import { startBenchApi } from './api-process.mjs';
import { benchLine, numberArg } from './report.mjs';

const BREAKERS = numberArg('breakers', 200);
const RATE = numberArg('rate', 5);
const SECONDS = numberArg('seconds', 20);
const FRAME_MS = 16;

const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
};
const ms = (value) => `${value.toFixed(1)} ms`;

/** Counts the metricsUpdate frames a signed-in /ws client receives for `seconds`. */
async function measureMessages(api, seconds) {
  const socket = new WebSocket(`${api.url.replace('http', 'ws')}/ws`, { headers: { cookie: api.cookie } });
  const sizes = [];
  socket.on('message', (data) => {
    if (String(data).startsWith('{"type":"metricsUpdate"')) sizes.push(Buffer.byteLength(data));
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  socket.terminate();
  return sizes;
}

/**
 * Wraps the page's WebSocket: each metricsUpdate's cost from its arrival until React has committed it to the DOM
 * (the first DOM change after it, seen by a MutationObserver, wherever React scheduled the render) and style and
 * layout are done.
 */
function instrument() {
  const Native = window.WebSocket;
  window.__updateCosts = [];
  window.__frameGaps = [];
  let pending = null;
  new MutationObserver(() => {
    if (pending === null) return;
    document.body.getBoundingClientRect(); // forces style and layout of what React changed
    window.__updateCosts.push(performance.now() - pending);
    pending = null;
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      // added before the page's own onmessage handler, so it runs first
      this.addEventListener('message', (event) => {
        if (String(event.data).startsWith('{"type":"metricsUpdate"')) pending = performance.now();
      });
    }
  };
  let last = 0;
  const frame = (now) => {
    if (last) window.__frameGaps.push(now - last);
    last = now;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

const api = await startBenchApi();
let browser;
try {
  const call = (path, method = 'GET', body) =>
    fetch(`${api.url}${path}`, {
      method,
      headers: { cookie: api.cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const existing = await (await call('/api/circuit-breakers')).json();
  for (let i = existing.length; i < BREAKERS; i++) {
    const type = ['simple', 'adaptive', 'bulkhead'][i % 3];
    const response = await call('/api/circuit-breakers', 'POST', {
      name: `Service ${String(i + 1).padStart(3, '0')}`,
      type,
      failureThreshold: 5,
      timeout: 30_000,
      recoveryTime: 60_000,
      successThreshold: 3,
    });
    if (!response.ok) throw new Error(`creating breaker ${i + 1}: ${response.status} ${await response.text()}`);
  }
  const breakers = await (await call('/api/circuit-breakers')).json();
  for (const [index, breaker] of breakers.entries()) {
    // failure rates 0–60 %: some breakers trip and recover while the page watches
    const response = await call('/api/test-sessions', 'POST', {
      configId: breaker.id,
      failureRate: (index % 13) * 5,
      requestRate: RATE,
      duration: 5,
    });
    if (!response.ok) throw new Error(`starting a load test on ${breaker.name}: ${response.status} ${await response.text()}`);
  }
  console.log(`${breakers.length} breakers, each under a load test at ${RATE} req/s (${breakers.length * RATE} calls/s in all)`);
  await new Promise((resolve) => setTimeout(resolve, 3000)); // windows fill

  const sizes = await measureMessages(api, SECONDS);
  const bytes = sizes.reduce((sum, n) => sum + n, 0);
  console.log(
    `metricsUpdate: ${sizes.length} messages in ${SECONDS} s, ${(pct(sizes, 0.5) / 1024).toFixed(1)} KB each (median), ${(bytes / SECONDS / 1024).toFixed(1)} KB/s per client`,
  );

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--disable-gpu', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const [name, value] = api.cookie.split('=');
  await context.addCookies([{ name, value, url: api.url }]);
  await context.addInitScript(instrument);
  const page = await context.newPage();
  await page.goto(`${api.url}/circuit-breakers`);
  await page
    .getByTestId('breaker-tile')
    .nth(BREAKERS - 1)
    .waitFor({ timeout: 30_000 });
  await page.evaluate(() => {
    window.__updateCosts.length = 0;
    window.__frameGaps.length = 0;
  });
  await page.waitForTimeout(SECONDS * 1000);
  const { costs, gaps, tiles } = await page.evaluate(() => ({
    costs: window.__updateCosts,
    gaps: window.__frameGaps,
    tiles: document.querySelectorAll('[data-testid="breaker-tile"]').length,
  }));
  const p75 = pct(costs, 0.75);
  console.log(
    `${tiles} tiles, ${costs.length} updates: render p50 ${ms(pct(costs, 0.5))}, p75 ${ms(p75)}, p95 ${ms(pct(costs, 0.95))}, max ${ms(Math.max(...costs))} — ${p75 <= FRAME_MS ? 'OK' : 'MISSED'} (goal p75 ≤ ${FRAME_MS} ms)`,
  );
  benchLine(`console wall: cost per metricsUpdate p75, ${tiles} tiles`, ms(p75), `≤ ${FRAME_MS} ms`, p75 <= FRAME_MS);
  console.log(
    `animation frames meanwhile: ${gaps.length}, interval p50 ${ms(pct(gaps, 0.5))}, p75 ${ms(pct(gaps, 0.75))}, p99 ${ms(pct(gaps, 0.99))}, frames over 50 ms: ${gaps.filter((gap) => gap > 50).length}`,
  );
} finally {
  await browser?.close();
  api.stop();
}
