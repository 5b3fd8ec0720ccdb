// SLOs at scale, on one production API process: --slos SLOs (default 1,000) over 50 breakers, each with 30 days of
// traffic counted minute by minute as the hub keeps it (7 hours of minutes, 4 days of hours, 31 days), written
// straight into the counts' tables. Measured: the database's size for them (goal < 100 MB); one evaluation of every SLO's SLI,
// budget and seven burn rates through GET /api/slos, as CPU seconds of the API process and of PostgreSQL together
// (median of --runs, default 5; goal ≤ 1 s of one core); and the counter's rounds (read, recount, judge, every 15 s on
// the holder of slos.counts) as that replica times them (cbh_slo_round_seconds), over three rounds (goal ≤ 1 s each).
// Usage: npm run build && node bench/slo.mjs [--slos 1000] [--runs 5]
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import pg from 'pg';
import { ROOT } from '../scripts/run.mjs';
import { adminCall, cpuSeconds, freePort, startBenchApi, treeCpuSeconds } from './api-process.mjs';
import { benchLine, median, numberArg } from './report.mjs';

const SLOS = numberArg('slos', 1000);
const RUNS = numberArg('runs', 5);
const BREAKERS = 50;
const ROUND_WAIT_S = 46;
const dataDir = path.join(ROOT, '.data/bench-slo');
/** CPU seconds so far of the API process and of every process of its PostgreSQL (the postmaster and its children). */
function clusterCpu(apiPid) {
  const postmaster = Number(readFileSync(path.join(dataDir, 'pg/postmaster.pid'), 'utf8').split('\n')[0]);
  return { api: cpuSeconds(apiPid), pg: treeCpuSeconds(postmaster) };
}

