// Soak: the production API for N minutes (default 30) under 1,000 signed-in /ws clients, a load test at 100 req/s
// and steady authenticated reads (20 req/s). Prints, per minute, the API process's RSS, heap, event-loop delay p99
// and open handles (reported from inside it), and the clients' errors; at the end the growth of RSS and heap from
// minute 5 to the last minute (goal ≤ 10 %), the worst event-loop p99 (goal ≤ 50 ms) and the errors (goal none).
// Usage: npm run build && node bench/soak.mjs [--minutes 30] [--clients 1000]
import path from 'node:path';
import { ROOT } from '../scripts/run.mjs';
import { adminCall, startBenchApi } from './api-process.mjs';
import { connectClients } from './ws-clients.mjs';
import { numberArg } from './report.mjs';

const MINUTES = numberArg('minutes', 30);
const CLIENTS = numberArg('clients', 1000);
const READS_PER_SECOND = 20;
const MB = 1024 * 1024;

const api = await startBenchApi({ probe: path.join(ROOT, 'bench/soak-probe.cjs') });
const samples = [];
api.process.on('message', (sample) => samples.push(sample));
const errors = { ws: 0, reads: 0, closes: 0 };
let messages = 0;
let reads = 0;
const sockets = [];
let closing = false;
const timers = [];
try {
  await connectClients(
    api.url,
    api.cookie,
    CLIENTS,
    (socket) => {
      socket.on('message', () => messages++);
      socket.on('error', () => errors.ws++);
      socket.on('close', () => !closing && errors.closes++);
    },
    sockets,
  );
  await adminCall(api, 'POST', '/api/test-sessions', {
    configId: 1,
    failureRate: 15,
    requestRate: 100,
    duration: Math.min(60, MINUTES + 1),
  });
  const paths = ['/api/auth/user', '/api/metrics/latest', '/api/circuit-breakers', '/api/dashboard/stats'];
  timers.push(
    setInterval(() => {
      const target = paths[reads % paths.length];
      reads++;
      fetch(`${api.url}${target}`, { headers: { cookie: api.cookie } }).then(
        (response) => {
          if (!response.ok) errors.reads++;
          return response.arrayBuffer();
        },
        () => errors.reads++,
      );
    }, 1000 / READS_PER_SECOND),
  );
  console.log(`${sockets.length} /ws clients, a load test at 100 req/s, ${READS_PER_SECOND} signed-in reads/s, for ${MINUTES} min`);
  console.log('minute  RSS MB  heap MB  loop p99 ms  handles  ws messages  reads  errors (ws/closed/reads)');
  for (let minute = 1; minute <= MINUTES; minute++) {
    await new Promise((resolve) => setTimeout(resolve, 60_000));
    const sample = samples.at(-1);
    if (!sample) throw new Error('the API process reported nothing');
    console.log(
      `${String(minute).padStart(6)}  ${(sample.rss / MB).toFixed(1).padStart(6)}  ${(sample.heapUsed / MB).toFixed(1).padStart(7)}  ${sample.loopP99Ms.toFixed(1).padStart(11)}  ${String(sample.handles).padStart(7)}  ${String(messages).padStart(11)}  ${String(reads).padStart(5)}  ${errors.ws}/${errors.closes}/${errors.reads}`,
    );
  }
  const from = samples[Math.min(4, samples.length - 1)];
  const to = samples.at(-1);
  const growth = (key) => (100 * (to[key] - from[key])) / from[key];
  const worstLoop = Math.max(...samples.map((sample) => sample.loopP99Ms));
  const errorCount = errors.ws + errors.closes + errors.reads;
  const verdict = (ok) => (ok ? 'OK' : 'MISSED');
  console.log(
    `RSS growth from minute ${samples.indexOf(from) + 1} to ${samples.length}: ${growth('rss').toFixed(1)} % — ${verdict(growth('rss') <= 10)} (goal ≤ 10 %)`,
  );
  console.log(
    `heap growth from minute ${samples.indexOf(from) + 1} to ${samples.length}: ${growth('heapUsed').toFixed(1)} % — ${verdict(growth('heapUsed') <= 10)} (goal ≤ 10 %)`,
  );
  console.log(`worst event-loop delay p99: ${worstLoop.toFixed(1)} ms — ${verdict(worstLoop <= 50)} (goal ≤ 50 ms)`);
  console.log(`errors: ${errorCount} — ${verdict(errorCount === 0)} (goal none)`);
} finally {
  closing = true;
  timers.forEach(clearInterval);
  for (const socket of sockets) socket.terminate();
  api.stop();
}
