// Web vitals of the production build, measured in Chromium on localhost: `/` signed out and `/`, `/dashboard`,
// `/load-test`, `/users`, `/domains`, `/patterns/cqrs` signed in. For each route, the median of 5 loads with a
// cold cache (a fresh browser context per load) and 5 with a warm one (one context, loaded once before) of:
//   LCP       largest-contentful-paint, from navigation start (goal cold ≤ 500 ms on every route)
//   CLS       the largest session window of layout shifts without recent input (goal ≤ 0.02)
//   TBT       blocking time: the sum over long tasks of their time past 50 ms, from navigation start until the
//             measurement ends (the heading visible + --settle ms); Lighthouse counts from FCP to TTI instead
//   longest   the longest main-thread task, as Chrome's own long-task entries report it (goal: none over 50 ms, that
//             is no long task at all, on any route, cold and warm)
//   heading   the time until the route's main heading (`main h1`) is laid out with a size, from navigation start
// as the browser's own PerformanceObserver entries report them (injected before the page's scripts run).
// Then Lighthouse's performance category with its desktop config (simulated 40 ms RTT, 10 Mbit/s, no CPU
// slowdown) on `/` signed out and `/dashboard` signed in, in Debian's Chromium: the median score of
// --lighthouse-runs runs (goal ≥ 98) with its main metrics. It lives in this script, not a sibling, because it needs
// the same API process and session cookie; `--no-lighthouse` skips it.
// The output ends with one `BENCH\t<measure>\t<figure>\t<goal>\t<OK|MISSED>` line per goal for the summary table.
// `--trace DIR` records instead one cold load of every route as a Chrome trace in DIR and prints what each long task
// is made of (bench/long-tasks.mjs): where the longest task goes.
// Usage: npm run build && npm run bench:vitals [-- --runs 5] [--settle 1500] [--lighthouse-runs 3] [--no-lighthouse]
//        [--trace DIR] [--cpu-slowdown N] [--route PATH]
// `--cpu-slowdown N` runs every page's main thread N times slower (Chrome's CPU throttling), so that a fast machine
// shows the tasks a slower one would make long; `--route PATH` measures only the routes of that path. With either,
// the goal lines are not printed: they are not the goals' conditions.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.mjs';
import { ROOT } from '../scripts/run.mjs';
import { startBenchApi } from './api-process.mjs';
import { startDebuggableChromium } from './debuggable-chromium.mjs';
import { longTasksOf, printLongTasks, traceLoad } from './long-tasks.mjs';
import { instrument } from './page-vitals.mjs';
import { benchRow } from './report.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const RUNS = arg('runs', 5);
const SETTLE_MS = arg('settle', 1500);
const LIGHTHOUSE_RUNS = arg('lighthouse-runs', 3);
const LIGHTHOUSE = !process.argv.includes('--no-lighthouse');
const TRACE_DIR = process.argv.includes('--trace') ? process.argv[process.argv.indexOf('--trace') + 1] : null;
const CPU_SLOWDOWN = arg('cpu-slowdown', 1);
const ONLY_PATH = process.argv.includes('--route') ? process.argv[process.argv.indexOf('--route') + 1] : null;
const PORT = 3471;
const PG_PORT = 25471; // below the ephemeral ports, as BENCH_PG_PORT (api-process.mjs)
const DEBUGGING_PORT = 3472;
const VIEWPORT = { width: 1350, height: 940 }; // Lighthouse's desktop screen
const GOAL = { lcpMs: 500, cls: 0.02, longTaskMs: 50, lighthouse: 98 };

