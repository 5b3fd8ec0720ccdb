// Notifications across replicas: two API processes on one database, a webhook channel with a secret and a rule for
// breaker.opened, then --rate openings a second (default 100) for --seconds (default 20) written straight into the
// breaker journal over 50 breakers, each row raising one breaker.opened through its trigger. A receiver on loopback
// checks every webhook's signature and times it from its row's commit: p50, p95, p99 (goal ≤ 2 s), max, lost (goal
// 0) and duplicated (goal 0: one delivery id twice, or one event under two ids). The baseline, measured first in the
// same run, is the bench's own signed POSTs to the same receiver at the same rate.
// Then, on the same replicas, escalation (escalation-burst.mjs): --groups alert groups (default 1,000) escalating at
// once through a two-step policy to the same receiver: each step's p50, p95, p99 from its due time to its webhook
// (goal p99 ≤ 2 s), every (group, step) delivered (goal all) and none twice (goal 0).
// Usage: npm run build && node bench/notification-latency.mjs [--case events,escalation] [--seconds 20] [--rate 100]
//        [--breakers 50] [--groups 1000]
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { ROOT } from '../scripts/run.mjs';
import { adminCall, cpuSeconds, freePort, postgresCpuSeconds, startBenchApi } from './api-process.mjs';
import { escalationBurst } from './escalation-burst.mjs';
import { benchLine, numberArg } from './report.mjs';

const SECONDS = numberArg('seconds', 20);
const RATE = numberArg('rate', 100);
const BREAKERS = numberArg('breakers', 50);
const GROUPS = numberArg('groups', 1000);
const CASES = (process.argv.includes('--case') ? process.argv[process.argv.indexOf('--case') + 1] : 'events,escalation').split(',');
const GOAL_MS = 2000;
/** How long after the last event the receiver may still get its webhook. */
const WAIT_MS = 30_000;
/** How long the receiver keeps listening once all have come, for a late second copy. */
const SETTLE_MS = 2000;
const SECRET = 'whsec-the-bench-receiver-and-the-hub-share';
const ENV = {
  // ports of its own, so that another API or benchmark running on the machine cannot answer in its place
  EMBEDDED_PG_PORT: String(await freePort()),
  SESSION_SECRET: 'a-session-secret-both-bench-replicas-share',
  ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
};
const dataDir = path.join(ROOT, '.data/bench-notify');

