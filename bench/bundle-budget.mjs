// Builds the site for production from scratch and prints, per app, the JavaScript it ships against the budgets:
//   shell initial JS ≤ 150 KB gzip (measured in Chromium: every script the shell loads to render a page)
//   each remoteEntry.js ≤ 10 KB gzip
//   full production build ≤ 60 s
// Usage: npm run bench:bundle  [-- --no-build to measure the current dist/]
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.mjs';
import { buildAll, ROOT } from '../scripts/run.mjs';

const DIST = path.join(ROOT, 'dist');
const KB = 1024;
const BUDGET = { shellInitialGzip: 150 * KB, remoteEntryGzip: 10 * KB, buildMs: 60_000 };
const REMOTES = ['mfe-learning', 'mfe-dashboard', 'mfe-domains', 'mfe-users', 'mfe-patterns'];

const sizes = (file) => {
  const bytes = readFileSync(file);
  return { raw: bytes.length, gzip: gzipSync(bytes).length };
};
const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
const verdict = (value, budget) => `${(value / budget).toFixed(2)}× budget ${value <= budget ? 'OK' : 'OVER'}`;
const sum = (list) => list.reduce((total, s) => ({ raw: total.raw + s.raw, gzip: total.gzip + s.gzip }), { raw: 0, gzip: 0 });

let buildMs = null;
if (!process.argv.includes('--no-build')) {
  rmSync(DIST, { recursive: true, force: true });
  const started = performance.now();
  const code = await buildAll(['--skip-nx-cache']);
  buildMs = performance.now() - started;
  if (code !== 0) process.exit(code);
}

/** The shell alone, as a browser loads it: a page no remote owns, signed out, no remotes registered. */
async function shellInitialScripts() {
  const shellDir = path.join(DIST, 'shell');
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/remotes.json') return res.end('{"remotes":[]}');
    if (url.pathname === '/api/auth/user') {
      res.statusCode = 401;
      return res.end('{"statusCode":401,"error":"Unauthorized","message":"Not signed in"}');
    }
    const file = path.join(shellDir, path.normalize(url.pathname));
    const isFile = file.startsWith(shellDir) && statSync(file, { throwIfNoEntry: false })?.isFile();
    res.setHeader('content-type', file.endsWith('.js') ? 'text/javascript' : 'text/html');
    res.end(readFileSync(isFile ? file : path.join(shellDir, 'index.html')));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const scripts = new Set();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.add(new URL(response.url()).pathname);
    });
    await page.goto(`http://127.0.0.1:${server.address().port}/bench`, { waitUntil: 'networkidle' });
    await page.getByText('404 Page Not Found').waitFor();
    return [...scripts].map((p) => ({ file: p.slice(1), ...sizes(path.join(shellDir, p)) }));
  } finally {
    await browser.close();
    server.close();
  }
}

const lines = [];
const print = (line = '') => lines.push(line) && console.log(line);

const initial = await shellInitialScripts();
const initialTotal = sum(initial);
print('Bundle budget (gzip = zlib default level)');
print(
  `shell initial JS: ${initial.length} files, ${kb(initialTotal.raw)} raw, ${kb(initialTotal.gzip)} gzip — ${verdict(initialTotal.gzip, BUDGET.shellInitialGzip)}`,
);
for (const file of initial.sort((a, b) => b.gzip - a.gzip))
  print(`    ${file.file.padEnd(28)} ${kb(file.raw).padStart(10)} raw ${kb(file.gzip).padStart(9)} gzip`);

print();
print('remote            remoteEntry.js raw / gzip        exposed Routes (sync) gzip   all JS in dist (raw)');
for (const remote of REMOTES) {
  const dir = path.join(DIST, remote);
  const entry = sizes(path.join(dir, 'remoteEntry.js'));
  const manifest = JSON.parse(readFileSync(path.join(dir, 'mf-manifest.json'), 'utf8'));
  const exposed = sum(manifest.exposes.flatMap((e) => e.assets.js.sync).map((f) => sizes(path.join(dir, f))));
  const all = sum(
    readdirSync(dir)
      .filter((f) => f.endsWith('.js'))
      .map((f) => sizes(path.join(dir, f))),
  );
  print(
    `${remote.padEnd(17)} ${kb(entry.raw).padStart(9)} / ${kb(entry.gzip).padStart(7)} ${verdict(entry.gzip, BUDGET.remoteEntryGzip).padEnd(17)} ${kb(exposed.gzip).padStart(10)}   ${kb(all.raw).padStart(12)}`,
  );
}
print();
print(
  buildMs === null
    ? 'full production build: not measured (--no-build)'
    : `full production build (7 apps, 2 in parallel, no cache): ${(buildMs / 1000).toFixed(1)} s — ${verdict(buildMs, BUDGET.buildMs)}`,
);
