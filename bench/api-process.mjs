// Starts the production API (dist/api/main.js) with its own embedded PostgreSQL for a benchmark, and signs in.
// With `probe`, that module is preloaded into the API process and may report to the benchmark over IPC. A second
// replica is started on the first one's dataDir with `fresh: false`: it reuses that embedded PostgreSQL and the
// secrets kept beside it. `databaseUrl` is that PostgreSQL's, for a benchmark that writes rows itself.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../scripts/run.mjs';

// a port below the kernel's own range, as the test harnesses take theirs: the embedded PostgreSQL of a benchmark binds
// its port only after its initdb, and a port from listen(0) may meanwhile go to one of the benchmark's own connections
export { freePort } from '../tools/testing/free-port.mjs';

/** The kernel's clock ticks per second in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS = 100;
/** A process's /proc/<pid>/stat fields after its name, or null once it has gone. */
function statOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  } catch {
    return null;
  }
}
const secondsOf = (fields) => (fields ? (Number(fields[11]) + Number(fields[12])) / TICKS : 0);

/** user + system CPU seconds of a process so far (0 once it has gone). */
export function cpuSeconds(pid) {
  return secondsOf(statOf(pid));
}

/**
 * user + system CPU seconds so far of a process's threads other than its main one: V8's workers (its parallel and
 * concurrent garbage collection, its compilers) and libuv's pool. A CPU profile samples the main thread only, so this
 * is the part of cpuSeconds a profile does not show.
 */
export function otherThreadsCpuSeconds(pid) {
  let seconds = 0;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) if (task !== String(pid)) seconds += secondsOf(statOf(`${pid}/task/${task}`));
  } catch {
    // the process has gone
  }
  return seconds;
}

/**
 * user + system CPU seconds so far of a process and of its children: those alive now, and those that ended and were
 * reaped (the kernel adds their time to the parent's cutime and cstime). A PostgreSQL's postmaster reaps a backend
 * when its connection closes: counting only the live ones made the sum fall when a pool closed connections.
 */
export function treeCpuSeconds(pid) {
  const own = statOf(pid);
  let seconds = secondsOf(own) + (own ? (Number(own[13]) + Number(own[14])) / TICKS : 0);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statOf(entry);
    if (fields && Number(fields[1]) === pid) seconds += secondsOf(fields);
  }
  return seconds;
}

/** CPU seconds so far of the embedded PostgreSQL kept under `dataDir` (its postmaster and the backends alive now). */
export function postgresCpuSeconds(dataDir) {
  return treeCpuSeconds(Number(readFileSync(path.join(dataDir, 'pg/postmaster.pid'), 'utf8').split('\n')[0]));
}

/** Rows a PostgreSQL has inserted and updated so far in the client's database, and the WAL it has written (bytes). */
export async function postgresWrites(client) {
  const { rows } = await client.query(
    `SELECT (SELECT tup_inserted + tup_updated FROM pg_stat_database WHERE datname = current_database())::float8 AS rows,
            pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::float8 AS wal`,
  );
  return rows[0];
}

/**
 * The benches' embedded PostgreSQL: below Linux's ephemeral ports (32768–60999), so that an API left running from an
 * earlier run, retrying its lost database, can never be given this port as its own and connect to itself.
 */
export const BENCH_PG_PORT = 25470;

export const BENCH_ADMIN = { email: 'bench@example.com', password: 'bench-password-123' };

