// What scraping costs the hub: --targets (20) Java services' /actuator/prometheus on loopback, each with --breakers
// (50) resilience4j circuit breakers written as Spring Boot 3 with resilience4j-micrometer writes them (states, buffered
// calls, the calls timer, rates, not-permitted calls), every breaker's counters growing between scrapes, scraped by one
// production API process every --interval (5) seconds, the shortest a target may ask. Once every target has been
// scraped twice, over --seconds (40): the API's CPU per scrape (user + system, over the scrapes the targets answered,
// less the API's own CPU a second measured for 10 s before any target was added),
// PostgreSQL's CPU, rows written (pg_stat_database) and WAL per scrape, and the API's resident memory.
// Printed for the capacity model (docs/performance.md); no goal.
// --profile also writes the API's CPU profile (node --cpu-prof) and prints its top frames.
// Usage: npm run build && node bench/scrape-cost.mjs [--targets 20] [--breakers 50] [--interval 5] [--seconds 40] [--profile]
import { createServer } from 'node:http';
import pg from 'pg';
import path from 'node:path';
import { ROOT } from '../scripts/run.mjs';
import { adminCall, cpuSeconds, freePort, postgresCpuSeconds, postgresWrites, startBenchApi } from './api-process.mjs';
import { apiProfiling } from './cpu-profile.mjs';
import { benchLine, numberArg, rssMiB } from './report.mjs';

const TARGETS = numberArg('targets', 20);
const BREAKERS = numberArg('breakers', 50);
const INTERVAL_S = numberArg('interval', 5);
const SECONDS = numberArg('seconds', 40);
const IDLE_SECONDS = 10;
const profiling = apiProfiling();
const dataDir = path.join(ROOT, '.data/bench-scrape');

const STATES = ['disabled', 'metrics_only', 'closed', 'open', 'forced_open', 'half_open'];
const double = (value) => (Number.isInteger(value) ? value.toFixed(1) : String(value));

/** One service's exposition: its breakers' series with counters that grew since the last scrape, among JVM series. */
function exposition(application, breakers, scrapes) {
  const lines = [
    '# HELP jvm_memory_used_bytes The amount of used memory',
    '# TYPE jvm_memory_used_bytes gauge',
    `jvm_memory_used_bytes{application="${application}",area="heap",id="G1 Eden Space"} 2.5165824E7`,
  ];
  const family = (name, help, type, series) => lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...series);
  const tags = (name, more = '') => `{application="${application}",${more}name="${name}"}`;
  family(
    'resilience4j_circuitbreaker_buffered_calls',
    'The number of buffered calls stored in the ring buffer',
    'gauge',
    breakers.flatMap((name) => [
      `resilience4j_circuitbreaker_buffered_calls${tags(name, 'kind="failed",')} 3.0`,
      `resilience4j_circuitbreaker_buffered_calls${tags(name, 'kind="successful",')} 97.0`,
    ]),
  );
  family(
    'resilience4j_circuitbreaker_calls_seconds',
    'Total number of calls',
    'summary',
    breakers.flatMap((name) =>
      ['failed', 'ignored', 'successful'].flatMap((kind) => {
        const count = kind === 'successful' ? 100 * scrapes : kind === 'failed' ? 3 * scrapes : 0;
        return [
          `resilience4j_circuitbreaker_calls_seconds_count${tags(name, `kind="${kind}",`)} ${count}`,
          `resilience4j_circuitbreaker_calls_seconds_sum${tags(name, `kind="${kind}",`)} ${double(count * 0.02)}`,
        ];
      }),
    ),
  );
  family(
    'resilience4j_circuitbreaker_failure_rate',
    'The failure rate of the circuit breaker',
    'gauge',
    breakers.map((name) => `resilience4j_circuitbreaker_failure_rate${tags(name)} 3.0`),
  );
  family(
    'resilience4j_circuitbreaker_not_permitted_calls_total',
    'Total number of not permitted calls',
    'counter',
    breakers.map((name) => `resilience4j_circuitbreaker_not_permitted_calls_total${tags(name, 'kind="not_permitted",')} 0.0`),
  );
  family(
    'resilience4j_circuitbreaker_state',
    'The states of the circuit breaker',
    'gauge',
    breakers.flatMap((name) =>
      STATES.map((state) => `resilience4j_circuitbreaker_state${tags(name, `state="${state}",`)} ${state === 'closed' ? '1.0' : '0.0'}`),
    ),
  );
  return `${lines.join('\n')}\n`;
}

