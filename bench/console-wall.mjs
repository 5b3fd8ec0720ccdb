// The operators' console under load, and how its cost grows with the wall: breakers, each with a load test running
// through it, on the production build, measured at each of --sizes (50, 200 and 1,000 breakers, one tile each;
// `--sizes 200` measures one), the breakers added as the sizes grow. At each size: the size of the metricsUpdate
// messages (bytes per message, per tile and per second, as a /ws client receives them); the API's CPU per /ws viewer
// per second (--viewers more signed-in sockets for a few seconds, against as long without them before and after: the
// metricsUpdate every viewer hears, with the live messages the load tests make; meaningless once the API is busy a
// whole core without them, which it prints); the API's resident memory; and, in Chromium showing /circuit-breakers,
// what each metricsUpdate costs the page: from the message's arrival to the end of React's render plus style and
// layout (p50/p75/p95/max, and p75 per tile; goal p75 within one 16 ms frame, checked at the middle size), and the
// intervals between animation frames meanwhile. Each size prints its per-unit costs as a BENCH line, so that a cost
// that grows faster than the wall shows.
// --profile: at the middle size, after the measured window, records the page's CPU profile for as long again and prints
// its top functions by self time (the profiler slows the page: nothing is measured meanwhile).
// Usage: npm run build && node bench/console-wall.mjs [--sizes 50,200,1000] [--rate 5] [--seconds 60] [--viewers 1000] [--profile]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import WebSocket from 'ws';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.mjs';
import { adminCall, cpuSeconds, startBenchApi } from './api-process.mjs';
import { printSummary, summarise } from './cpu-profile.mjs';
import { connectClients } from './ws-clients.mjs';
import { benchLine, goalSize, numberArg, rssMiB, sizesArg, withRetries } from './report.mjs';

const SIZES = process.argv.includes('--breakers') ? [numberArg('breakers', 200)] : sizesArg([50, 200, 1000]);
const GOAL_SIZE = goalSize(SIZES);
const RATE = numberArg('rate', 5);
// a metricsUpdate every 2 s: 30 of them per size, so that the p75 is not the 7th of 9
const SECONDS = numberArg('seconds', 60);
const VIEWERS = numberArg('viewers', 1000);
const VIEWER_SECONDS = 3;
const FRAME_MS = 16;
const PROFILE = process.argv.includes('--profile');

const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
};
const ms = (value) => `${value.toFixed(1)} ms`;

/** Counts the metricsUpdate frames a signed-in /ws client receives until the returned function is called. */
async function countMessages(api) {
  const socket = new WebSocket(`${api.url.replace('http', 'ws')}/ws`, { headers: { cookie: api.cookie } });
  const sizes = [];
  socket.on('message', (data) => {
    if (String(data).startsWith('{"type":"metricsUpdate"')) sizes.push(Buffer.byteLength(data));
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const started = performance.now();
  return () => {
    socket.terminate();
    return { sizes, seconds: (performance.now() - started) / 1000 };
  };
}

/**
 * The API's CPU per /ws viewer per second, in µs, and how busy it is without them (CPU seconds per second): windows of
 * VIEWER_SECONDS without, with, with and without VIEWERS more sockets, so that a drift of the load tests' own cost
 * cancels out. An API already busy a whole core or more without them finds no time for them to cost: read it so.
 */
async function cpuPerViewer(api) {
  const rate = async () => {
    const before = cpuSeconds(api.process.pid);
    await sleep(VIEWER_SECONDS * 1000);
    return (cpuSeconds(api.process.pid) - before) / VIEWER_SECONDS;
  };
  const before = await rate();
  const sockets = [];
  let withThem = 0;
  try {
    await connectClients(api.url, api.cookie, VIEWERS, () => undefined, sockets);
    await sleep(1000); // the connections' own work done
    withThem = (await rate()) + (await rate());
  } finally {
    for (const socket of sockets) socket.terminate();
  }
  await sleep(1000); // the closings' own work done
  const without = before + (await rate());
  return { viewerUs: ((withThem - without) / 2) * (1e6 / VIEWERS), busy: without / 2 };
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

/** The page's CPU profile over SECONDS, written to a file and its top functions printed. */
async function profilePage(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await page.waitForTimeout(SECONDS * 1000);
  const { profile } = await cdp.send('Profiler.stop');
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'wall-profile-')), 'wall.cpuprofile');
  writeFileSync(file, JSON.stringify(profile));
  console.log(`the page's profile: ${file}`);
  printSummary(summarise(file, 25));
}

