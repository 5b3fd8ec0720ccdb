// Agents' reports into two replicas, and how their cost grows: at each of --sizes (50, 200 and 800 service instances;
// `--sizes 200` measures one), every instance of one service reports its --breakers (20) breakers once every
// --period seconds (1), spread over the period, half to each replica, for --warm-up (10) seconds not counted (the new
// instances admitted, the code compiled: as the GETs' first seconds, printed apart) and then --seconds (20) per size.
// Measured per size:
// - the API's CPU per report (both replicas' user + system time over the size's run, over the reports they took), and
//   above idle (less the replicas' CPU a second with nothing asked, measured first for 10 s), against the baseline of
//   the same processes' CPU per GET /api/auth/user with a service account's token, measured first at 200 requests a
//   second after a minute of them left uncounted (see WARM_UP_SECONDS), so that compiling their code and the
//   processes' first minute are not counted as theirs (goal at 200 instances: at most 1× a GET);
// - wall freshness: a probe breaker of one more instance (of its own service) changes state every 3 s; a /ws client on
//   the other replica times each change from the report that carried it to the first message showing it — the
//   stateChange the replica sends when a breaker's merged state moves, or a metricsUpdate (p50, p99; goal at 200
//   instances: p99 ≤ 1.5 s);
// - PostgreSQL's CPU per report (its postmaster and backends), rows inserted and updated (pg_stat_database) and WAL bytes;
// - each replica's resident memory at the end of the size;
// - reports refused or failed (goal at 200 instances: 0; at a size past what the machine holds, they show where).
// Each size prints one BENCH line of its per-unit costs, so a step that grows faster than the fleet shows.
// --transport stream (the agent's default) sends each instance's reports on its own stream (AGENT_STREAM_PATH), its
// breakers' settings in its first report only, as the agent does; --transport http POSTs each report.
// --profile writes replica A's CPU profile and prints its top frames; with --one-replica or --profile-both, both
// replicas' (by pid).
// Usage: npm run build && node bench/fleet-ingest.mjs [--sizes 50,200,800] [--breakers 20] [--seconds 20] [--period 1] [--warm-up 10]
//   [--one-replica] [--transport stream|http] [--profile [--profile-both]] [--get-warm-up 60]
import path from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { ROOT } from '../scripts/run.mjs';
import {
  adminCall,
  cpuSeconds,
  otherThreadsCpuSeconds,
  freePort,
  postgresCpuSeconds,
  postgresWrites,
  serviceAccountToken,
  spread,
  startBenchApi,
} from './api-process.mjs';
import { apiProfiling } from './cpu-profile.mjs';
import { agentStream, breakerReport, reportOf } from './fleet-agents.mjs';
import { benchLine, goalSize, numberArg, rssMiB, sizesArg } from './report.mjs';

const SIZES = sizesArg([50, 200, 800]);
const BREAKERS = numberArg('breakers', 20);
const SECONDS = numberArg('seconds', 20);
const PERIOD_S = numberArg('period', 1);
// --one-replica: every report to the replica that does not hold the cluster role fleet.figures, so that its CPU is
// what taking them costs, and the other's what merging their rows for the cluster costs (the capacity model's terms)
const ONE_REPLICA = process.argv.includes('--one-replica');
const TRANSPORTS = (process.argv.includes('--transport') ? process.argv[process.argv.indexOf('--transport') + 1] : 'stream').split(',');
for (const transport of TRANSPORTS)
  if (!['stream', 'http'].includes(transport)) throw new Error(`--transport is stream or http, not ${transport}`);
// --rounds: each size measured this many times per transport, the transports' order turned round at each round, so that
// two transports are compared on the same processes, the machine's drift shared (the goal: the first transport's mean)
const ROUNDS = numberArg('rounds', 1);
const TRANSPORT_WORDS = { stream: 'on a stream', http: 'POSTed' };
const BASELINE_RATE = 200;
const IDLE_SECONDS = 10;
/**
 * The baseline's requests are sent, not counted, for this long first, in rounds of WARM_UP_ROUND_S whose costs are
 * printed: after a start a GET's CPU at 200 a second kept falling for a minute (0.96, 0.83, 0.70, 0.68, 0.57, 0.54,
 * 0.77, 0.56, 0.53, 0.47, 0.51, 0.48 ms in 5 s rounds, then 0.51 measured; 5 s rounds of a steady cost differ by a
 * tenth or more, so no test of steadiness stops it sooner). A baseline taken after 5 s, as before, could be twice
 * its steady cost and flattered the reports' ratio, whose own cost is the same after a 10 s or a 40 s warm-up (1.41
 * and 1.37 ms). --get-warm-up 0 leaves it out where only the reports' own costs are compared (builds against each
 * other with --one-replica), and the ratios to a GET are not to be read.
 */