const ALL_ROUTES = [
  { label: '/ (signed out)', path: '/', signedIn: false },
  { label: '/ (signed in)', path: '/', signedIn: true },
  { label: '/dashboard', path: '/dashboard', signedIn: true },
  { label: '/load-test', path: '/load-test', signedIn: true },
  { label: '/users', path: '/users', signedIn: true },
  { label: '/domains', path: '/domains', signedIn: true },
  { label: '/patterns/cqrs', path: '/patterns/cqrs', signedIn: true },
];
const ROUTES = ONLY_PATH ? ALL_ROUTES.filter((route) => route.path === ONLY_PATH) : ALL_ROUTES;
if (!ROUTES.length) throw new Error(`--route ${ONLY_PATH}: no such route (${ALL_ROUTES.map((r) => r.path).join(', ')})`);
const AT_GOALS_CONDITIONS = CPU_SLOWDOWN === 1 && !ONLY_PATH;
const LIGHTHOUSE_PAGES = [
  { label: '/ (signed out)', path: '/', signedIn: false },
  { label: '/dashboard', path: '/dashboard', signedIn: true },
];

const median = (values) => {
  const sorted = values.filter((value) => value !== null && !Number.isNaN(value)).sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const ms = (value) => (Number.isNaN(value) ? '–' : `${Math.round(value)} ms`);
const cls = (value) => (Number.isNaN(value) ? '–' : value.toFixed(3));

/** One load of `url` in a new page of `context`: the figures once the heading has shown and SETTLE_MS passed. */
async function measure(context, url) {
  const page = await context.newPage();
  try {
    await slowDown(context, page);
    await page.goto(url);
    await page.waitForFunction(() => window.__vitals.heading !== null, null, { timeout: 30_000 });
    await page.waitForTimeout(SETTLE_MS);
    const vitals = await page.evaluate(() => window.__vitals);
    const durations = vitals.longTasks.map((task) => task.duration);
    return {
      ...vitals,
      tbt: durations.reduce((sum, duration) => sum + Math.max(0, duration - 50), 0),
      longest: Math.max(0, ...durations),
    };
  } finally {
    await page.close();
  }
}

/** Chrome's CPU throttling on `page`, when --cpu-slowdown asks for it. */
async function slowDown(context, page) {
  if (CPU_SLOWDOWN === 1) return;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
}

/** One cold load of every route, each after an unmeasured one, traced into TRACE_DIR; prints their long tasks. */
async function traceRoutes(api) {
  mkdirSync(TRACE_DIR, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    for (const route of ROUTES) {
      const warmUp = await newContext(browser, api, route.signedIn);
      await measure(warmUp, api.url + route.path);
      await warmUp.close();
      const context = await newContext(browser, api, route.signedIn);
      const file = path.join(TRACE_DIR, `${route.label.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'root'}.json`);
      await traceLoad(
        browser,
        context,
        api.url + route.path,
        file,
        () => window.__vitals.heading !== null,
        (page) => slowDown(context, page),
      );
      await context.close();
      printLongTasks(`${route.label} (${file})`, longTasksOf(file));
    }
  } finally {
    await browser.close();
  }
}

async function newContext(browser, api, signedIn) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  if (signedIn) {
    const [name, value] = api.cookie.split('=');
    await context.addCookies([{ name, value, url: api.url }]);
  }
  await context.addInitScript(instrument);
  return context;
}

const summarise = (loads) => ({
  fcp: median(loads.map((load) => load.fcp)),
  lcp: median(loads.map((load) => load.lcp)),
  cls: median(loads.map((load) => load.cls)),
  tbt: median(loads.map((load) => load.tbt)),
  longest: median(loads.map((load) => load.longest)),
  heading: median(loads.map((load) => load.heading)),
  maxLongest: Math.max(...loads.map((load) => load.longest)),
  maxCls: Math.max(...loads.map((load) => load.cls)),
  lcpElements: [...new Set(loads.map((load) => load.lcpElement))],
  shiftSources: [...new Set(loads.flatMap((load) => load.shifts.flatMap((shift) => shift.sources)))],
  headingText: loads[0]?.headingText,
});