export async function startBenchApi({
  port = 3390,
  env = {},
  probe,
  nodeArgs = [],
  dataDir = path.join(ROOT, '.data/bench'),
  fresh = true,
  // a program the API runs under, with its arguments (valgrind for bench:instructions), and how long it may take to start
  launcher = [],
  startWithinS = 60,
} = {}) {
  if (fresh) rmSync(dataDir, { recursive: true, force: true });
  const settings = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(BENCH_PG_PORT),
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    SEED_DEMO: 'true',
    DATABASE_URL: '',
    // the console bench runs a load test through each of 200 breakers
    LOAD_TESTS_PER_USER: '1000',
    LOAD_TESTS_TOTAL: '1000',
    // the /ws benchmarks connect thousands of clients with one session
    WS_CONNECTIONS_PER_SESSION: '100000',
    ...env,
  };
  const [program, ...programArgs] = [...launcher, process.execPath];
  const child = spawn(program, [...programArgs, ...nodeArgs, ...(probe ? ['--require', probe] : []), path.join(ROOT, 'dist/api/main.js')], {
    cwd: ROOT,
    env: settings,
    stdio: ['ignore', 'ignore', 'inherit', ...(probe ? ['ipc'] : [])],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (child.exitCode !== null) throw new Error(`the API exited with code ${child.exitCode} before it answered`);
    if (tries > startWithinS * 4) throw new Error(`the API did not answer within ${startWithinS} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const login = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_ADMIN),
  });
  const cookie = login.headers.get('set-cookie').split(';')[0];
  const exited = new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
  /**
   * Asks the API to shut down; resolves once it has (its embedded PostgreSQL stopped with it), or after `withinMs`
   * kills it, and the embedded PostgreSQL a fresh start began with it.
   */
  const stop = async (withinMs = 30_000) => {
    child.kill('SIGTERM');
    let timer;
    const late = await Promise.race([exited.then(() => false), new Promise((resolve) => (timer = setTimeout(resolve, withinMs, true)))]);
    clearTimeout(timer);
    if (!late) return;
    child.kill('SIGKILL');
    if (fresh) {
      try {
        process.kill(Number(readFileSync(path.join(dataDir, 'pg/postmaster.pid'), 'utf8').split('\n')[0]), 'SIGINT');
      } catch {
        // no PostgreSQL left running there
      }
    }
    await exited;
  };
  const databaseUrl =
    settings.DATABASE_URL ||
    `postgres://postgres:${readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim()}@127.0.0.1:${settings.EMBEDDED_PG_PORT}/circuit_breaker_hub`;
  return { url, cookie, databaseUrl, process: child, stop };
}

/**
 * A JSON call of the signed-in admin to a bench API (startBenchApi's): the answer's body (null for a 204), or an error
 * naming the route and the status when that is not `status` (any 2xx when not given).
 */
export async function adminCall(api, method, route, body, status) {
  const response = await fetch(`${api.url}${route}`, {
    method,
    // a JSON type with no body is refused (Fastify's empty JSON body), so the header goes with a body only
    headers: { cookie: api.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const refused = status === undefined ? !response.ok : response.status !== status;
  if (refused) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

/** A service account named `name` made on a bench API, and an access token of it for a day. */
export async function serviceAccountToken(api, name) {
  const account = await adminCall(api, 'POST', '/api/service-accounts', { name });
  const { token } = await adminCall(api, 'POST', `/api/service-accounts/${account.id}/tokens`, { name: 'bench', expiresInDays: 1 });
  return token;
}

/** Sends `send(i)` for each of `count` senders once per `periodS` for `seconds`, spread over the period; counts outcomes. */
export async function spread(count, periodS, seconds, send) {
  const outcomes = { ok: 0, refused: 0, failed: 0, statuses: {} };
  const started = performance.now();
  const calls = [];
  for (let round = 0; round < seconds / periodS; round++) {
    for (let i = 0; i < count; i++) {
      const due = started + (round * periodS + (i * periodS) / count) * 1000;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      calls.push(
        send(i).then(
          async (response) => {
            await response.arrayBuffer();
            if (response.ok) outcomes.ok++;
            else {
              outcomes.refused++;
              outcomes.statuses[response.status] = (outcomes.statuses[response.status] ?? 0) + 1;
            }
          },
          () => outcomes.failed++,
        ),
      );
    }
  }
  await Promise.all(calls);
  return outcomes;
}
