// What a browser downloads, measured in Chromium against the production build served by the real API
// (dist/api/main.js), against the budgets:
//   shell initial JS ≤ 150 KB gzip: every script the shell loads to render a page no remote owns, signed out
//   each route ≤ 50 KB gzip of JS on first navigation to it after the shell (remote entry + all it loads)
//   each remoteEntry.js ≤ 10 KB gzip
//   no vendor library downloaded twice in a visit of every route (the remotes share, not repeat, vendors)
//   full production build ≤ 60 s
// Libraries are told apart in the downloaded files through dist/bundle-stats/<app>.json, which the build
// writes (tools/webpack/bundle-stats-plugin.cjs). Ends with one `BENCH\t<measure>\t<figure>\t<goal>\t<OK|MISSED>`
// line per measure for the benchmark summary.
// Usage: npm run bench:bundle  [-- --no-build to measure the current dist/]  [--dist <dir> to measure another build]
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.mjs';
import { buildAll, ROOT } from '../scripts/run.mjs';
import { adminCall, startBenchApi } from './api-process.mjs';
import { benchRow, verdict } from './report.mjs';

const distArg = process.argv.indexOf('--dist');
const DIST = distArg > 0 ? path.resolve(process.argv[distArg + 1]) : path.join(ROOT, 'dist');
const KB = 1024;
const BUDGET = { shellInitialGzip: 150 * KB, routeGzip: 50 * KB, remoteEntryGzip: 10 * KB, buildMs: 60_000 };
// the database port below Linux's ephemeral ports, as BENCH_PG_PORT (api-process.mjs)
const SITE = { port: 3461, pgPort: '25461', dataDir: path.join(ROOT, '.data/bench-bundle') };
/** A path no remote owns: the shell alone renders it (the not-found page). */
const SHELL_ONLY_PATH = '/bench-bundle-not-a-page';
/** Scripts requested within this long of each other belong to one navigation. */
const QUIET_MS = 1000;
/**
 * The federation glue of a container's webpack runtime (bundler runtime, sdk helpers, error codes): every
 * remote's entry carries its own, as it runs before it could borrow anything, so it is not counted as a repeat.
 */
const CONTAINER_GLUE = /^@module-federation\//;

const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
const gzip = (bytes) => gzipSync(bytes).length;
const summary = [];
const bench = (...row) => summary.push(benchRow(...row));

let buildMs = null;
if (!process.argv.includes('--no-build') && distArg < 0) {
  rmSync(DIST, { recursive: true, force: true });
  const started = performance.now();
  const code = await buildAll(['--skip-nx-cache']);
  buildMs = performance.now() - started;
  if (code !== 0) process.exit(code);
}

/** The app a script of the site comes from and its file name: /remotes/<app>/<file> or the shell's /<file>. */
function appFile(pathname) {
  const remote = /^\/remotes\/([^/]+)\/(.+)$/.exec(pathname);
  return remote ? { app: remote[1], file: remote[2] } : { app: 'shell', file: pathname.slice(1) };
}

const statsByApp = new Map();
/** What the build's stats say a downloaded file holds: packages by source size, and its npm modules. */
function contentsOf({ app, file }) {
  if (!statsByApp.has(app)) {
    const statsFile = path.join(DIST, 'bundle-stats', `${app}.json`);
    statsByApp.set(app, existsSync(statsFile) ? JSON.parse(readFileSync(statsFile, 'utf8')).files : {});
  }
  return statsByApp.get(app)[file] ?? { packages: {}, npmModules: [] };
}
/** The npm package of a module path under node_modules. */
const packageOfModule = (modulePath) =>
  modulePath
    .split('/')
    .slice(0, modulePath.startsWith('@') ? 2 : 1)
    .join('/');