const servers = [];
let api;
let database;
try {
  const breakers = Array.from({ length: BREAKERS }, (_, i) => `downstream-${i + 1}`);
  const counts = [];
  for (let t = 0; t < TARGETS; t++) {
    counts.push(0);
    const server = createServer((_request, response) => {
      counts[t]++;
      response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
      response.end(exposition(`service-${t + 1}`, breakers, counts[t]));
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
  }
  api = await startBenchApi({
    port: await freePort(),
    env: { EMBEDDED_PG_PORT: String(await freePort()), ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' },
    dataDir,
    nodeArgs: profiling.nodeArgs,
  });
  database = new pg.Client({ connectionString: api.databaseUrl });
  await database.connect();
  // the API's own work with no target (timers, figures, the demo breakers): taken off what the scrapes are charged
  const idleFrom = cpuSeconds(api.process.pid);
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const idleCpuPerS = (cpuSeconds(api.process.pid) - idleFrom) / IDLE_SECONDS;
  for (const [t, server] of servers.entries()) {
    await adminCall(
      api,
      'POST',
      '/api/scrape-targets',
      { name: `service-${t + 1}`, url: `http://127.0.0.1:${server.address().port}/actuator/prometheus`, intervalSeconds: INTERVAL_S },
      201,
    );
  }
  const scraped = () => counts.reduce((sum, count) => sum + count, 0);
  // every target scraped twice: its breakers made, its counters seen once before the measured scrapes
  for (let waited = 0; counts.some((count) => count < 2); waited += 250) {
    if (waited > (INTERVAL_S * 3 + 30) * 1000) throw new Error(`targets not scraped twice: ${counts.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const writesOf = () => postgresWrites(database);
  const before = {
    cpu: cpuSeconds(api.process.pid),
    pg: postgresCpuSeconds(dataDir),
    scrapes: scraped(),
    writes: await writesOf(),
    at: performance.now(),
  };
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  const scrapes = scraped() - before.scrapes;
  const idleCpu = (idleCpuPerS * (performance.now() - before.at)) / 1000;
  const cpuMs = ((cpuSeconds(api.process.pid) - before.cpu - idleCpu) * 1000) / Math.max(1, scrapes);
  const after = await writesOf();
  const pgCpuMs = ((postgresCpuSeconds(dataDir) - before.pg) * 1000) / Math.max(1, scrapes);
  const rows = (after.rows - before.writes.rows) / Math.max(1, scrapes);
  const walKiB = (after.wal - before.writes.wal) / 1024 / Math.max(1, scrapes);
  const listed = await adminCall(api, 'GET', '/api/circuit-breakers?source=scrape');
  console.log(
    `${TARGETS} targets × ${BREAKERS} breakers every ${INTERVAL_S} s, ${SECONDS} s: ${scrapes} scrapes, ${listed.length} scraped breakers on the hub; ` +
      `API CPU ${cpuMs.toFixed(2)} ms per scrape (its idle ${(idleCpuPerS * 1000).toFixed(0)} ms/s taken off), PostgreSQL ${pgCpuMs.toFixed(2)} ms CPU, ${rows.toFixed(1)} rows and ${walKiB.toFixed(1)} KiB WAL per scrape, RSS ${rssMiB(api.process.pid).toFixed(0)} MiB`,
  );
  benchLine(
    `API CPU per scrape of a target of ${BREAKERS} breakers (${TARGETS} targets every ${INTERVAL_S} s) / PostgreSQL per scrape`,
    `${cpuMs.toFixed(2)} ms / ${pgCpuMs.toFixed(2)} ms CPU, ${rows.toFixed(1)} rows, ${walKiB.toFixed(1)} KiB WAL`,
    'printed',
    scrapes > 0 && listed.length === TARGETS * BREAKERS,
  );
} finally {
  await database?.end();
  await api?.stop();
  for (const server of servers) server.close();
}
profiling.report();
