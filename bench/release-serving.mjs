// Remote releases, measured on two production API processes of one database:
// - serving a remote's files from the release store (PostgreSQL, through each replica's cache of immutable files)
//   against the same files from the deployed folder (its content-named chunks kept in memory once read, as the store's
//   are: serveImmutableFiles in api/src/platform/web/immutable-files.ts): autocannon on the
//   dashboard's exposed-module chunk with Accept-Encoding: br, --runs rounds (default 3) of static then store,
//   median ratio (goal ≥ 0.8);
// - a promote reaching every replica: --promotes (default 20) promotes on replica A, alternating two versions, each
//   timed until replica B's /remotes.json names it (p50, max; goal max ≤ 2 s).
// Usage: npm run build && node bench/release-serving.mjs [--seconds 10] [--connections 50] [--runs 3] [--promotes 20]
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { ROOT } from '../scripts/run.mjs';
import { adminCall, freePort, startBenchApi } from './api-process.mjs';
import { benchLine, numberArg } from './report.mjs';

const SECONDS = numberArg('seconds', 10);
const CONNECTIONS = numberArg('connections', 50);
const RUNS = numberArg('runs', 3);
const PROMOTES = numberArg('promotes', 20);
const FOLDER = path.join(ROOT, 'dist/mfe-dashboard');
const CHUNK = readdirSync(FOLDER).find((name) => /^__federation_expose_Routes\.[0-9a-f]+\.js$/.test(name));
const ENV = { EMBEDDED_PG_PORT: String(await freePort()), SESSION_SECRET: 'a-session-secret-both-bench-replicas-share' };
const dataDir = path.join(ROOT, '.data/bench-releases');

const run = (url) =>
  new Promise((resolve, reject) =>
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers: { 'accept-encoding': 'br' } }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );
const line = (name, r) =>
  `${name.padEnd(44)} ${r.requests.average.toFixed(0).padStart(8)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms   non-2xx ${r.non2xx}`;
const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

let a;
let b;
try {
  a = await startBenchApi({ port: await freePort(), env: ENV, dataDir });
  b = await startBenchApi({ port: await freePort(), env: ENV, dataDir, fresh: false });
  const files = readdirSync(FOLDER).map((name) => ({ path: name, content: readFileSync(path.join(FOLDER, name)).toString('base64') }));
  const v1 = await adminCall(a, 'POST', '/api/releases/mfe_dashboard/versions', { files }, 201);
  // a second version: the same files but one, so the store holds both and shares the rest
  const v2 = await adminCall(
    a,
    'POST',
    '/api/releases/mfe_dashboard/versions',
    { files: [...files, { path: 'release-marker.txt', content: Buffer.from('v2').toString('base64') }] },
    201,
  );
  await adminCall(a, 'POST', '/api/releases/mfe_dashboard/promote', { versionId: v1.id }, 200);

  console.log(`autocannon: ${CONNECTIONS} connections, ${SECONDS} s each, ${RUNS} rounds of static then store, ${CHUNK} with br`);
  const ratios = [];
  for (let round = 1; round <= RUNS; round++) {
    const folder = await run(`${a.url}/remotes/mfe-dashboard/${CHUNK}`);
    const store = await run(`${a.url}/releases/mfe_dashboard/${v1.id}/${CHUNK}`);
    if (folder.non2xx || store.non2xx) throw new Error(`non-2xx answers: folder ${folder.non2xx}, store ${store.non2xx}`);
    console.log(line(`round ${round}: deployed folder`, folder));
    console.log(line(`round ${round}: release store`, store));
    ratios.push(store.requests.average / folder.requests.average);
  }

  const entryOf = async (site) =>
    (await (await fetch(`${site.url}/remotes.json`)).json()).remotes.find((remote) => remote.name === 'mfe_dashboard').entry;
  const delays = [];
  for (let i = 0; i < PROMOTES; i++) {
    const version = i % 2 === 0 ? v2 : v1;
    const wanted = `/releases/mfe_dashboard/${version.id}/mf-manifest.json`;
    const started = performance.now();
    await adminCall(a, 'POST', '/api/releases/mfe_dashboard/promote', { versionId: version.id }, 200);
    while ((await entryOf(b)) !== wanted) {
      if (performance.now() - started > 10_000) throw new Error(`replica B never served version ${version.id}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    delays.push(performance.now() - started);
  }
  delays.sort((x, y) => x - y);
  const ratio = median(ratios);
  console.log(
    `promote on A until B's /remotes.json names it, ${PROMOTES} times: p50 ${median(delays).toFixed(0)} ms, max ${delays.at(-1).toFixed(0)} ms`,
  );
  benchLine('release store / deployed folder, throughput of a chunk (br)', `${ratio.toFixed(2)}×`, '≥ 0.8×', ratio >= 0.8);
  benchLine('promote reaching the other replica, max', `${delays.at(-1).toFixed(0)} ms`, '≤ 2000 ms', delays.at(-1) <= 2000);
} finally {
  await b?.stop();
  await a?.stop();
}