async function measureRoutes(api) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const results = [];
  try {
    // One unmeasured load of every route first, so the API process's first requests (JIT, database pool) do not
    // land in the first cold figures: "cold" is the browser's cache, not the server.
    for (const route of ROUTES) {
      const context = await newContext(browser, api, route.signedIn);
      await measure(context, api.url + route.path);
      await context.close();
    }
    for (const route of ROUTES) {
      const cold = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await newContext(browser, api, route.signedIn);
        cold.push(await measure(context, api.url + route.path));
        await context.close();
      }
      const warm = [];
      const context = await newContext(browser, api, route.signedIn);
      await measure(context, api.url + route.path); // fills the cache
      for (let i = 0; i < RUNS; i++) warm.push(await measure(context, api.url + route.path));
      await context.close();
      results.push({ route, cold: summarise(cold), warm: summarise(warm) });
      process.stdout.write(`  measured ${route.label}\n`);
    }
  } finally {
    await browser.close();
  }
  return results;
}

function printTable(results) {
  const header = ['route', 'cache', 'FCP', 'LCP', 'CLS', 'TBT', 'longest task', 'heading visible'];
  const rows = results.flatMap(({ route, cold, warm }) =>
    [
      ['cold', cold],
      ['warm', warm],
    ].map(([cache, s], index) => [
      index ? '' : route.label,
      cache,
      ms(s.fcp),
      ms(s.lcp),
      cls(s.cls),
      ms(s.tbt),
      ms(s.longest),
      ms(s.heading),
    ]),
  );
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => row[column].length)));
  const line = (row) => row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  console.log(`\nMedians of ${RUNS} loads (cold: a fresh browser context per load; warm: one context, loaded once before)`);
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  rows.forEach((row) => console.log(line(row)));
  console.log('');
  for (const { route, cold, warm } of results) {
    console.log(
      `${route.label}: heading "${cold.headingText}"; LCP element ${cold.lcpElements.join(' | ')}; worst single load: longest task ${ms(Math.max(cold.maxLongest, warm.maxLongest))}, CLS ${cls(Math.max(cold.maxCls, warm.maxCls))}${cold.shiftSources.length || warm.shiftSources.length ? `; shifted: ${[...new Set([...cold.shiftSources, ...warm.shiftSources])].join(' | ')}` : ''}`,
    );
  }
}

/** Runs of a page whose trace Lighthouse could not record that are run again, over all its runs. */
const LIGHTHOUSE_RETRIES = 2;

async function runLighthouse(api) {
  const { default: lighthouse } = await import('lighthouse');
  const { default: desktopConfig } = await import('lighthouse/core/config/desktop-config.js');
  const chrome = await startDebuggableChromium(DEBUGGING_PORT);
  const results = [];
  try {
    for (const page of LIGHTHOUSE_PAGES) {
      const runs = [];
      // a run whose trace Lighthouse could not record (its runtimeError, e.g. NO_NAVSTART) is run again, as Lighthouse
      // itself asks, up to LIGHTHOUSE_RETRIES more times for the page; a page that never loads still fails the benchmark
      for (let i = 0, tries = 0; i < LIGHTHOUSE_RUNS; tries++) {
        const { lhr } = await lighthouse(
          api.url + page.path,
          {
            port: DEBUGGING_PORT,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance'],
            // the session cookie on every request of the page, as a signed-in browser sends it
            extraHeaders: page.signedIn ? { Cookie: api.cookie } : undefined,
          },
          desktopConfig,
        );
        if (lhr.runtimeError) {
          const problem = `Lighthouse on ${page.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`;
          if (tries + 1 >= LIGHTHOUSE_RUNS + LIGHTHOUSE_RETRIES) throw new Error(problem);
          console.log(`${problem}; running it again`);
          continue;
        }
        runs.push(lhr);
        i++;
      }
      runs.sort((a, b) => a.categories.performance.score - b.categories.performance.score);
      const lhr = runs[runs.length >> 1];
      const value = (id) => lhr.audits[id]?.numericValue ?? NaN;
      const opportunities = Object.values(lhr.audits)
        .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.details?.type === 'opportunity')
        .map((audit) => `${audit.title}${audit.details.overallSavingsMs ? ` (~${Math.round(audit.details.overallSavingsMs)} ms)` : ''}`);
      results.push({
        page,
        score: Math.round(lhr.categories.performance.score * 100),
        scores: runs.map((run) => Math.round(run.categories.performance.score * 100)),
        fcp: value('first-contentful-paint'),
        lcp: value('largest-contentful-paint'),
        tbt: value('total-blocking-time'),
        cls: value('cumulative-layout-shift'),
        si: value('speed-index'),
        opportunities,
      });
    }
  } finally {
    await chrome.stop();
  }
  console.log(
    `\nLighthouse ${JSON.parse(readFileSync(path.join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8')).version}, performance, desktop config (median of ${LIGHTHOUSE_RUNS} runs)`,
  );
  for (const r of results) {
    console.log(
      `${r.page.label}: score ${r.score} (runs ${r.scores.join(', ')}); FCP ${ms(r.fcp)}, LCP ${ms(r.lcp)}, TBT ${ms(r.tbt)}, CLS ${cls(r.cls)}, Speed Index ${ms(r.si)}`,
    );
    if (r.opportunities.length) console.log(`  opportunities: ${r.opportunities.join('; ')}`);
  }
  return results;
}

