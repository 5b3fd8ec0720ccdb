// Domain checks one production API process sustains, and what each costs as the list grows: domains served by DNS,
// HTTPS and HTTP servers on loopback, a round every DOMAIN_CHECK_INTERVAL seconds each, measured at each of --sizes
// (100, 500 and 2,000 domains; `--sizes 500` measures one), the domains added as the sizes grow. At each size: rounds
// per second against the rate the interval asks for (the baseline of the same run); the API's CPU per round; what
// each round writes to PostgreSQL (transactions committed and rows inserted or updated, from pg_stat_database on the
// embedded database, which the API alone writes to); the API's resident memory; and the delay from a domain whose
// certificate ends in 5 days (one in ten) being verified (its TXT record published) to its alert arriving over /ws
// (p50/p99). The goal (rounds ≥ 0.95 of those asked) is checked at the middle size; each size prints its per-unit
// costs as a BENCH line, so that a cost that grows faster than the list shows.
// --profile also writes the API's CPU profile (node --cpu-prof) and prints its top frames.
// Usage: npm run build && node bench/domain-checks.mjs [--sizes 100,500,2000] [--interval 5] [--seconds 15] [--profile]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { transformFileSync } from '@swc/core';
import pg from 'pg';
import WebSocket from 'ws';
import { adminCall, BENCH_PG_PORT, cpuSeconds, startBenchApi } from './api-process.mjs';
import { apiProfiling } from './cpu-profile.mjs';
import { benchLine, goalSize, numberArg, rssMiB, sizesArg, withRetries } from './report.mjs';
import { ROOT } from '../scripts/run.mjs';

const SIZES = process.argv.includes('--domains') ? [numberArg('domains', 500)] : sizesArg([100, 500, 2000]);
const GOAL_SIZE = goalSize(SIZES);
const DOMAINS = SIZES.at(-1);
const INTERVAL = numberArg('interval', 5);
const SECONDS = numberArg('seconds', 15);
const DAY_MS = 86_400_000;
const profiling = apiProfiling();
/** The most verifications one listing returns (DOMAIN_LIST_LIMIT.max). */
const LISTING_MAX = 2000;
const alerting = (index) => index % 10 === 0; // one domain in ten has a certificate ending in 5 days

/** The loopback servers the API tests use, compiled from TypeScript for this script. */
function loadDomainServers() {
  const out = path.join(ROOT, '.data/bench-domain-servers');
  mkdirSync(out, { recursive: true });
  const { code } = transformFileSync(path.join(ROOT, 'api/test/domain-servers.ts'), {
    swcrc: false,
    jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
    module: { type: 'commonjs' },
  });
  writeFileSync(path.join(out, 'domain-servers.js'), code);
  return createRequire(import.meta.url)(path.join(out, 'domain-servers.js'));
}

const { startDomainServers } = loadDomainServers();
const servers = await startDomainServers();
const now = Date.now();
const names = Array.from({ length: DOMAINS }, (_, i) => `d${i}.${servers.suffix}`);
for (const [i, name] of names.entries()) {
  await servers.addHost(
    name,
    alerting(i) ? { certificate: { notBefore: new Date(now - 60 * DAY_MS), notAfter: new Date(now + 5 * DAY_MS) } } : {},
  );
}

const api = await withRetries(() =>
  startBenchApi({
    nodeArgs: profiling.nodeArgs,
    env: {
      DNS_SERVERS: servers.dnsServer,
      DOMAIN_HTTPS_PORT: String(servers.https.port),
      DOMAIN_HTTP_PORT: String(servers.http.port),
      DOMAIN_CHECK_INTERVAL: String(INTERVAL),
      ALLOW_PRIVATE_TARGETS: '127.0.0.0/8',
      NODE_EXTRA_CA_CERTS: servers.caFile,
      RDAP_BASE_URL: 'http://127.0.0.1:9',
      // one account adds every domain of the run
      DOMAINS_PER_USER: String(DOMAINS),
      DOMAINS_TOTAL: String(DOMAINS),
    },
  }),
);
const password = readFileSync(path.join(ROOT, '.data/bench/pg-password'), 'utf8').trim();
const db = new pg.Client({ connectionString: `postgres://postgres:${password}@127.0.0.1:${BENCH_PG_PORT}/circuit_breaker_hub` });
await db.connect();

/** The database's counters: transactions committed, rows inserted and updated. */
async function databaseWrites() {
  const { rows } = await db.query('SELECT xact_commit, tup_inserted, tup_updated FROM pg_stat_database WHERE datname = current_database()');
  return { commits: Number(rows[0].xact_commit), inserted: Number(rows[0].tup_inserted), updated: Number(rows[0].tup_updated) };
}

