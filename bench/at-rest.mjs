// What a replica costs while nobody uses the hub: PostgreSQL transactions a second (pg_stat_database, every database
// of the cluster, less this benchmark's own two reads) and the API's CPU a second, for one replica and then for two on
// the same PostgreSQL, each over --seconds of quiet after --settle seconds. It is the floor under every other load of
// the capacity model: the jobs that look for due work, the roles renewed, the figures shared.
// Usage: npm run build && node bench/at-rest.mjs [--settle 20] [--seconds 20]   (npm run bench:at-rest)
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { cpuSeconds, postgresCpuSeconds, startBenchApi } from './api-process.mjs';
import { benchLine, numberArg } from './report.mjs';
import path from 'node:path';
import { ROOT } from '../scripts/run.mjs';

const SETTLE_S = numberArg('settle', 20);
const SECONDS = numberArg('seconds', 20);
const dataDir = path.join(ROOT, '.data/bench');

const transactions = async (client) =>
  Number((await client.query('SELECT sum(xact_commit + xact_rollback)::float8 AS n FROM pg_stat_database')).rows[0].n);

/** Transactions and CPU a second over SECONDS of quiet, for the replicas given. */
async function quiet(client, replicas) {
  await sleep(SETTLE_S * 1000);
  // the statistics collector's view is a snapshot per transaction: each read is its own
  const before = {
    tx: await transactions(client),
    cpu: replicas.map((api) => cpuSeconds(api.process.pid)),
    pg: postgresCpuSeconds(dataDir),
  };
  await sleep(SECONDS * 1000);
  const tx = (await transactions(client)) - before.tx - 1;
  const cpu = replicas.map((api, i) => ((cpuSeconds(api.process.pid) - before.cpu[i]) * 1000) / SECONDS);
  return { tx: tx / SECONDS, cpu, pg: ((postgresCpuSeconds(dataDir) - before.pg) * 1000) / SECONDS };
}

const first = await startBenchApi();
const client = new pg.Client({ connectionString: first.databaseUrl });
await client.connect();
let second;
try {
  const one = await quiet(client, [first]);
  second = await startBenchApi({ port: 3392, fresh: false });
  const two = await quiet(client, [first, second]);
  const cpu = (values) => values.map((ms) => `${ms.toFixed(1)} ms`).join(' and ');
  console.log(
    `one replica: ${one.tx.toFixed(1)} transactions a second, API CPU ${cpu(one.cpu)} a second, PostgreSQL ${one.pg.toFixed(1)} ms`,
  );
  console.log(
    `two replicas: ${two.tx.toFixed(1)} transactions a second, API CPU ${cpu(two.cpu)} a second, PostgreSQL ${two.pg.toFixed(1)} ms`,
  );
  benchLine(
    'a replica at rest: PostgreSQL transactions a second, one replica / two',
    `${one.tx.toFixed(1)} / ${two.tx.toFixed(1)}`,
    'printed',
    true,
  );
  benchLine('a replica at rest: API CPU a second, one replica / each of two', `${cpu(one.cpu)} / ${cpu(two.cpu)}`, 'printed', true);
} finally {
  await client.end();
  await second?.stop();
  await first.stop();
}
