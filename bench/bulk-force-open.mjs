// Bulk operations across replicas: two API processes on one database, 500 breakers, one POST
// /api/circuit-breakers/bulk force-open on replica A, and the time until a /ws client of replica B has seen every
// one of the 500 open (goal ≤ 2 s), with how long A took to answer. Each run resets the breakers first.
// Usage: npm run build && node bench/bulk-force-open.mjs [--breakers 500] [--runs 3]
import WebSocket from 'ws';
import { adminCall, freePort, startBenchApi } from './api-process.mjs';
import { benchLine, numberArg } from './report.mjs';

const BREAKERS = numberArg('breakers', 500);
const RUNS = numberArg('runs', 3);
const GOAL_MS = 2000;
// ports of its own, so that another API or benchmark running on the machine cannot answer in its place
const database = { EMBEDDED_PG_PORT: String(await freePort()) };
const a = await startBenchApi({ port: await freePort(), env: database });
let b;
let socket;
try {
  b = await startBenchApi({ port: await freePort(), env: database, fresh: false });

  // the breakers, made on replica A twenty at a time
  const ids = [];
  for (let made = 0; made < BREAKERS; made += 20) {
    const batch = Array.from({ length: Math.min(20, BREAKERS - made) }, (_, index) =>
      adminCall(a, 'POST', '/api/circuit-breakers', {
        name: `Bulk bench ${made + index + 1}`,
        type: 'simple',
        failureThreshold: 5,
        timeout: 30_000,
        recoveryTime: 60_000,
        successThreshold: 3,
      }),
    );
    ids.push(...(await Promise.all(batch)).map((breaker) => breaker.id));
  }
  const wanted = new Set(ids);

  // a /ws client of replica B, told of each breaker's state as it moves
  socket = new WebSocket(`${b.url.replace('http', 'ws')}/ws`, { headers: { cookie: b.cookie } });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let waiting = null;
  socket.on('message', (data) => {
    if (!waiting) return;
    const message = JSON.parse(String(data));
    if (message.type !== 'stateChange' || message.data.to !== waiting.state || !wanted.has(message.data.configId)) return;
    waiting.seen.add(message.data.configId);
    if (waiting.seen.size === wanted.size) waiting.done(performance.now());
  });
  /** Sends the bulk action to replica A; resolves with A's answer time and when B's client had seen every breaker move. */
  const bulkAndWait = (action, state) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      let answeredIn;
      let reachedIn;
      // B's client may hear every move before A's answer arrives: whichever comes last resolves
      const settle = () => answeredIn !== undefined && reachedIn !== undefined && resolve({ answeredIn, reachedIn });
      const timer = setTimeout(
        () => reject(new Error(`replica B saw ${waiting?.seen.size ?? 0} of ${wanted.size} breakers ${state} after 30 s`)),
        30_000,
      );
      waiting = {
        state,
        seen: new Set(),
        done: (at) => {
          waiting = null;
          clearTimeout(timer);
          reachedIn = at - started;
          settle();
        },
      };
      adminCall(a, 'POST', '/api/circuit-breakers/bulk', { action, ids }).then((result) => {
        answeredIn = performance.now() - started;
        const failed = result.results.filter((outcome) => !outcome.ok);
        if (failed.length > 0) reject(new Error(`${failed.length} breakers failed: ${failed[0].message}`));
        settle();
      }, reject);
    });

  const runs = [];
  for (let run = 1; run <= RUNS; run++) {
    // every breaker CLOSED again before each run (the first run's reset moves nothing and is not waited for)
    if (run > 1) await bulkAndWait('reset', 'CLOSED');
    const { answeredIn, reachedIn } = await bulkAndWait('force-open', 'OPEN');
    runs.push({ answeredIn, reachedIn });
    console.log(
      `run ${run}: replica A answered in ${answeredIn.toFixed(0)} ms; replica B's /ws had all ${BREAKERS} open after ${reachedIn.toFixed(0)} ms`,
    );
  }
  const slowest = (key) => Math.max(...runs.map((run) => run[key]));
  benchLine(
    `bulk force-open of ${BREAKERS} breakers: replica A's answer (slowest of ${RUNS})`,
    `${slowest('answeredIn').toFixed(0)} ms`,
    '—',
    null,
  );
  benchLine(
    `bulk force-open of ${BREAKERS} breakers seen open on replica B's /ws (slowest of ${RUNS})`,
    `${slowest('reachedIn').toFixed(0)} ms`,
    `≤ ${GOAL_MS} ms`,
    slowest('reachedIn') <= GOAL_MS,
  );
} finally {
  socket?.terminate();
  // B first: A's process owns the embedded PostgreSQL B reuses
  await b?.stop();
  await a.stop();
}