const results = [];
try {
  const socket = new WebSocket(`${api.url.replace('http', 'ws')}/ws`, { headers: { cookie: api.cookie } });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const addedAt = new Map();
  let delays = [];
  socket.on('message', (frame) => {
    const message = JSON.parse(frame.toString());
    if (message.type !== 'domainAlert' || message.data.alert.alertType !== 'certificate_expiring') return;
    const started = addedAt.get(message.data.domain);
    if (started !== undefined) delays.push(performance.now() - started);
  });
  const count = async (sql) => Number((await db.query(sql)).rows[0].count);

  let added = 0;
  for (const size of SIZES) {
    // the domains up to this size, four requests at a time
    const adding = names.slice(added, size);
    for (let i = 0; i < adding.length; i += 4) {
      await Promise.all(adding.slice(i, i + 4).map((name) => adminCall(api, 'POST', '/api/domains', { domain: name }, 201)));
    }
    added = size;
    // ownership proven for every new domain (only a verified domain gets the full round), then past the first rounds
    delays = [];
    const verifications = await adminCall(api, 'GET', `/api/domain-verifications?limit=${Math.min(size, LISTING_MAX)}`);
    for (const { recordName, recordValue } of verifications) {
      const domain = recordName.replace(/^_cbhub-verify\./, '');
      if (addedAt.has(domain)) continue;
      addedAt.set(domain, performance.now());
      servers.addRecord(recordName, 'TXT', recordValue);
    }
    const verifiedBy = Date.now() + 120_000;
    while ((await count(`SELECT count(*) FROM domain_verifications WHERE status = 'verified'`)) < size && Date.now() < verifiedBy) {
      await sleep(500);
    }
    await sleep(INTERVAL * 2000);

    const rounds = () => count('SELECT count(*) FROM domain_check_results');
    const before = { rounds: await rounds(), cpu: cpuSeconds(api.process.pid), writes: await databaseWrites(), at: performance.now() };
    await sleep(SECONDS * 1000);
    const finished = (await rounds()) - before.rounds;
    const seconds = (performance.now() - before.at) / 1000;
    const cpu = cpuSeconds(api.process.pid) - before.cpu;
    const writes = await databaseWrites();
    const perSecond = finished / seconds;
    const asked = size / INTERVAL;
    delays.sort((a, b) => a - b);
    const pick = (q) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))] ?? NaN;
    const per = (n) => (finished > 0 ? n / finished : NaN);
    const result = {
      size,
      ratio: perSecond / asked,
      cpuMs: per(cpu * 1000),
      commits: per(writes.commits - before.writes.commits),
      rows: per(writes.inserted - before.writes.inserted + writes.updated - before.writes.updated),
      rss: rssMiB(api.process.pid),
    };
    results.push(result);
    console.log(
      `${size} domains, a round each every ${INTERVAL} s, ${SECONDS} s measured: ${perSecond.toFixed(1)}/s finished against ${asked.toFixed(1)}/s asked — ` +
        `ratio ${result.ratio.toFixed(2)}; per round: API CPU ${result.cpuMs.toFixed(2)} ms, ${result.commits.toFixed(1)} commits, ` +
        `${result.rows.toFixed(1)} rows inserted or updated; API RSS ${result.rss.toFixed(0)} MiB`,
    );
    console.log(
      `${size} domains: TXT record published → the certificate alert over /ws: ${delays.length} of ${adding.filter((_, i) => alerting(size - adding.length + i)).length}, ` +
        `p50 ${pick(0.5).toFixed(0)} ms, p99 ${pick(0.99).toFixed(0)} ms`,
    );
    benchLine(
      `domain checks at ${size} domains: API CPU per round, PostgreSQL commits and rows written per round, rounds / asked`,
      `${result.cpuMs.toFixed(2)} ms, ${result.commits.toFixed(1)}, ${result.rows.toFixed(1)}, ${result.ratio.toFixed(2)}`,
      'printed',
      true,
    );
  }
  socket.close();
} finally {
  await db.end();
  await api.stop();
  await servers.stop();
}
profiling.report();
const atGoal = results.find((result) => result.size === GOAL_SIZE);
console.log(`(node ${process.version}) rounds at ${GOAL_SIZE} domains: ${atGoal.ratio.toFixed(2)} of those asked (goal ≥ 0.95)`);
benchLine(`domain check rounds, ${GOAL_SIZE} domains / asked`, atGoal.ratio.toFixed(2), '≥ 0.95', atGoal.ratio >= 0.95);