function benchLines(results, lighthouseResults) {
  const lines = [];
  const bench = (...row) => lines.push(benchRow(...row));
  for (const { route, cold } of results) bench(`LCP cold ${route.label}`, ms(cold.lcp), `≤ ${GOAL.lcpMs} ms`, cold.lcp <= GOAL.lcpMs);
  const cases = results.flatMap(({ route, cold, warm }) => [
    { where: `${route.label}, cold`, ...cold },
    { where: `${route.label}, warm`, ...warm },
  ]);
  const worstCls = cases.reduce((worst, c) => (c.cls > worst.cls ? c : worst));
  bench(`CLS, worst route (median of ${RUNS})`, `${cls(worstCls.cls)} (${worstCls.where})`, `≤ ${GOAL.cls}`, worstCls.cls <= GOAL.cls);
  const worstTask = cases.reduce((worst, c) => (c.longest > worst.longest ? c : worst));
  bench(
    `longest task, worst route (median of ${RUNS})`,
    `${ms(worstTask.longest)} (${worstTask.where})`,
    `≤ ${GOAL.longTaskMs} ms`,
    worstTask.longest <= GOAL.longTaskMs,
  );
  for (const r of lighthouseResults)
    bench(`Lighthouse performance ${r.page.label} (desktop)`, String(r.score), `≥ ${GOAL.lighthouse}`, r.score >= GOAL.lighthouse);
  return lines;
}

for (const file of ['dist/api/main.js', 'dist/shell/index.html']) {
  if (!existsSync(path.join(ROOT, file))) {
    console.error(`${file} is missing: run npm run build first`);
    process.exit(1);
  }
}
const api = await startBenchApi({
  port: PORT,
  dataDir: path.join(ROOT, '.data/bench-vitals'),
  env: {
    EMBEDDED_PG_PORT: String(PG_PORT),
    SESSION_SECRET: 'session-secret-of-the-web-vitals-benchmark-0123456789',
    // the seeded domains are never checked against the outside world
    DNS_SERVERS: '127.0.0.1:9',
    RDAP_BASE_URL: 'http://127.0.0.1:9',
  },
});
const apiExited = new Promise((resolve) => api.process.once('exit', resolve));
try {
  console.log(
    `Chromium ${CHROMIUM_PATH}, viewport ${VIEWPORT.width}×${VIEWPORT.height}, ${os.cpus().length} cores, the production build on ${api.url}`,
  );
  if (TRACE_DIR) {
    await traceRoutes(api);
  } else {
    const results = await measureRoutes(api);
    printTable(results);
    if (AT_GOALS_CONDITIONS) {
      const lighthouseResults = LIGHTHOUSE ? await runLighthouse(api) : [];
      console.log('');
      benchLines(results, lighthouseResults).forEach((line) => console.log(line));
    } else {
      console.log(`\nCPU ${CPU_SLOWDOWN}× slower${ONLY_PATH ? `, ${ONLY_PATH} only` : ''}: no goal lines (not the goals' conditions)`);
    }
  }
} finally {
  api.stop();
  await apiExited;
}