/** Records the scripts a page requests, with the gzip size of each. */
function recordScripts(page) {
  const scripts = [];
  const pending = new Set();
  let last = performance.now();
  page.on('request', (request) => {
    if (request.resourceType() !== 'script') return;
    pending.add(request);
    last = performance.now();
  });
  page.on('requestfailed', (request) => {
    pending.delete(request);
    last = performance.now();
  });
  page.on('requestfinished', async (request) => {
    if (!pending.has(request)) return;
    const response = await request.response();
    const body = response ? await response.body().catch(() => Buffer.alloc(0)) : Buffer.alloc(0);
    scripts.push({ pathname: new URL(request.url()).pathname, raw: body.length, gzip: gzip(body) });
    pending.delete(request);
    last = performance.now();
  });
  return {
    scripts,
    /** Resolves when no script is loading and none was asked for during QUIET_MS. */
    async quiet() {
      const deadline = performance.now() + 30_000;
      while (pending.size > 0 || performance.now() - last < QUIET_MS) {
        if (performance.now() > deadline)
          throw new Error(`scripts still loading after 30 s: ${[...pending].map((r) => r.url()).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

/** Moves the shell's router to a path as an in-app link would (no page load). */
async function navigateInApp(page, target) {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, target);
}

/** The page's main heading once the route has rendered (not the not-found page, the spinner or a fallback). */
async function routeHeading(page) {
  const heading = page.getByRole('main').getByRole('heading', { level: 1 }).first();
  await page.waitForFunction(() => {
    const h1 = document.querySelector('main h1');
    return h1 && h1.textContent !== '404 Page Not Found';
  });
  return (await heading.textContent())?.trim();
}

const api = await startBenchApi({
  port: SITE.port,
  dataDir: SITE.dataDir,
  env: { EMBEDDED_PG_PORT: SITE.pgPort, LOG_LEVEL: 'warn', STATIC_ROOT: DIST },
});
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const lines = [];
const print = (line = '') => lines.push(line) && console.log(line);

try {
  const [cookieName, cookieValue] = api.cookie.split(/=(.*)/s);
  const signedIn = { cookies: [{ name: cookieName, value: cookieValue, url: api.url }], origins: [] };
  const manifest = await (await fetch(`${api.url}/remotes.json`)).json();
  const breakers = await adminCall(api, 'GET', '/api/circuit-breakers');
  if (!breakers[0]) throw new Error('the site has no breaker to open /circuit-breakers/:id with');
  // a status page with a component on that breaker, so /status-pages/:id is measured with its tabs drawn
  const statusPage = await adminCall(api, 'POST', '/api/status-pages', {
    slug: 'bench-bundle',
    title: 'Bench',
    public: true,
    components: [{ name: 'Core', breakers: [breakers[0].id] }],
  });
  const idFor = (route) => String(route.startsWith('/status-pages/') ? statusPage.id : breakers[0].id);
  const routes = manifest.remotes.flatMap((remote) =>
    remote.routes.map((route) => ({ route, remote: remote.name, path: route.replace(':id', idFor(route)) })),
  );

  /** A fresh browser (empty cache) on the shell alone, settled. */
  async function shellPage(storageState) {
    const context = await browser.newContext({ storageState });
    const page = await context.newPage();
    const recorder = recordScripts(page);
    await page.goto(`${api.url}${SHELL_ONLY_PATH}`);
    await page.getByText('404 Page Not Found').waitFor();
    await recorder.quiet();
    return { context, page, recorder };
  }

  // 1. The shell alone, signed out
  {
    const { context, recorder } = await shellPage(undefined);
    const files = recorder.scripts;
    const total = files.reduce((sum, f) => sum + f.gzip, 0);
    const raw = files.reduce((sum, f) => sum + f.raw, 0);
    print('Bundle budget (gzip = zlib default level; measured in Chromium against the production API)');
    print(
      `shell initial JS (signed out, ${SHELL_ONLY_PATH}): ${files.length} files, ${kb(raw)} raw, ${kb(total)} gzip — ≤ ${kb(BUDGET.shellInitialGzip)} ${verdict(total <= BUDGET.shellInitialGzip)}`,
    );
    for (const f of [...files].sort((a, b) => b.gzip - a.gzip)) {
      const top = Object.entries(contentsOf(appFile(f.pathname)).packages)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([name]) => name)
        .join(', ');
      print(`    ${f.pathname.slice(1).padEnd(34)} ${kb(f.raw).padStart(9)} raw ${kb(f.gzip).padStart(8)} gzip   ${top}`);
    }
    // which packages make those bytes: each file's gzip shared out by its packages' source sizes (an estimate)
    const byPackage = new Map();
    for (const f of files) {
      const packages = Object.entries(contentsOf(appFile(f.pathname)).packages);
      const source = packages.reduce((sum, [, size]) => sum + size, 0);
      for (const [name, size] of packages) byPackage.set(name, (byPackage.get(name) ?? 0) + (source ? (f.gzip * size) / source : 0));
    }
    print('  by package (estimated gzip):');
    for (const [name, bytes] of [...byPackage].sort((a, b) => b[1] - a[1]).filter(([, bytes]) => bytes >= 0.05 * KB))
      print(`    ${name.padEnd(52)} ${kb(bytes).padStart(8)}`);
    bench('shell initial JS (gzip)', kb(total), `≤ ${kb(BUDGET.shellInitialGzip)}`, total <= BUDGET.shellInitialGzip);
    await context.close();
  }

  // 2. Each route on first navigation after the shell, signed in as the bootstrap admin, each in a fresh browser
  print();
  print(`first navigation to each route after the shell (signed in; JS only, gzip) — ≤ ${kb(BUDGET.routeGzip)} each`);
  for (const route of routes) {
    const { context, page, recorder } = await shellPage(signedIn);
    const before = recorder.scripts.length;
    await navigateInApp(page, route.path);
    const heading = await routeHeading(page);
    await recorder.quiet();
    const files = recorder.scripts.slice(before);
    const total = files.reduce((sum, f) => sum + f.gzip, 0);
    const ok = total <= BUDGET.routeGzip;
    print(
      `  ${route.path.padEnd(34)} ${kb(total).padStart(8)} in ${String(files.length).padStart(2)} files  ${verdict(ok).padEnd(6)} "${heading}"`,
    );
    for (const f of [...files].sort((a, b) => b.gzip - a.gzip)) print(`      ${f.pathname.padEnd(58)} ${kb(f.gzip).padStart(8)}`);
    bench(`route ${route.route} first navigation JS (gzip)`, kb(total), `≤ ${kb(BUDGET.routeGzip)}`, ok);
    await context.close();
  }

  // 3. remote entries
  print();
  let largestEntry = { app: '', gzip: 0 };
  for (const remote of manifest.remotes) {
    const folder = /^\/remotes\/([\w-]+)\//.exec(remote.entry)[1];
    const entry = gzip(readFileSync(path.join(DIST, folder, 'remoteEntry.js')));
    if (entry > largestEntry.gzip) largestEntry = { app: folder, gzip: entry };
    print(
      `  ${folder}/remoteEntry.js`.padEnd(38) +
        `${kb(entry).padStart(8)} gzip  ≤ ${kb(BUDGET.remoteEntryGzip)} ${verdict(entry <= BUDGET.remoteEntryGzip)}`,
    );
  }
  bench(
    `largest remoteEntry.js (${largestEntry.app}, gzip)`,
    kb(largestEntry.gzip),
    `≤ ${kb(BUDGET.remoteEntryGzip)}`,
    largestEntry.gzip <= BUDGET.remoteEntryGzip,
  );

  // 4. One visit of every route: which vendor libraries arrive, in which files, how often
  print();
  print('a visit of every route in one browser (signed in): files that carry npm packages, and their downloads');
  {
    const { context, page, recorder } = await shellPage(signedIn);
    for (const route of routes) {
      await navigateInApp(page, route.path);
      await routeHeading(page);
      await recorder.quiet();
    }
    const downloads = new Map();
    for (const f of recorder.scripts) downloads.set(f.pathname, { ...f, times: (downloads.get(f.pathname)?.times ?? 0) + 1 });
    const filesOf = new Map(); // npm module → the downloads of files holding it
    for (const [pathname, f] of downloads) {
      const { npmModules } = contentsOf(appFile(pathname));
      if (npmModules.length === 0) continue;
      const entry = pathname.endsWith('/remoteEntry.js');
      for (const module of npmModules) {
        // a remote's entry is loaded before it can borrow anything: its container's federation glue is its own
        if (entry && CONTAINER_GLUE.test(module)) continue;
        filesOf.set(module, [...(filesOf.get(module) ?? []), ...Array(f.times).fill(pathname)]);
      }
      const packages = [...new Set(npmModules.map(packageOfModule))];
      print(`  ${String(f.times).padStart(2)}×  ${pathname.padEnd(58)} ${kb(f.gzip).padStart(8)}  ${packages.join(', ')}`);
    }
    const repeatedByPackage = new Map();
    for (const [module, files] of filesOf) {
      if (files.length < 2) continue;
      const name = packageOfModule(module);
      repeatedByPackage.set(name, new Set([...(repeatedByPackage.get(name) ?? []), ...files]));
    }
    print();
    print(`vendor libraries downloaded more than once: ${repeatedByPackage.size} — goal 0 ${verdict(repeatedByPackage.size === 0)}`);
    for (const [name, files] of repeatedByPackage) print(`    ${name}: in ${[...files].join(', ')}`);
    const repeated = [...repeatedByPackage.keys()];
    bench('vendor libraries downloaded twice (visit of every route)', String(repeated.length), '0', repeated.length === 0);
    await context.close();
  }

  print();
  if (buildMs === null) print('full production build: not measured (--no-build)');
  else {
    print(
      `full production build (8 apps, 2 in parallel, no cache): ${(buildMs / 1000).toFixed(1)} s — ≤ 60 s ${verdict(buildMs <= BUDGET.buildMs)}`,
    );
    bench('full production build', `${(buildMs / 1000).toFixed(1)} s`, '≤ 60 s', buildMs <= BUDGET.buildMs);
  }
} finally {
  await browser.close();
  await api.stop();
}
print();
for (const line of summary) console.log(line);
