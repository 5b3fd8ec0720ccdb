// Domain checks one production API process sustains: N domains (default 500) served by DNS, HTTPS and HTTP
// servers on loopback, a round every DOMAIN_CHECK_INTERVAL seconds each; prints rounds per second against the
// rate the interval asks for (the baseline of the same run), and the delay from a domain whose certificate
// ends in 5 days being verified (its TXT record published) to its alert arriving over /ws (p50/p99).
// Usage: npm run build && node bench/domain-checks.mjs [--domains 500] [--interval 5] [--seconds 20]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { transformFileSync } from '@swc/core';
import pg from 'pg';
import WebSocket from 'ws';
import { startBenchApi } from './api-process.mjs';
import { benchLine, numberArg } from './report.mjs';
import { ROOT } from '../scripts/run.mjs';

const DOMAINS = numberArg('domains', 500);
const INTERVAL = numberArg('interval', 5);
const SECONDS = numberArg('seconds', 20);
const ALERTING = 50; // of them with a certificate ending in 5 days
const DAY_MS = 86_400_000;

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
    i < ALERTING ? { certificate: { notBefore: new Date(now - 60 * DAY_MS), notAfter: new Date(now + 5 * DAY_MS) } } : {},
  );
}

const api = await startBenchApi({
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
});
const password = readFileSync(path.join(ROOT, '.data/bench/pg-password'), 'utf8').trim();
const db = new pg.Client({ connectionString: `postgres://postgres:${password}@127.0.0.1:54370/circuit_breaker_hub` });
await db.connect();

try {
  const socket = new WebSocket(`${api.url.replace('http', 'ws')}/ws`, { headers: { cookie: api.cookie } });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const addedAt = new Map();
  const delays = [];
  socket.on('message', (frame) => {
    const message = JSON.parse(frame.toString());
    if (message.type !== 'domainAlert' || message.data.alert.alertType !== 'certificate_expiring') return;
    const started = addedAt.get(message.data.domain);
    if (started !== undefined) delays.push(performance.now() - started);
  });

  for (const name of names) {
    const response = await fetch(`${api.url}/api/domains`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: api.cookie },
      body: JSON.stringify({ domain: name }),
    });
    if (response.status !== 201) throw new Error(`adding ${name}: ${response.status} ${await response.text()}`);
  }

  // ownership proven for every domain (only a verified domain gets the full round), then past the first rounds
  const verifications = await (
    await fetch(`${api.url}/api/domain-verifications?limit=${DOMAINS}`, { headers: { cookie: api.cookie } })
  ).json();
  for (const { recordName, recordValue } of verifications) {
    addedAt.set(recordName.replace(/^_cbhub-verify\./, ''), performance.now());
    servers.addRecord(recordName, 'TXT', recordValue);
  }
  const verified = async () =>
    Number((await db.query(`SELECT count(*) FROM domain_verifications WHERE status = 'verified'`)).rows[0].count);
  while ((await verified()) < DOMAINS) await new Promise((resolve) => setTimeout(resolve, 500));
  await new Promise((resolve) => setTimeout(resolve, INTERVAL * 2000));
  const count = async () => Number((await db.query('SELECT count(*) FROM domain_check_results')).rows[0].count);
  const before = await count();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  const rounds = (await count()) - before;
  const perSecond = rounds / ((performance.now() - started) / 1000);
  const asked = DOMAINS / INTERVAL;

  delays.sort((a, b) => a - b);
  const pick = (q) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))] ?? NaN;
  console.log(`${DOMAINS} domains, a round each every ${INTERVAL} s, ${SECONDS} s measured (node ${process.version})`);
  console.log(
    `rounds finished: ${perSecond.toFixed(1)}/s against ${asked.toFixed(1)}/s asked — ratio ${(perSecond / asked).toFixed(2)} (goal ≥ 0.95)`,
  );
  benchLine(`domain check rounds, ${DOMAINS} domains / asked`, (perSecond / asked).toFixed(2), '≥ 0.95', perSecond / asked >= 0.95);
  console.log(
    `TXT record published → the certificate alert over /ws: ${delays.length} of ${ALERTING}, p50 ${pick(0.5).toFixed(0)} ms, p99 ${pick(0.99).toFixed(0)} ms`,
  );
  socket.close();
} finally {
  await db.end();
  api.stop();
  await servers.stop();
}