const api = await withRetries(() => startBenchApi());
let browser;
const results = [];
try {
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const loaded = new Set();
  for (const size of SIZES) {
    const existing = await adminCall(api, 'GET', '/api/circuit-breakers');
    for (let i = existing.length; i < size; i++) {
      const type = ['simple', 'adaptive', 'bulkhead'][i % 3];
      await adminCall(api, 'POST', '/api/circuit-breakers', {
        name: `Service ${String(i + 1).padStart(4, '0')}`,
        type,
        failureThreshold: 5,
        timeout: 30_000,
        recoveryTime: 60_000,
        successThreshold: 3,
      });
    }
    const breakers = await adminCall(api, 'GET', '/api/circuit-breakers');
    for (const [index, breaker] of breakers.entries()) {
      if (loaded.has(breaker.id)) continue;
      // failure rates 0–60 %: some breakers trip and recover while the page watches; long enough for every size
      await adminCall(api, 'POST', '/api/test-sessions', {
        configId: breaker.id,
        failureRate: (index % 13) * 5,
        requestRate: RATE,
        duration: 10,
      });
      loaded.add(breaker.id);
    }
    console.log(`${breakers.length} breakers, each under a load test at ${RATE} req/s (${breakers.length * RATE} calls/s in all)`);
    await sleep(3000); // windows fill
    const { viewerUs, busy } = await cpuPerViewer(api);

    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const [name, value] = api.cookie.split('=');
    await context.addCookies([{ name, value, url: api.url }]);
    await context.addInitScript(instrument);
    const page = await context.newPage();
    await page.goto(`${api.url}/circuit-breakers`);
    // a wall that never shows every tile is measured as it is, its count printed, rather than ending the run
    await page
      .getByTestId('breaker-tile')
      .nth(breakers.length - 1)
      .waitFor({ timeout: 60_000 })
      .catch(async () =>
        console.log(`only ${await page.getByTestId('breaker-tile').count()} of ${breakers.length} tiles shown after 60 s`),
      );
    await page.evaluate(() => {
      window.__updateCosts.length = 0;
      window.__frameGaps.length = 0;
    });
    // the messages a /ws client receives are counted meanwhile
    const stopCounting = await countMessages(api);
    await page.waitForTimeout(SECONDS * 1000);
    const { sizes, seconds } = stopCounting();
    const { costs, gaps, tiles } = await page.evaluate(() => ({
      costs: window.__updateCosts,
      gaps: window.__frameGaps,
      tiles: document.querySelectorAll('[data-testid="breaker-tile"]').length,
    }));
    if (PROFILE && size === GOAL_SIZE) await profilePage(context, page);
    await context.close();
    const bytes = sizes.reduce((sum, n) => sum + n, 0);
    const p75 = pct(costs, 0.75);
    const result = { size, tiles, p75, bytesPerTile: pct(sizes, 0.5) / tiles, viewerUs, rss: rssMiB(api.process.pid) };
    results.push(result);
    console.log(
      `${tiles} tiles: metricsUpdate ${sizes.length} messages in ${seconds.toFixed(0)} s, ${(pct(sizes, 0.5) / 1024).toFixed(1)} KB each (median), ` +
        `${result.bytesPerTile.toFixed(0)} bytes per tile, ${(bytes / seconds / 1024).toFixed(1)} KB/s per client; ` +
        `API CPU per /ws viewer ${viewerUs.toFixed(0)} µs/s (${VIEWERS} viewers; without them the API is busy ${busy.toFixed(2)} cores); API RSS ${result.rss.toFixed(0)} MiB`,
    );
    console.log(
      `${tiles} tiles, ${costs.length} updates: render p50 ${ms(pct(costs, 0.5))}, p75 ${ms(p75)} (${((1000 * p75) / tiles).toFixed(1)} µs per tile), ` +
        `p95 ${ms(pct(costs, 0.95))}, max ${ms(Math.max(...costs))}`,
    );
    console.log(
      `${tiles} tiles, animation frames meanwhile: ${gaps.length}, interval p50 ${ms(pct(gaps, 0.5))}, p75 ${ms(pct(gaps, 0.75))}, p99 ${ms(pct(gaps, 0.99))}, frames over 50 ms: ${gaps.filter((gap) => gap > 50).length}`,
    );
    benchLine(
      `console wall at ${tiles} tiles: metricsUpdate cost p75 per tile, bytes per tile, API CPU per /ws viewer per second`,
      `${((1000 * p75) / tiles).toFixed(1)} µs, ${result.bytesPerTile.toFixed(0)} B, ${viewerUs.toFixed(0)} µs`,
      'printed',
      true,
    );
  }
} finally {
  await browser?.close();
  await api.stop();
}
const atGoal = results.find((result) => result.size === GOAL_SIZE);
console.log(
  `cost per metricsUpdate p75 at ${atGoal.tiles} tiles: ${ms(atGoal.p75)} — ${atGoal.p75 <= FRAME_MS ? 'OK' : 'MISSED'} (goal p75 ≤ ${FRAME_MS} ms)`,
);
benchLine(`console wall: cost per metricsUpdate p75, ${atGoal.tiles} tiles`, ms(atGoal.p75), `≤ ${FRAME_MS} ms`, atGoal.p75 <= FRAME_MS);