const WARM_UP_SECONDS = numberArg('get-warm-up', 60);
const WARM_UP_ROUND_S = 5;
/** Seconds of each size's reports sent, and not counted, before it is measured (--warm-up). */
const WARM_UP_REPORTS_S = numberArg('warm-up', 10);
const FRESHNESS_GOAL_MS = 1500;
const CPU_GOAL_RATIO = 1;
const FLIP_EVERY_MS = 3000;
const SERVICE = 'bench-fleet';
const PROBE_SERVICE = 'bench-fleet-probe';
const ENV = {
  EMBEDDED_PG_PORT: String(await freePort()),
  SESSION_SECRET: 'a-session-secret-both-bench-replicas-share',
  // one token reports for every instance here: its limit is not what is measured
  TOKEN_RATE_LIMIT: '1000000',
  AGENT_REPORT_RATE_LIMIT: '1000000',
  // the period the instances report at is the one the hub asks for: rows held for it, stale after three of it
  AGENT_REPORT_EVERY_MS: String(PERIOD_S * 1000),
};
const dataDir = path.join(ROOT, '.data/bench-fleet');
// --profile: replica A writes its CPU profile, whose top frames are printed at the end
const profiling = apiProfiling(30);

const report = (service, instance, breakers) => reportOf(service, instance, breakers, PERIOD_S * 1000);

const rank = (sorted, p) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

