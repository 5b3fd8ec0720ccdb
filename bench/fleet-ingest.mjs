// Agents' reports into two replicas: --instances (default 200) service instances of one service, each with --breakers
// (default 20) breakers, every one reporting once a second (spread over the second, half to each replica) for
// --seconds (default 40). Measured:
// - wall freshness: a probe breaker of one more instance changes state every 3 s; a /ws client on the other replica
//   times each change from the report that carried it to the first metricsUpdate showing it (p50, p99; goal p99 ≤ 3 s);
// - the API's CPU per report (both replicas' user + system time over the run, over the reports they took), against
//   the baseline of the same processes' CPU per GET /api/auth/user with the same token, measured first at the same rate;
// - reports refused or failed (goal 0).
// Usage: npm run build && node bench/fleet-ingest.mjs [--instances 200] [--breakers 20] [--seconds 40]
import path from 'node:path';
import WebSocket from 'ws';
import { ROOT } from '../scripts/run.mjs';
import { cpuSeconds, freePort, startBenchApi } from './api-process.mjs';
import { benchLine, numberArg } from './report.mjs';

const INSTANCES = numberArg('instances', 200);
const BREAKERS = numberArg('breakers', 20);
const SECONDS = numberArg('seconds', 40);
const FRESHNESS_GOAL_MS = 3000;
const FLIP_EVERY_MS = 3000;
const SERVICE = 'bench-fleet';
const ENV = {
  EMBEDDED_PG_PORT: String(await freePort()),
  SESSION_SECRET: 'a-session-secret-both-bench-replicas-share',
  // one token reports for every instance here: its limit is not what is measured
  TOKEN_RATE_LIMIT: '1000000',
  AGENT_REPORT_RATE_LIMIT: '1000000',
};
const dataDir = path.join(ROOT, '.data/bench-fleet');
function window(successes, failures) {
  return {
    successes,
    failures,
    timeouts: 0,
    rejections: 0,
    latencyHistogram: { boundsMs: [1, 5, 10, 50, 100, 500], counts: [0, successes, failures, 0, 0, 0, 0] },
    longestCallMs: successes + failures > 0 ? 9 : 0,
  };
}

function breakerReport(name, state = 'CLOSED') {
  return {
    name,
    library: 'opossum',
    type: 'error-percentage',
    settings: { errorThresholdPercentage: 50, timeout: 3000, resetTimeout: 30000 },
    state,
    override: 'none',
    window: window(20 + Math.floor(Math.random() * 20), Math.floor(Math.random() * 3)),
    transitions: [],
  };
}

const report = (instance, breakers) => ({ version: 1, service: SERVICE, instance, sentAt: new Date().toISOString(), breakers });