let api;
let db;
try {
  api = await startBenchApi({ port: await freePort(), env: { EMBEDDED_PG_PORT: String(await freePort()) }, dataDir });
  db = new pg.Client({ connectionString: api.databaseUrl });
  await db.connect();
  const call = (method, url, body, status = 200) => adminCall(api, method, url, body, status);

  const breakers = [];
  for (let i = 0; i < BREAKERS; i++) {
    const body = {
      name: `slo-bench-${i}`,
      type: 'simple',
      failureThreshold: 5,
      timeout: 30_000,
      recoveryTime: 60_000,
      successThreshold: 3,
    };
    breakers.push((await call('POST', '/api/circuit-breakers', body, 201)).id);
  }
  const started = performance.now();
  for (let i = 0; i < SLOS; i++) {
    const target = [99, 99.5, 99.9, 99.95][i % 4];
    const body = {
      name: `Bench SLO ${i}`,
      target,
      window: '30d',
      indicator: { kind: 'breaker-calls', breakers: [breakers[i % BREAKERS]] },
    };
    await call('POST', '/api/slos', body, 201);
  }
  console.log(`${SLOS} SLOs created through POST /api/slos in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // 30 days of traffic as the counter keeps it: the last 7 hours' minutes, 4 days of hours, 31 days; about 1,000 calls
  // a minute each, 0.1 % bad, every tenth SLO burning hard in the last hour
  const written = performance.now();
  await db.query(`UPDATE slos SET backfilled = true`);
  const now = Math.floor(Date.now() / 60_000);
  await db.query(
    `INSERT INTO slo_minutes (slo_id, minute, good, total)
     SELECT s.id, m, 1000 - (CASE WHEN s.id % 10 = 0 AND m > $1 - 60 THEN 50 ELSE (random() * 2)::int END), 1000
     FROM slos s, generate_series($1 - 7 * 60, $1) AS m`,
    [now],
  );
  await db.query(
    `INSERT INTO slo_hours (slo_id, hour, good, total)
     SELECT s.id, h, 60000 - (random() * 120)::int, 60000 FROM slos s, generate_series($1 / 60 - 4 * 24, $1 / 60 - 8) AS h`,
    [now],
  );
  await db.query(
    `INSERT INTO slo_hours (slo_id, hour, good, total) SELECT slo_id, minute / 60, sum(good), sum(total) FROM slo_minutes GROUP BY 1, 2
     ON CONFLICT (slo_id, hour) DO UPDATE SET good = EXCLUDED.good, total = EXCLUDED.total`,
  );
  await db.query(
    `INSERT INTO slo_days (slo_id, day, good, total)
     SELECT s.id, d, 1440000 - (random() * 2880)::int, 1440000 FROM slos s, generate_series($1 / 1440 - 30, $1 / 1440 - 4) AS d`,
    [now],
  );
  await db.query(
    `INSERT INTO slo_days (slo_id, day, good, total) SELECT slo_id, hour / 24, sum(good), sum(total) FROM slo_hours GROUP BY 1, 2
     ON CONFLICT (slo_id, day) DO UPDATE SET good = EXCLUDED.good, total = EXCLUDED.total`,
  );
  await db.query('VACUUM ANALYZE slo_minutes, slo_hours, slo_days, slos');
  const rows = (
    await db.query(
      'SELECT (SELECT count(*) FROM slo_minutes) AS minutes, (SELECT count(*) FROM slo_hours) AS hours, (SELECT count(*) FROM slo_days) AS days',
    )
  ).rows[0];
  const count = (n) => Number(n).toLocaleString('en');
  console.log(
    `counts written: ${count(rows.minutes)} minutes, ${count(rows.hours)} hours, ${count(rows.days)} days in ${((performance.now() - written) / 1000).toFixed(1)} s`,
  );
  const size = (
    await db.query(
      `SELECT sum(pg_total_relation_size(t))::bigint AS bytes FROM unnest(ARRAY['slos', 'slo_minutes', 'slo_hours', 'slo_days', 'slo_breaker_minutes', 'slo_instance_readings']::regclass[]) AS t`,
    )
  ).rows[0].bytes;

  const evaluations = [];
  let listed = [];
  for (let run = 0; run < RUNS; run++) {
    const before = clusterCpu(api.process.pid);
    const at = performance.now();
    listed = await call('GET', '/api/slos');
    const wall = performance.now() - at;
    const after = clusterCpu(api.process.pid);
    evaluations.push({ cpu: after.api - before.api + after.pg - before.pg, wall });
  }
  const statuses = {};
  for (const slo of listed) statuses[slo.status] = (statuses[slo.status] ?? 0) + 1;
  console.log(
    `GET /api/slos: ${listed.length} SLOs, ${JSON.stringify(statuses)}; ${evaluations.map((e) => `${(e.cpu * 1000).toFixed(0)} ms CPU / ${e.wall.toFixed(0)} ms`).join(', ')}`,
  );

  // the counter's rounds with the SLOs, as the replica holding slos.counts times them (cbh_slo_round_seconds on /metrics)
  const rounds = async () => {
    const text = await (await fetch(`${api.url}/metrics`, { headers: { cookie: api.cookie } })).text();
    const figure = (name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
    return { sum: figure('cbh_slo_round_seconds_sum'), count: figure('cbh_slo_round_seconds_count') };
  };
  const roundsBefore = await rounds();
  const cpuBefore = clusterCpu(api.process.pid).api;
  await sleep(ROUND_WAIT_S * 1000);
  const roundsAfter = await rounds();
  const apiCpu = clusterCpu(api.process.pid).api - cpuBefore;
  const roundCount = roundsAfter.count - roundsBefore.count;
  const perRound = roundCount > 0 ? (roundsAfter.sum - roundsBefore.sum) / roundCount : NaN;
  const burnEvents = (await db.query(`SELECT count(*)::int AS n FROM notification_events WHERE type = 'slo.burn_rate'`)).rows[0].n;
  console.log(
    `${roundCount} counter rounds in ${ROUND_WAIT_S} s: ${(perRound * 1000).toFixed(0)} ms each; the API process used ${apiCpu.toFixed(2)} s CPU meanwhile; ${burnEvents} slo.burn_rate events raised`,
  );

  const evaluation = median(evaluations.map((e) => e.cpu));
  const label = `${SLOS.toLocaleString('en')} SLOs, 30 days`;
  benchLine(`SLOs: ${label}: database size of their tables`, `${(size / 1e6).toFixed(1)} MB`, '< 100 MB', size < 100e6);
  benchLine(
    `SLOs: ${label}: one evaluation of every SLO (GET /api/slos), API + PostgreSQL CPU`,
    `${evaluation.toFixed(2)} s`,
    '≤ 1 s',
    evaluation <= 1,
  );
  benchLine(
    `SLOs: ${label}: GET /api/slos wall time, median of ${RUNS}`,
    `${median(evaluations.map((e) => e.wall)).toFixed(0)} ms`,
    '—',
    null,
  );
  benchLine(`SLOs: ${label}: one counter round (read, recount, judge), wall time`, `${perRound.toFixed(2)} s`, '≤ 1 s', perRound <= 1);
} finally {
  await db?.end();
  await api?.stop();
}