let a;
let b;
let socket;
let database;
const streams = [];
try {
  a = await startBenchApi({ port: await freePort(), env: ENV, dataDir, nodeArgs: profiling.nodeArgs });
  b = await startBenchApi({
    port: await freePort(),
    env: ENV,
    dataDir,
    fresh: false,
    nodeArgs: ONE_REPLICA || process.argv.includes('--profile-both') ? profiling.nodeArgs : [],
  });
  database = new pg.Client({ connectionString: a.databaseUrl });
  await database.connect();
  const call = (method, url, body) => adminCall(a, method, url, body);
  const serviceToken = await serviceAccountToken(a, SERVICE);
  const tokenOf = async (service) => ({
    authorization: `Bearer ${service === SERVICE ? serviceToken : await serviceAccountToken(a, service)}`,
    'content-type': 'application/json',
  });
  const headers = await tokenOf(SERVICE);
  const probeHeaders = await tokenOf(PROBE_SERVICE);
  const replicas = [a, b];
  const cpuOf = () => replicas.reduce((sum, replica) => sum + cpuSeconds(replica.process.pid), 0);
  const writesOf = () => postgresWrites(database);

  // the replicas' own work with nothing asked of them (timers, figures, the demo breakers): a report's and a GET's
  // marginal costs (the capacity model's) are what they add to it
  let cpu = cpuOf();
  const idleFrom = replicas.map((replica) => cpuSeconds(replica.process.pid));
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const idleCpuPerS = (cpuOf() - cpu) / IDLE_SECONDS;
  const idleOf = replicas.map((replica, index) => (cpuSeconds(replica.process.pid) - idleFrom[index]) / IDLE_SECONDS);
  console.log(`both replicas idle: ${(idleCpuPerS * 1000).toFixed(0)} ms of CPU a second`);

  // the baseline: a service account's lightest authenticated request, spread over each second, measured after a minute
  // of them (see WARM_UP_SECONDS)
  const getOnce = (i) => fetch(`${replicas[i % 2].url}/api/auth/user`, { headers });
  const warmUp = [];
  for (let round = 0; round < WARM_UP_SECONDS / WARM_UP_ROUND_S; round++) {
    const before = cpuOf();
    const { ok } = await spread(BASELINE_RATE, 1, WARM_UP_ROUND_S, getOnce);
    warmUp.push(((cpuOf() - before) * 1000) / Math.max(1, ok));
  }
  console.log(`GET warm-up, ${WARM_UP_ROUND_S} s rounds not counted: ${warmUp.map((ms) => ms.toFixed(3)).join(', ')} ms CPU per request`);
  cpu = cpuOf();
  let from = performance.now();
  const light = await spread(BASELINE_RATE, 1, 10, getOnce);
  const baselineCpuMs = ((cpuOf() - cpu) * 1000) / Math.max(1, light.ok);
  const marginal = (cpuUsed, since, count) => ((cpuUsed - (idleCpuPerS * (performance.now() - since)) / 1000) * 1000) / Math.max(1, count);
  const getMarginalMs = marginal(cpuOf() - cpu, from, light.ok);
  console.log(
    `GET /api/auth/user, ${BASELINE_RATE}/s for 10 s: ${baselineCpuMs.toFixed(3)} ms CPU per request, ${getMarginalMs.toFixed(3)} ms above idle (${light.ok} ok)`,
  );

  // the wall: a /ws client on replica B watching the probe breaker's state
  const probe = { state: 'CLOSED', changedAt: 0, configId: null, latencies: [], pending: false };
  const seen = (state) => {
    if (!probe.pending || state !== probe.state) return;
    probe.latencies.push(performance.now() - probe.changedAt);
    probe.pending = false;
  };
  socket = new WebSocket(`${b.url.replace('http', 'ws')}/ws`, { headers: { cookie: b.cookie, origin: b.url } });
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw));
    if (probe.configId === null) return;
    if (message.type === 'stateChange' && message.data.configId === probe.configId) seen(message.data.to);
    if (message.type === 'metricsUpdate') seen(message.data.stats.find((entry) => entry.configId === probe.configId)?.state);
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const sendProbe = () =>
    fetch(`${a.url}/api/agent/reports`, {
      method: 'POST',
      headers: probeHeaders,
      body: JSON.stringify(report(PROBE_SERVICE, 'probe-1', [breakerReport('probe', probe.state)])),
    }).then((response) => response.arrayBuffer());
  await sendProbe();
  probe.configId = (await call('GET', `/api/circuit-breakers?source=agent&service=${PROBE_SERVICE}`)).find(
    (breaker) => breaker.name === 'probe',
  ).id;

  // the replica that merges the rows for the cluster (the holder of fleet.figures); --one-replica sends to the other
  const [lease] = (await database.query("SELECT holder FROM cluster_leases WHERE role = 'fleet.figures'")).rows;
  const instances = await Promise.all(replicas.map(async (replica) => (await (await fetch(`${replica.url}/api/health`)).json()).instance));
  const taker = instances[0] === lease?.holder ? 1 : 0;
  const names = Array.from({ length: BREAKERS }, (_, i) => `dependency-${i + 1}`);
  const results = [];
  const plan = SIZES.flatMap((size) =>
    Array.from({ length: ROUNDS }, (_, round) => (round % 2 === 0 ? TRANSPORTS : [...TRANSPORTS].reverse())).flatMap((order) =>
      order.map((transport) => ({ size, transport })),
    ),
  );
  for (const { size, transport } of plan) {
    console.log(
      `${size} instances, reports ${transport === 'http' ? 'POSTed, one request each' : "on a stream per instance (the agent's default)"}`,
    );
    for (const stream of streams.splice(0)) stream.close();
    probe.latencies = [];
    probe.pending = false;
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
    const bodyOf = (i) =>
      report(
        SERVICE,
        `instance-${i + 1}`,
        names.map((name) => breakerReport(name)),
      );
    const urlOf = (i) => replicas[ONE_REPLICA ? taker : i % 2].url;
    const send =
      transport === 'http'
        ? (i) => fetch(`${urlOf(i)}/api/agent/reports`, { method: 'POST', headers, body: JSON.stringify(bodyOf(i)) })
        : (i) => (streams[i] ??= agentStream(urlOf(i), serviceToken)).send(bodyOf(i));
    // the size's first seconds, as the GETs' were, are not counted: the new instances are admitted and the code that
    // takes and merges reports compiled (printed apart, as what a fleet's arrival costs)
    let warmUp = null;
    if (WARM_UP_REPORTS_S > 0) {
      cpu = cpuOf();
      const warmFrom = performance.now();
      const warming = await spread(size, PERIOD_S, WARM_UP_REPORTS_S, send);
      warmUp = { ...warming, cpuPerReportMs: marginal(cpuOf() - cpu, warmFrom, warming.ok) };
    }
    cpu = cpuOf();
    const each = replicas.map((replica) => cpuSeconds(replica.process.pid));
    const others = replicas.map((replica) => otherThreadsCpuSeconds(replica.process.pid));
    from = performance.now();
    const pgCpu = postgresCpuSeconds(dataDir);
    const writes = await writesOf();
    const reports = await spread(size, PERIOD_S, SECONDS, send);
    if (warmUp) {
      console.log(
        `${size} instances' first ${WARM_UP_REPORTS_S} s (not counted): ${warmUp.cpuPerReportMs.toFixed(3)} ms of API CPU per report above idle, ${warmUp.refused} refused, ${warmUp.failed} failed`,
      );
      reports.refused += warmUp.refused;
      reports.failed += warmUp.failed;
      for (const [status, n] of Object.entries(warmUp.statuses)) reports.statuses[status] = (reports.statuses[status] ?? 0) + n;
    }
    const cpuPerReportMs = ((cpuOf() - cpu) * 1000) / Math.max(1, reports.ok);
    const marginalMs = marginal(cpuOf() - cpu, from, reports.ok);
    const elapsedS = (performance.now() - from) / 1000;
    const perReplica = replicas.map(
      (replica, index) => ((cpuSeconds(replica.process.pid) - each[index] - idleOf[index] * elapsedS) * 1000) / Math.max(1, reports.ok),
    );
    // the share of each replica's CPU over the size's run that its other threads took (the CPU profile does not see them)
    const otherShare = replicas.map(
      (replica, index) =>
        (otherThreadsCpuSeconds(replica.process.pid) - others[index]) / Math.max(1e-9, cpuSeconds(replica.process.pid) - each[index]),
    );
    if (ONE_REPLICA)
      console.log(
        `every report to replica ${'AB'[taker]} (pid ${replicas[taker].process.pid}), which does not merge: above idle, taking them ${perReplica[taker].toFixed(3)} ms, merging their rows (replica ${'AB'[1 - taker]}) ${perReplica[1 - taker].toFixed(3)} ms per report`,
      );
    console.log(
      `threads besides the main one (V8's garbage collection and compilers, libuv's pool): ${otherShare.map((share, index) => `${(share * 100).toFixed(0)} % of replica ${'AB'[index]}'s CPU`).join(', ')}`,
    );
    const pgCpuPerReportMs = ((postgresCpuSeconds(dataDir) - pgCpu) * 1000) / Math.max(1, reports.ok);
    const written = await writesOf();
    clearInterval(probeTimer);
    const latencies = probe.latencies.sort((x, y) => x - y);
    const result = {
      size,
      transport,
      reports,
      cpuPerReportMs,
      ratio: cpuPerReportMs / baselineCpuMs,
      marginalMs,
      pgCpuPerReportMs,
      rowsPerReport: (written.rows - writes.rows) / Math.max(1, reports.ok),
      walPerReport: (written.wal - writes.wal) / Math.max(1, reports.ok),
      p50: rank(latencies, 50),
      p99: rank(latencies, 99),
      changes: latencies.length,
      rss: replicas.map((replica) => rssMiB(replica.process.pid)),
    };
    results.push(result);
    console.log(
      `${size} instances × ${BREAKERS} breakers every ${PERIOD_S} s for ${SECONDS} s: ${reports.ok} reports taken, ${reports.refused} refused, ` +
        `${reports.failed} failed${Object.keys(reports.statuses).length ? ` (${JSON.stringify(reports.statuses)})` : ''}; ` +
        `API CPU ${cpuPerReportMs.toFixed(3)} ms per report (${result.ratio.toFixed(2)}× a GET), ${marginalMs.toFixed(3)} ms above idle; ` +
        `PostgreSQL ${pgCpuPerReportMs.toFixed(3)} ms CPU, ${result.rowsPerReport.toFixed(1)} rows and ${(result.walPerReport / 1024).toFixed(1)} KiB of WAL per report; ` +
        `wall freshness over ${result.changes} changes p50 ${result.p50.toFixed(0)} ms, p99 ${result.p99.toFixed(0)} ms; ` +
        `RSS ${result.rss.map((mib) => `${mib.toFixed(0)} MiB`).join(' + ')}`,
    );
    benchLine(
      `fleet at ${size} instances × ${BREAKERS} breakers, every ${PERIOD_S} s, ${TRANSPORT_WORDS[transport]}: API CPU per report / wall p99 / PostgreSQL per report`,
      `${cpuPerReportMs.toFixed(3)} ms (${result.ratio.toFixed(2)}× a GET; ${marginalMs.toFixed(3)} ms above idle) / ${result.p99.toFixed(0)} ms / ${pgCpuPerReportMs.toFixed(3)} ms CPU, ${result.rowsPerReport.toFixed(1)} rows, ${(result.walPerReport / 1024).toFixed(1)} KiB WAL`,
      'printed',
      true,
    );
  }

  // the goal at the goal size, by the first transport, over its rounds
  const runsOf = (transport) => results.filter((result) => result.size === goalSize(SIZES) && result.transport === transport);
  const meanOf = (runs, figure) => runs.reduce((sum, run) => sum + figure(run), 0) / runs.length;
  const goalRuns = runsOf(TRANSPORTS[0]);
  const at = {
    size: goalSize(SIZES),
    cpuPerReportMs: meanOf(goalRuns, (run) => run.cpuPerReportMs),
    ratio: meanOf(goalRuns, (run) => run.ratio),
    p99: Math.max(...goalRuns.map((run) => run.p99)),
    changes: goalRuns.reduce((sum, run) => sum + run.changes, 0),
    reports: {
      refused: goalRuns.reduce((sum, run) => sum + run.reports.refused, 0),
      failed: goalRuns.reduce((sum, run) => sum + run.reports.failed, 0),
    },
  };
  if (TRANSPORTS.length > 1) {
    const [first, second] = TRANSPORTS.map((transport) => runsOf(transport));
    const [a1, a2] = [first, second].map((runs) => meanOf(runs, (run) => run.marginalMs));
    benchLine(
      `API CPU per report above idle ${TRANSPORT_WORDS[TRANSPORTS[0]]} / ${TRANSPORT_WORDS[TRANSPORTS[1]]}, ${at.size} instances, the same processes, ${ROUNDS} rounds`,
      `${a1.toFixed(3)} / ${a2.toFixed(3)} ms (${(a1 / a2).toFixed(2)}×)`,
      'printed',
      true,
    );
  }
  benchLine(
    'CPU per GET /api/auth/user (both replicas)',
    `${baselineCpuMs.toFixed(3)} ms (${getMarginalMs.toFixed(3)} ms above idle)`,
    '—',
    null,
  );
  benchLine(
    `API CPU per agent report (${BREAKERS} breakers), ${at.size} instances`,
    `${at.cpuPerReportMs.toFixed(3)} ms (${at.ratio.toFixed(2)}× a GET)`,
    `≤ ${CPU_GOAL_RATIO}× a GET`,
    at.ratio <= CPU_GOAL_RATIO,
  );
  benchLine(
    `wall freshness p99, ${at.size} × ${BREAKERS} reporting every ${PERIOD_S} s`,
    `${at.p99.toFixed(0)} ms`,
    `≤ ${FRESHNESS_GOAL_MS} ms`,
    at.p99 <= FRESHNESS_GOAL_MS && at.changes > 0,
  );
  // the goal at the goal size; a larger size may pass what the machine holds, which is what its curve is there to show
  const lost = at.reports.refused + at.reports.failed;
  benchLine(`agent reports refused or failed, ${at.size} instances`, String(lost), '0', lost === 0);
} finally {
  for (const stream of streams) stream.close();
  socket?.close();
  await database?.end();
  await b?.stop();
  await a?.stop();
}
profiling.report();
