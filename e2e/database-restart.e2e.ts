import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/test';
import { Client } from 'pg';
import WebSocket from 'ws';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '@cbh/embedded-postgres';
import { ACCOUNTS_ENV, SCRATCH, startSite, type Site } from './support/server';
import { apiSignIn, siteApi } from './support/site-api';
import { freePort } from '../tools/testing/free-port.mjs';

const OUTAGE_MS = 12_000;
const REQUEST_RATE = 20;

/** Every call the replica counted for the breaker since it started, from its own Prometheus counters. */
async function countedCalls(site: Site, cookie: string, breaker: string): Promise<number> {
  const text = await (await siteApi(site, cookie, '/metrics')).text();
  return text
    .split('\n')
    .filter((line) => /_calls_total\{/.test(line) && line.includes(`name="${breaker}"`) && !line.includes('replica="cluster"'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/** A breaker that opens after 2 failures and tries again 5 s later. */
const settings = (name: string) => ({
  name,
  type: 'simple',
  failureThreshold: 2,
  timeout: 5000,
  recoveryTime: 60_000,
  successThreshold: 1,
});

/** The breaker's live figures, which the API serves from memory. */
async function latestOf(site: Site, cookie: string, configId: number) {
  const response = await siteApi(site, cookie, '/api/metrics/latest');
  expect(response.status).toBe(200);
  const { stats } = (await response.json()) as {
    stats: { configId: number; requestsPerSecond: number; failureCount: number; shortCircuitedCount: number }[];
  };
  return stats.find((entry) => entry.configId === configId)!;
}

/** The time a request takes to be answered, with its answer. */
async function timed(request: Promise<Response>) {
  const started = Date.now();
  const response = await request;
  return { response, ms: Date.now() - started, body: await response.json() };
}

test.skip(Boolean(process.env.DATABASE_URL), 'the test stops and starts an embedded PostgreSQL of its own');

/**
 * The production API on a PostgreSQL of its own, which the test stops for 12 s and starts again while a load test
 * runs at 20 calls/s through a breaker that keeps opening: what needs no database keeps answering, writes answer
 * 503 at once, the API comes back by itself, and the outage's per-second counts and breaker moves reach the
 * database afterwards, every one once.
 */
test('PostgreSQL restarted during a load test: reads answer, writes get a 503, the API reconnects and nothing is lost or doubled', async () => {
  test.setTimeout(150_000);
  const dataDir = mkdtempSync(path.join(SCRATCH, 'pg-restart-'));
  const options = { dataDir, port: await freePort(), database: 'circuit_breaker_hub' };
  let database: EmbeddedDatabase = await startEmbeddedPostgres(options);
  const site = await startSite({ port: await freePort(), env: { ...ACCOUNTS_ENV, DATABASE_URL: database.url } });
  const db = new Client({ connectionString: database.url });
  try {
    const cookie = await apiSignIn(site);
    const name = 'Through a restart';
    // at a 100 % failure rate it moves about every 5 s while the database is away
    const breaker = await (await siteApi(site, cookie, '/api/circuit-breakers', 'POST', settings(name))).json();
    const session = await (
      await siteApi(site, cookie, '/api/test-sessions', 'POST', {
        configId: breaker.id,
        failureRate: 100,
        requestRate: REQUEST_RATE,
        duration: 1,
      })
    ).json();
    expect(session.status).toBe('running');
    const socket = new WebSocket(`${site.url.replace('http', 'ws')}/ws`, { headers: { cookie } });
    const moves: string[] = [];
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      if (message.type === 'stateChange' && message.data.configId === breaker.id) moves.push(message.data.to);
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    await new Promise((resolve) => setTimeout(resolve, 2500));

    // the outage
    const down = Date.now();
    await database.stop();

    const health = await timed(fetch(`${site.url}/api/health`));
    expect(health.response.status).toBe(503);
    expect(health.body).toMatchObject({ statusCode: 503, database: 'down', status: 'degraded' });
    expect(health.ms).toBeLessThan(5000);
    // reads that need no database: the signed-in account and the live figures, which still move
    const me = await timed(siteApi(site, cookie, '/api/auth/user'));
    expect([me.response.status, me.body.email]).toEqual([200, 'root@example.com']);
    const before = await latestOf(site, cookie, breaker.id);
    // a write answers a clear 503 in the error shape, at once
    const write = await timed(siteApi(site, cookie, '/api/circuit-breakers', 'POST', settings('Not now')));
    expect(write.response.status).toBe(503);
    expect(write.body).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'The database is unavailable at the moment; nothing was changed. Try again in a few seconds.',
    });
    expect(write.ms).toBeLessThan(5000);
    expect(write.response.headers.get('retry-after')).toBe('5');

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, down + OUTAGE_MS - Date.now())));
    const during = await latestOf(site, cookie, breaker.id);
    // the load test kept running: calls went on being made and refused while the database was away
    expect(before.requestsPerSecond).toBeGreaterThan(0);
    expect(during.requestsPerSecond).toBeGreaterThan(0);
    expect(during.shortCircuitedCount + during.failureCount).toBeGreaterThan(0);

    // the database is back: the API reconnects by itself within 10 s
    database = await startEmbeddedPostgres(options);
    const up = Date.now();
    await expect.poll(async () => (await fetch(`${site.url}/api/health`)).status, { timeout: 10_000, intervals: [250] }).toBe(200);
    expect(Date.now() - up).toBeLessThan(10_000);
    const created = await siteApi(site, cookie, '/api/circuit-breakers', 'POST', settings('After the restart'));
    expect(created.status).toBe(201);
    // live messages flow again once the LISTEN connection is back: the breaker's next move arrives
    moves.length = 0;
    await expect.poll(() => moves.length, { timeout: 15_000 }).toBeGreaterThan(0);

    // stop the load test; every count reaches the database with the next flush
    await siteApi(site, cookie, `/api/test-sessions/${session.id}/stop`, 'POST');
    await db.connect();
    const calls = await countedCalls(site, cookie, name);
    await expect
      .poll(async () => (await (await siteApi(site, cookie, '/api/dashboard/stats')).json()).totalRequests, { timeout: 15_000 })
      .toBe(calls);

    // no gap: every whole second the load test ran, the outage's included, has its calls, and none twice
    const { rows: seconds } = await db.query(
      `SELECT extract(epoch FROM second)::bigint AS second, sum(success + failure + timeout + short_circuited + bulkhead_rejected)::int AS calls
         FROM metric_buckets WHERE config_id = $1 GROUP BY second ORDER BY second`,
      [breaker.id],
    );
    const first = Number(seconds[0].second);
    const last = Number(seconds.at(-1).second);
    const perSecond = new Map(seconds.map((row: { second: string; calls: number }) => [Number(row.second), row.calls]));
    const outage = [Math.ceil(down / 1000), Math.floor(up / 1000)];
    expect(first).toBeLessThan(outage[0]!);
    expect(last).toBeGreaterThan(outage[1]!);
    // 20 calls a second; a busy machine moves a few between neighbouring seconds, a doubled write would show 40
    const off: { second: number; calls: number }[] = [];
    for (let second = first + 1; second < last; second++) {
      const count = perSecond.get(second) ?? 0;
      if (Math.abs(count - REQUEST_RATE) > 12) off.push({ second: second - first, calls: count });
    }
    expect(off).toEqual([]);

    // the journal holds the outage's moves, once each, in an unbroken chain
    const { rows: journal } = await db.query(
      'SELECT from_state, to_state, at FROM breaker_transitions WHERE config_id = $1 ORDER BY at, id',
      [breaker.id],
    );
    const duringOutage = journal.filter((row: { at: Date }) => row.at.getTime() >= down && row.at.getTime() <= up);
    expect(duringOutage.length).toBeGreaterThanOrEqual(2);
    journal.slice(1).forEach((row: { from_state: string }, index: number) => expect(row.from_state).toBe(journal[index].to_state));
    socket.close();
  } finally {
    await site.stop();
    await db.end().catch(() => undefined);
    await database.stop();
  }
});
