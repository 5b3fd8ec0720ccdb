// The public status page, measured on one production API process: autocannon on /status/{slug} (a page of 20
// components, each with two breakers, 90 days of bars and three open incidents, rendered by the server and cached per
// replica) against a static file of the same bytes served by the same replica (@fastify/static from the shell's
// folder), --runs rounds (default 3) of static then page, median ratio (goal ≥ 0.8) and the page's p99 (goal ≤ 25 ms
// at 50 connections). While the page is served, the database counts the queries the hub ran: 1,000 visitors a second
// must cost it next to nothing (one build per FRESH_MS).
// Usage: npm run build && node bench/status-pages.mjs [--seconds 10] [--connections 50] [--runs 3]
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { ROOT } from '../scripts/run.mjs';
import { adminCall, cpuSeconds, freePort, startBenchApi } from './api-process.mjs';
import { benchLine, numberArg } from './report.mjs';

const SECONDS = numberArg('seconds', 10);
const CONNECTIONS = numberArg('connections', 50);
const RUNS = numberArg('runs', 3);
const COMPONENTS = 20;
const STATIC_NAME = 'bench-status-page.html';
const STATIC_FILE = path.join(ROOT, 'dist/shell', STATIC_NAME);

const run = (url) =>
  new Promise((resolve, reject) =>
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS }, (error, result) => (error ? reject(error) : resolve(result))),
  );
const line = (name, r) =>
  `${name.padEnd(36)} ${r.requests.average.toFixed(0).padStart(8)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms   non-2xx ${r.non2xx}`;
const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

let api;
let db;
try {
  const port = await freePort();
  api = await startBenchApi({ port, env: { EMBEDDED_PG_PORT: String(await freePort()) }, dataDir: path.join(ROOT, '.data/bench-status') });
  const call = (method, url, body, status = 200) => adminCall(api, method, url, body, status);
  const breakers = [];
  for (let i = 0; i < COMPONENTS * 2; i++) {
    breakers.push(
      await call(
        'POST',
        '/api/circuit-breakers',
        {
          name: `bench-status-${i}`,
          type: 'simple',
          failureThreshold: 5,
          timeout: 30_000,
          recoveryTime: 60_000,
          successThreshold: 2,
        },
        201,
      ),
    );
  }
  const page = await call(
    'POST',
    '/api/status-pages',
    {
      slug: 'bench',
      title: 'Bench Services',
      description: 'Twenty components, each driven by two breakers.',
      public: true,
      components: Array.from({ length: COMPONENTS }, (_, i) => ({
        name: `Component ${i + 1}`,
        group: `Group ${Math.floor(i / 5) + 1}`,
        breakers: [breakers[2 * i].id, breakers[2 * i + 1].id],
      })),
    },
    201,
  );
  for (let i = 0; i < 3; i++) {
    await call(
      'POST',
      `/api/status-pages/${page.id}/incidents`,
      {
        title: `Incident ${i + 1}`,
        impact: 'minor',
        components: [{ id: page.components[i].id, state: 'degraded' }],
        message: 'We are **looking** into it.',
      },
      201,
    );
  }
  await call('POST', `/api/circuit-breakers/${breakers[0].id}/force-open`);
  await new Promise((resolve) => setTimeout(resolve, 2500));
  const html = await (await fetch(`${api.url}/status/bench`)).text();
  if (!html.includes('Incident 3')) throw new Error('the page does not show its incidents');
  writeFileSync(STATIC_FILE, html);
  console.log(
    `page of ${COMPONENTS} components, ${html.length} bytes; autocannon: ${CONNECTIONS} connections, ${SECONDS} s each, ${RUNS} rounds`,
  );

  db = new pg.Client({ connectionString: api.databaseUrl });
  const queries = async () => {
    try {
      const { rows } = await db.query(
        'SELECT sum(xact_commit + xact_rollback)::bigint AS n FROM pg_stat_database WHERE datname = current_database()',
      );
      return Number(rows[0].n);
    } catch {
      return null;
    }
  };
  await db.connect().catch(() => (db = null));

  const ratios = [];
  const p99s = [];
  const fileP99s = [];
  const cpuPerView = [];
  let transactions = null;
  for (let round = 1; round <= RUNS; round++) {
    const file = await run(`${api.url}/${STATIC_NAME}`);
    const before = db ? await queries() : null;
    const cpu = cpuSeconds(api.process.pid);
    const status = await run(`${api.url}/status/bench`);
    cpuPerView.push(((cpuSeconds(api.process.pid) - cpu) * 1000) / Math.max(1, status.requests.total));
    const after = db ? await queries() : null;
    if (file.non2xx || status.non2xx) throw new Error(`non-2xx answers: file ${file.non2xx}, page ${status.non2xx}`);
    console.log(line(`round ${round}: static file`, file));
    console.log(line(`round ${round}: status page`, status));
    ratios.push(status.requests.average / file.requests.average);
    p99s.push(status.latency.p99);
    fileP99s.push(file.latency.p99);
    if (before !== null && after !== null) transactions = (after - before) / SECONDS;
  }
  const ratio = median(ratios);
  const p99 = median(p99s);
  if (transactions !== null)
    console.log(`database transactions while the page was served: ${transactions.toFixed(1)} a second (all the hub's work)`);
  benchLine('status page / static file, throughput', `${ratio.toFixed(2)}×`, '≥ 0.8×', ratio >= 0.8);
  // at connections that never pause the p99 is mostly the queue's wait, so it follows the machine: the static file's
  // p99, served by the same process in the same round, says what the machine allowed
  benchLine(`static file p99 at ${CONNECTIONS} connections (the floor)`, `${median(fileP99s)} ms`, '—', null);
  benchLine('status page p99 at 50 connections', `${p99} ms`, '≤ 25 ms', p99 <= 25);
  benchLine('API CPU per status page view, at full speed', `${median(cpuPerView).toFixed(3)} ms`, 'printed', true);
} finally {
  rmSync(STATIC_FILE, { force: true });
  await db?.end().catch(() => undefined);
  await api?.stop();
}
