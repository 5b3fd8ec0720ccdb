// Per-call cost of an opossum breaker's fire() with @cbh/agent watching it (OpossumAdapter, createAgent, and
// connectToHub reporting every second to a loopback hub) against the same bare opossum breaker, measured in the
// same run, closed (the call runs) and forced open (refused). Goal ≤ 1.5× the bare breaker.
// Usage: node bench/agent-overhead.mjs [--calls 200000] [--rounds 7]
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import CircuitBreaker from 'opossum';
import { ROOT } from '../scripts/run.mjs';
import { benchLine, numberArg } from './report.mjs';

const CALLS = numberArg('calls', 200_000);
const ROUNDS = numberArg('rounds', 7);
const GOAL = 1.5;

// the package as services get it, built from the current source
const out = path.join(ROOT, '.data/bench/agent-package');
execFileSync(process.execPath, [path.join(ROOT, 'libs/agent/packaging/build.mjs'), out], { stdio: 'ignore' });
const { connectToHub, createAgent, OpossumAdapter } = createRequire(import.meta.url)(path.join(out, 'agent/src/index.js'));

/** The hub, on a thread of its own so that its work is not counted in either breaker's calls. */
const HUB = `
const { createServer } = require('node:http');
const { parentPort } = require('node:worker_threads');
let reports = 0, successes = 0, rejections = 0;
const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk)).on('end', () => {
    reports++;
    for (const breaker of JSON.parse(body).breakers) {
      successes += breaker.window.successes;
      rejections += breaker.window.rejections;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version: 1, reportEveryMs: 1000, controls: [] }));
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', () => parentPort.postMessage({ reports, successes, rejections }));
`;
const hub = new Worker(HUB, { eval: true });
const ask = () => new Promise((resolve) => hub.once('message', resolve));
const { port } = await ask();

const work = async () => 1;
const noop = () => undefined;
const options = { timeout: false, errorThresholdPercentage: 50, resetTimeout: 3_600_000 };
const bare = new CircuitBreaker(work, options);
const bareOpen = new CircuitBreaker(work, options);
bareOpen.open();

const agent = createAgent({ service: 'bench', instance: 'bench-1' });
const watched = new CircuitBreaker(work, options);
const watchedOpen = new CircuitBreaker(work, options);
agent.register(new OpossumAdapter(watched, 'closed'));
const forced = new OpossumAdapter(watchedOpen, 'open');
agent.register(forced);
forced.forceOpen();
const connection = connectToHub(agent, { hubUrl: `http://127.0.0.1:${port}`, token: 'bench', logger: { info: noop, warn: console.warn } });

/** Lets timers and sockets run, as a service's event loop does between calls: else the agent would never report. */
const turn = () => new Promise(setImmediate);

/**
 * Median nanoseconds per call of each candidate over several rounds, after a warm-up round; every round runs every
 * candidate in turn, as bench/breaker-overhead.mjs does, so that none is measured alone while V8 sees one function.
 * The agent's reports are made during the rounds, so their cost falls on whichever candidate is running.
 */
async function measureAll(candidates) {
  const samples = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]));
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [name, call] of Object.entries(candidates)) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < CALLS; i++) {
        await call();
        if (i % 1000 === 999) await turn();
      }
      if (round > 0) samples[name].push(Number(process.hrtime.bigint() - started) / CALLS);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, ns]) => [name, ns.sort((a, b) => a - b)[Math.floor(ns.length / 2)]]));
}

const started = Date.now();
const results = await measureAll({
  'opossum closed': () => bare.fire(),
  'opossum + agent closed': () => watched.fire(),
  'opossum open': () => bareOpen.fire().catch(noop),
  'opossum + agent open': () => watchedOpen.fire().catch(noop),
});
await connection.stop();
hub.postMessage('figures');
const received = await ask();
await hub.terminate();
for (const circuit of [bare, bareOpen, watched, watchedOpen]) circuit.shutdown();

const made = (ROUNDS + 1) * CALLS;
console.log(`${CALLS} calls × ${ROUNDS} rounds, median ns per call (node ${process.version})`);
for (const [name, ns] of Object.entries(results)) console.log(`  ${name.padEnd(23)} ${ns.toFixed(0).padStart(7)} ns`);
console.log(
  `the hub had ${received.reports} reports in ${((Date.now() - started) / 1000).toFixed(1)} s, counting ${received.successes} of ${made} ` +
    `calls and ${received.rejections} of ${made} refusals`,
);
for (const mode of ['closed', 'open']) {
  const ratio = results[`opossum + agent ${mode}`] / results[`opossum ${mode}`];
  console.log(`${mode}: opossum + agent / opossum ${ratio.toFixed(3)}× (goal ≤ ${GOAL}×) ${ratio <= GOAL ? 'OK' : 'MISSED'}`);
  benchLine(`agent call overhead ${mode}: opossum + agent / opossum`, `${ratio.toFixed(3)}×`, `≤ ${GOAL}×`, ratio <= GOAL);
}
if (received.successes !== made || received.rejections !== made) {
  benchLine('agent reports: every call counted', `${received.successes + received.rejections} of ${2 * made}`, 'all', false);
}