/** A receiver as a customer writes one: the signature over "<timestamp>.<raw body>" or 401; each arrival noted. */
function startReceiver() {
  const arrivals = [];
  let refused = 0;
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const raw = Buffer.concat(chunks).toString('utf8');
      const expected = Buffer.from(
        `sha256=${createHmac('sha256', SECRET).update(`${request.headers['x-cbh-timestamp']}.${raw}`).digest('hex')}`,
      );
      const given = Buffer.from(String(request.headers['x-cbh-signature']));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        refused++;
        return response.writeHead(401).end();
      }
      const data = JSON.parse(raw).data;
      arrivals.push({
        at,
        // wall-clock ms, for comparing with the database's timestamps
        wall: performance.timeOrigin + at,
        id: request.headers['x-cbh-delivery'],
        reason: data?.reason,
        // an alert group's message: its group, step and breaker
        group: data?.alertGroup?.id,
        step: data?.alertGroup?.step,
        breaker: data?.breaker?.id,
      });
      response.writeHead(200).end('ok');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/hook`,
        arrivals,
        refused: () => refused,
        stop: () => new Promise((done) => (server.closeAllConnections(), server.close(done))),
      }),
    ),
  );
}

/**
 * Fires `send(seq)` RATE times a second for SECONDS, on schedule whatever each call takes; `sent` maps each event's
 * reason to the time it counts from. Resolves once every call has settled.
 */
async function atRate(prefix, send, sent) {
  const total = SECONDS * RATE;
  const started = performance.now();
  const calls = [];
  let failed = 0;
  for (let seq = 0; seq < total; seq++) {
    const due = started + (seq * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const reason = `${prefix} ${seq}`;
    calls.push(
      send(seq, reason).then(
        (at) => sent.set(reason, at),
        () => failed++,
      ),
    );
  }
  await Promise.all(calls);
  return failed;
}

/** Waits until every sent reason has arrived (then SETTLE_MS for late copies) or WAIT_MS has passed. */
async function allArrived(receiver, sent) {
  const deadline = performance.now() + WAIT_MS;
  while (performance.now() < deadline) {
    const seen = new Set(receiver.arrivals.map((arrival) => arrival.reason));
    if ([...sent.keys()].every((reason) => seen.has(reason))) {
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Latencies (first arrival of each event), lost and duplicated, over the arrivals of `sent`'s events. */
function measure(receiver, sent) {
  const first = new Map();
  const idsOf = new Map();
  const countOf = new Map();
  for (const { at, id, reason } of receiver.arrivals) {
    if (!sent.has(reason)) continue;
    if (!first.has(reason) || at < first.get(reason)) first.set(reason, at);
    idsOf.set(reason, (idsOf.get(reason) ?? new Set()).add(id));
    countOf.set(id, (countOf.get(id) ?? 0) + 1);
  }
  const latencies = [...first].map(([reason, at]) => at - sent.get(reason)).sort((x, y) => x - y);
  const rank = (p) => latencies[Math.max(0, Math.ceil((p / 100) * latencies.length) - 1)] ?? NaN;
  let duplicated = 0;
  for (const count of countOf.values()) duplicated += count - 1;
  for (const ids of idsOf.values()) duplicated += ids.size - 1;
  return { p50: rank(50), p95: rank(95), p99: rank(99), max: rank(100), lost: sent.size - first.size, duplicated };
}

const ms = (value) => `${Number.isFinite(value) ? value.toFixed(0) : '—'} ms`;
const summary = (name, m) =>
  `${name}: p50 ${ms(m.p50)}, p95 ${ms(m.p95)}, p99 ${ms(m.p99)}, max ${ms(m.max)}; lost ${m.lost}, duplicated ${m.duplicated}`;

const receiver = await startReceiver();
let a;
let b;
let db;
try {
  a = await startBenchApi({ port: await freePort(), env: ENV, dataDir });
  b = await startBenchApi({ port: await freePort(), env: ENV, dataDir, fresh: false });
  const post = (path, body) => adminCall(a, 'POST', path, body, 201);

  db = new pg.Pool({ connectionString: a.databaseUrl, max: 8 });
  if (CASES.includes('events')) {
    // the baseline: the bench's own signed POSTs, timed from the moment each is sent
    const direct = new Map();
    const directFailed = await atRate(
      'direct',
      async (seq, reason) => {
        const at = performance.now();
        const body = JSON.stringify({
          id: `direct-${seq}`,
          type: 'breaker.opened',
          occurredAt: new Date().toISOString(),
          data: { reason },
        });
        const timestamp = Math.floor(Date.now() / 1000);
        const signature = `sha256=${createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex')}`;
        const response = await fetch(receiver.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-cbh-event': 'breaker.opened',
            'x-cbh-delivery': `direct-${seq}`,
            'x-cbh-timestamp': String(timestamp),
            'x-cbh-signature': signature,
          },
          body,
        });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`the receiver answered ${response.status}`);
        return at;
      },
      direct,
    );
    await allArrived(receiver, direct);
    const baseline = measure(receiver, direct);
    console.log(summary(`direct signed POST to the receiver, ${RATE}/s for ${SECONDS} s`, baseline), `(${directFailed} failed)`);

    // the hub: breakers, a channel to the receiver and a rule for their openings, made on replica A
    const breakers = [];
    for (let made = 0; made < BREAKERS; made += 10) {
      const batch = Array.from({ length: Math.min(10, BREAKERS - made) }, (_, index) =>
        post('/api/circuit-breakers', {
          name: `Notify bench ${made + index + 1}`,
          type: 'simple',
          failureThreshold: 5,
          timeout: 30_000,
          recoveryTime: 60_000,
          successThreshold: 3,
        }),
      );
      breakers.push(...(await Promise.all(batch)).map((breaker) => breaker.id));
    }
    const channel = await post('/api/notification-channels', {
      name: 'Bench receiver',
      type: 'webhook',
      url: receiver.url,
      secret: SECRET,
    });
    const rule = await post('/api/notification-rules', {
      name: 'Bench openings',
      events: ['breaker.opened'],
      channelIds: [channel.id],
      minIntervalMinutes: 0,
    });

    // each journal row commits on its own; its webhook is timed from the commit's acknowledgement
    const events = new Map();
    const cpuOf = () => ({ api: cpuSeconds(a.process.pid) + cpuSeconds(b.process.pid), pg: postgresCpuSeconds(dataDir) });
    const cpuBefore = cpuOf();
    const insertFailed = await atRate(
      'bench',
      async (seq, reason) => {
        await db.query(
          `INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, instance_id, at)
           VALUES ($1, 'CLOSED', 'OPEN', $2, $3, now())`,
          [breakers[seq % breakers.length], reason, randomUUID()],
        );
        return performance.now();
      },
      events,
    );
    console.log(`${events.size} breaker openings journalled over ${BREAKERS} breakers in ${SECONDS} s (${insertFailed} inserts failed)`);
    await allArrived(receiver, events);
    const cpuAfter = cpuOf();
    const hub = measure(receiver, events);
    // the capacity model's cost of a delivery: the replicas' CPU while the events were sent, the bench's own inserts
    // included on PostgreSQL's side
    const perDelivery = (side) => (((cpuAfter[side] - cpuBefore[side]) * 1000) / Math.max(1, events.size)).toFixed(2);
    console.log(`CPU per event delivered (idle work included): API ${perDelivery('api')} ms, PostgreSQL ${perDelivery('pg')} ms`);
    benchLine(
      'CPU per notification event delivered by webhook (both replicas / PostgreSQL)',
      `${perDelivery('api')} ms / ${perDelivery('pg')} ms`,
      'printed',
      true,
    );
    console.log(summary(`event → webhook received, 2 replicas, ${RATE} events/s`, hub));
    const { rows } = await db.query(
      `SELECT status, count(*)::int AS count, count(*) FILTER (WHERE attempts > 1)::int AS retried, min(last_error) AS error
       FROM notification_deliveries WHERE channel_id = $1 GROUP BY status ORDER BY status`,
      [channel.id],
    );
    console.log(
      `the hub's delivery log: ${rows.map((row) => `${row.count} ${row.status} (${row.retried} tried more than once${row.error ? `; '${row.error}'` : ''})`).join(', ')}`,
    );
    console.log(`signatures refused by the receiver: ${receiver.refused()}; which replica delivered each is not recorded`);

    benchLine(
      `direct signed POST to the receiver, ${RATE}/s: p50 / p99 (baseline)`,
      `${ms(baseline.p50)} / ${ms(baseline.p99)}`,
      '—',
      null,
    );
    benchLine(
      `notification event → webhook received, 2 replicas, ${RATE} events/s: p50 / p95 / max`,
      `${ms(hub.p50)} / ${ms(hub.p95)} / ${ms(hub.max)}`,
      '—',
      null,
    );
    benchLine(
      `notification event → webhook received, 2 replicas, ${RATE} events/s: p99`,
      ms(hub.p99),
      `≤ ${GOAL_MS} ms`,
      hub.p99 <= GOAL_MS,
    );
    benchLine(`notification p99 / direct POST p99`, (hub.p99 / baseline.p99).toFixed(1), '—', null);
    benchLine(`notifications lost of ${events.size}`, String(hub.lost), '0', hub.lost === 0 && insertFailed === 0);
    benchLine(`notifications duplicated of ${events.size}`, String(hub.duplicated), '0', hub.duplicated === 0);
    // the rule sends every breaker's openings: off, so that the escalation case's openings page only
    await adminCall(a, 'PATCH', `/api/notification-rules/${rule.id}`, { enabled: false });
  }

  if (CASES.includes('escalation')) {
    const burst = await escalationBurst({ a, b, db, receiver, secret: SECRET, groups: GROUPS });
    const label = `escalation, ${GROUPS.toLocaleString('en')} alert groups at once, 2 replicas`;
    const figures = (m) => `${ms(m.p50)} / ${ms(m.p95)} / ${ms(m.max)}`;
    benchLine(`${label}: step 1 (due at opening) → webhook: p50 / p95 / max`, figures(burst.step1), '—', null);
    benchLine(`${label}: step 1 (due at opening) → webhook: p99`, ms(burst.step1.p99), `≤ ${GOAL_MS} ms`, burst.step1.p99 <= GOAL_MS);
    benchLine(`${label}: step 2 (all due at one instant) → webhook: p50 / p95 / max`, figures(burst.step2), '—', null);
    benchLine(
      `${label}: step 2 (all due at one instant) → webhook: p99`,
      ms(burst.step2.p99),
      `≤ ${GOAL_MS} ms`,
      burst.step2.p99 <= GOAL_MS,
    );
    benchLine(
      `${label}: steps delivered of ${burst.expected}`,
      String(burst.delivered),
      String(GROUPS * 2),
      burst.delivered === GROUPS * 2,
    );
    benchLine(`${label}: steps delivered twice`, String(burst.duplicates), '0', burst.duplicates === 0);
  }
} finally {
  await db?.end();
  // B first: A's process owns the embedded PostgreSQL B reuses
  await b?.stop();
  await a?.stop();
  await receiver.stop();
}
