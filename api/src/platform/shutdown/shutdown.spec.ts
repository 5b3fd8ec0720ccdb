import { Client } from 'pg';
import { signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../test/test-api';
import { APPLICATION_NAME } from '../database/database';
import { SHUTDOWN_GRACE_MS, STOP_AFTER_CUT_MS } from './shutdown';

// A replica told to stop while every periodic task waits on the database (each table locked by another connection,
// as a long migration, a VACUUM FULL or another replica's stuck transaction would) and requests wait behind them.
let api: TestApi;
/** Holds the locks; a transaction sees one snapshot of pg_stat_activity, so the watcher reads it. */
let locker: Client;
let watcher: Client;

beforeAll(async () => {
  api = await startTestApi();
  locker = new Client({ connectionString: api.databaseUrl });
  await locker.connect();
  watcher = new Client({ connectionString: api.databaseUrl });
  await watcher.connect();
});
afterAll(async () => {
  await locker?.end().catch(() => undefined);
  await watcher?.end().catch(() => undefined);
  await api?.stop();
});

/** The statements of the API's connections that wait for a lock. */
async function waitingStatements(): Promise<string[]> {
  const { rows } = await watcher.query<{ query: string }>(
    `SELECT query FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = $1 AND wait_event_type = 'Lock'`,
    [APPLICATION_NAME],
  );
  return rows.map((row) => row.query);
}

it('stops within its grace while each periodic task is mid-query, and nothing it started runs afterwards', async () => {
  const cookie = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  const instanceId = (await api.sql('SELECT id FROM api_instances WHERE stopped_at IS NULL'))[0].id as string;
  const { rows: tables } = await locker.query<{ name: string }>(
    "SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public'",
  );
  await locker.query('BEGIN');
  await locker.query(`LOCK TABLE ${tables.map((table) => table.name).join(', ')} IN ACCESS EXCLUSIVE MODE`);
  const [{ last_seen_at: seenBefore }] = (await locker.query('SELECT last_seen_at FROM api_instances WHERE id = $1', [instanceId])).rows;

  // each task of the replica's own that runs every few seconds has a statement waiting: the tables they wait on
  const tasks: Record<string, RegExp> = {
    heartbeat: /UPDATE "api_instances" SET "last_seen_at"/,
    'cluster leases': /cluster_leases/,
    'notification outbox': /notification_events/,
    'domain checks claim': /UPDATE domains SET check_owner/,
    'load tests claim': /UPDATE test_sessions SET owner_instance/,
    'scrape targets claim': /UPDATE scrape_targets SET lease_owner/,
    'fleet figures': /breaker_instances|fleet_figures/,
  };
  const waitingTasks = async () => {
    const statements = await waitingStatements();
    return {
      all: statements.length,
      tasks: Object.keys(tasks).filter((task) => statements.some((statement) => tasks[task]!.test(statement))),
    };
  };
  // until each task waits, or the pool's ten connections all do (a task then waits for a connection instead)
  const deadline = Date.now() + 15_000;
  let waiting = await waitingTasks();
  while (waiting.tasks.length < Object.keys(tasks).length && waiting.all < 10 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    waiting = await waitingTasks();
  }
  expect(waiting.tasks.length).toBeGreaterThanOrEqual(5);

  // requests in flight that read locked tables
  const requests = Array.from({ length: 20 }, () =>
    fetch(`${api.baseUrl}/api/circuit-breakers`, { headers: { cookie } }).then(
      (response) => response.status,
      () => 'cut' as const,
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 300));

  const bound = SHUTDOWN_GRACE_MS + STOP_AFTER_CUT_MS;
  const stopping = Date.now();
  const outcome = await Promise.race([api.close(), new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), bound + 2000))]);
  const stoppedAfter = Date.now() - stopping;
  // the server looks for a cut statement's client every 2 s (client_connection_check_interval)
  await new Promise((resolve) => setTimeout(resolve, 2500));
  // what it waited for is let go only now: a shutdown that waits for the lock would end here
  await locker.query('ROLLBACK');
  expect(outcome).not.toBe('hung');
  expect(stoppedAfter).toBeLessThan(bound);
  expect(outcome).toMatchObject({ finished: true });
  // each request in flight was answered or its connection closed by then
  expect(
    await Promise.race([Promise.all(requests), new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), 100))]),
  ).not.toBe('pending');

  // nothing of the replica's runs any more: no connection left, and the heartbeat cut while it waited was not carried
  // out once the lock was free (the server cancelled the statement whose client had gone)
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const { rows: connections } = await watcher.query(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
    [APPLICATION_NAME],
  );
  expect(connections).toEqual([]);
  const [{ last_seen_at: seenAfter }] = (await watcher.query('SELECT last_seen_at FROM api_instances WHERE id = $1', [instanceId])).rows;
  expect(seenAfter).toEqual(seenBefore);
}, 60_000);

it('stops one replica without touching another in the same process: each signs in with its own database', async () => {
  const first = await startTestApi();
  const second = await startTestApi({ DATABASE_URL: first.databaseUrl });
  try {
    await second.stop();
    // one passport shared by both would check this sign-in with the stopped replica's closed database (a 500)
    await expect(signIn(first.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password)).resolves.toMatch(/^cbh\.sid=/);
  } finally {
    await second.stop();
    await first.stop();
  }
});
