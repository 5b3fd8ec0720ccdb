import { expect, test } from './support/test';
import { Client } from 'pg';
import WebSocket from 'ws';
import { ACCOUNTS_ENV, ownDatabase, sharedDatabaseUrl, startReplica, startSite, type Site } from './support/server';
import { apiSignIn, breakerBehindChaos, siteApi } from './support/site-api';
import { freePort } from '../tools/testing/free-port.mjs';

/**
 * A replica of the production build told to stop (SIGTERM) while it answers a slow request, holds a browser's
 * /ws and drives a load test, beside the site's own replica on the same database.
 */
test('on SIGTERM a replica finishes its requests, closes /ws as going away, hands its load test over and marks itself down', async () => {
  test.setTimeout(90_000);
  const db = new Client({ connectionString: sharedDatabaseUrl() });
  await db.connect();
  const site: Site = await startReplica();
  let breakerId: number | undefined;
  try {
    const cookie = await apiSignIn(site);
    const { breaker, service } = await breakerBehindChaos(site, cookie, 'Shut down under', {}, 0);
    breakerId = breaker.id;
    // the built-in downstream answers after about two seconds
    await siteApi(site, cookie, `/api/services/${service.id}`, 'PATCH', { averageResponseTime: 2000 });
    const instance = (await (await fetch(`${site.url}/api/health`)).json()).instance as string;

    const socket = new WebSocket(`${site.url.replace('http', 'ws')}/ws`, { headers: { cookie } });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));

    const session = await (
      await siteApi(site, cookie, '/api/test-sessions', 'POST', { configId: breaker.id, failureRate: 0, requestRate: 5, duration: 1 })
    ).json();
    const owner = async () =>
      (await db.query('SELECT owner_instance, status FROM test_sessions WHERE id = $1', [session.id])).rows[0] as {
        owner_instance: string;
        status: string;
      };
    expect((await owner()).owner_instance).toBe(instance);

    const inFlight = siteApi(site, cookie, `/api/services/${service.id}/test`, 'POST');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopping = Date.now();
    const stopped = site.stop('SIGTERM');

    // the request in flight is answered, in full
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ success: true });
    expect(await closed).toBe(1001);
    await stopped;
    expect(Date.now() - stopping).toBeLessThan(10_000);

    // another replica took the load test over at once, not after the 10 s heartbeat timeout; it still runs
    await expect.poll(async () => (await owner()).owner_instance, { timeout: 5000 }).not.toBe(instance);
    expect((await owner()).status).toBe('running');
    const [row] = (await db.query('SELECT stopped_at FROM api_instances WHERE id = $1', [instance])).rows;
    expect(row.stopped_at).not.toBeNull();
    await db.query("UPDATE test_sessions SET status = 'stopped', stopped_at = now() WHERE id = $1", [session.id]);
  } finally {
    await site.stop('SIGKILL');
    if (breakerId !== undefined) await db.query('DELETE FROM circuit_breaker_configs WHERE id = $1', [breakerId]);
    await db.end();
  }
});

/**
 * The same replica told to stop while its database holds every table locked (a migration, a VACUUM FULL, another
 * replica's stuck transaction) and fifty connections keep asking: each periodic task and each request waits on a
 * query. It still exits within its grace — 10 s for what runs, then what still waits is cut (api/src/platform/shutdown/shutdown.ts) —
 * and says what it cut, long before the exit that follows regardless at 15 s.
 */
test('on SIGTERM a replica whose queries all wait on locks exits within its grace, under load', async () => {
  test.setTimeout(90_000);
  const database = await ownDatabase('cbh_e2e_shutdown_locked');
  const site: Site = await startSite({ port: await freePort(), env: { ...ACCOUNTS_ENV, DATABASE_URL: database.url } });
  const locker = new Client({ connectionString: database.url });
  let locked = false;
  let loading = true;
  let clients: Promise<void>[] = [];
  try {
    const cookie = await apiSignIn(site);
    await locker.connect();
    // fifty clients, each asking again as soon as it is answered (or refused, or cut)
    const ask = async () => {
      while (loading)
        await fetch(`${site.url}/api/circuit-breakers`, { headers: { cookie } }).then(
          (response) => response.arrayBuffer(),
          () => undefined,
        );
    };
    clients = Array.from({ length: 50 }, ask);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { rows: tables } = await locker.query<{ name: string }>(
      "SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public'",
    );
    await locker.query('BEGIN');
    locked = true;
    await locker.query(`LOCK TABLE ${tables.map((table) => table.name).join(', ')} IN ACCESS EXCLUSIVE MODE`);
    // the tasks' next turns and the requests pile up behind the locks
    await new Promise((resolve) => setTimeout(resolve, 3000));

    const exited = new Promise<number | null>((resolve) => site.process.once('exit', (code) => resolve(code)));
    const stopping = Date.now();
    site.process.kill('SIGTERM');
    const code = await exited;
    const tookMs = Date.now() - stopping;
    console.log(`SIGTERM with every table locked and 50 connections asking: exited ${code} after ${tookMs} ms`);
    expect(code).toBe(0);
    expect(tookMs).toBeLessThan(14_000);
    expect(site.logs.join('')).toMatch(/database queries still running after 10000 ms were cut/);
  } finally {
    loading = false;
    await Promise.all(clients);
    // a client that never connected would wait for its connection forever
    if (locked) await locker.query('ROLLBACK').catch(() => undefined);
    await locker.end().catch(() => undefined);
    await site.stop('SIGKILL');
    await database.drop();
  }
});