let a;
let b;
let socket;
try {
  a = await startBenchApi({ port: await freePort(), env: ENV, dataDir });
  b = await startBenchApi({ port: await freePort(), env: ENV, dataDir, fresh: false });
  const call = async (method, url, body) => {
    const response = await fetch(`${a.url}${url}`, {
      method,
      headers: { cookie: a.cookie, 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const account = await call('POST', '/api/service-accounts', { name: SERVICE });
  const { token } = await call('POST', `/api/service-accounts/${account.id}/tokens`, { name: 'bench', expiresInDays: 1 });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const replicas = [a, b];

  /** Sends `send(i)` for every instance i once a second, spread over the second; counts outcomes. */
  async function everySecond(send) {
    const outcomes = { ok: 0, refused: 0, failed: 0 };
    const started = performance.now();
    const calls = [];
    for (let second = 0; second < SECONDS; second++) {
      for (let i = 0; i < INSTANCES; i++) {
        const due = started + second * 1000 + (i * 1000) / INSTANCES;
        const wait = due - performance.now();
        if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
        calls.push(
          send(i, second).then(
            (response) => (response.ok ? outcomes.ok++ : outcomes.refused++),
            () => outcomes.failed++,
          ),
        );
      }
    }
    await Promise.all(calls);
    return outcomes;
  }
  const cpuOf = () => replicas.reduce((sum, replica) => sum + cpuSeconds(replica.process.pid), 0);

  // the baseline: the same token's lightest authenticated request, at the same rate and spread
  let cpu = cpuOf();
  const light = await everySecond((i) =>
    fetch(`${replicas[i % 2].url}/api/auth/user`, { headers }).then(async (response) => (await response.arrayBuffer(), response)),
  );
  const baselineCpuMs = ((cpuOf() - cpu) * 1000) / Math.max(1, light.ok);
  console.log(`GET /api/auth/user, ${INSTANCES}/s for ${SECONDS} s: ${baselineCpuMs.toFixed(3)} ms CPU per request (${light.ok} ok)`);

  // the wall: a /ws client on replica B watching the probe breaker's state
  const probe = { state: 'CLOSED', changedAt: 0, configId: null, latencies: [], pending: false };
  socket = new WebSocket(`${b.url.replace('http', 'ws')}/ws`, { headers: { cookie: b.cookie, origin: b.url } });
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw));
    if (message.type !== 'metricsUpdate' || !probe.pending || probe.configId === null) return;
    const stats = message.data.stats.find((entry) => entry.configId === probe.configId);
    if (stats?.state === probe.state) {
      probe.latencies.push(performance.now() - probe.changedAt);
      probe.pending = false;
    }
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const sendProbe = async () => {
    const response = await fetch(`${a.url}/api/agent/reports`, {
      method: 'POST',
      headers,
      body: JSON.stringify(report('probe-1', [breakerReport('probe', probe.state)])),
    });
    await response.arrayBuffer();
  };
  await sendProbe();
  const listed = await call('GET', `/api/circuit-breakers?source=agent&service=${SERVICE}`);
  probe.configId = listed.find((breaker) => breaker.name === 'probe').id;
  let lastFlip = performance.now();
  const probeTimer = setInterval(() => {
    const now = performance.now();
    if (now - lastFlip >= FLIP_EVERY_MS) {
      lastFlip = now;
      probe.state = probe.state === 'CLOSED' ? 'OPEN' : 'CLOSED';
      probe.changedAt = now;
      probe.pending = true;
    }
    void sendProbe();
  }, 1000);

  const names = Array.from({ length: BREAKERS }, (_, i) => `dependency-${i + 1}`);
  cpu = cpuOf();
  const reports = await everySecond((i) =>
    fetch(`${replicas[i % 2].url}/api/agent/reports`, {
      method: 'POST',
      headers,
      body: JSON.stringify(
        report(
          `instance-${i + 1}`,
          names.map((name) => breakerReport(name)),
        ),
      ),
    }).then(async (response) => (await response.arrayBuffer(), response)),
  );
  const cpuPerReportMs = ((cpuOf() - cpu) * 1000) / Math.max(1, reports.ok);
  clearInterval(probeTimer);

  const latencies = probe.latencies.sort((x, y) => x - y);
  const rank = (p) => latencies[Math.max(0, Math.ceil((p / 100) * latencies.length) - 1)] ?? NaN;
  const wall = await call('GET', '/api/metrics/latest');
  const all = await call('GET', `/api/circuit-breakers?source=agent&service=${SERVICE}`);
  const first = all.find((breaker) => breaker.name === 'dependency-1');
  const merged = wall.stats.find((entry) => entry.configId === first?.id);
  console.log(
    `${INSTANCES} instances × ${BREAKERS} breakers, every second for ${SECONDS} s into two replicas: ` +
      `${reports.ok} reports taken, ${reports.refused} refused, ${reports.failed} failed; ` +
      `dependency-1 merged over ${merged?.instances?.total ?? 0} live instances, ${merged?.requestsPerSecond ?? 0} calls/s`,
  );
  console.log(`wall freshness over ${latencies.length} probe changes: p50 ${rank(50).toFixed(0)} ms, p99 ${rank(99).toFixed(0)} ms`);
  benchLine('CPU per GET /api/auth/user (both replicas)', `${baselineCpuMs.toFixed(3)} ms`, '—', null);
  benchLine(
    `API CPU per agent report (${BREAKERS} breakers)`,
    `${cpuPerReportMs.toFixed(3)} ms (${(cpuPerReportMs / baselineCpuMs).toFixed(1)}× a GET)`,
    'printed',
    true,
  );
  benchLine(
    `wall freshness p99, ${INSTANCES} × ${BREAKERS} reporting every second`,
    `${rank(99).toFixed(0)} ms`,
    `≤ ${FRESHNESS_GOAL_MS} ms`,
    rank(99) <= FRESHNESS_GOAL_MS && latencies.length > 0,
  );
  benchLine('agent reports refused or failed', String(reports.refused + reports.failed), '0', reports.refused + reports.failed === 0);
} finally {
  socket?.close();
  await b?.stop();
  await a?.stop();
}
