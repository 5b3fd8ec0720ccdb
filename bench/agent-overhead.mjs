// Per-call cost of @cbh/agent on the breakers it watches, measured in one run:
// - opossum's fire() with the agent watching it (OpossumAdapter, createAgent, connectToHub reporting every second to a
//   loopback hub) against the same bare opossum breaker, closed (the call runs) and forced open (refused): goal ≤ 1.5×;
// - no fault active: each library's call through the agent that takes drills' faults (allowFaults, no fault running)
//   against the same call through the agent without fault support (the package built from --baseline, by default the
//   commit before faults came), goal ≤ 1.05×; and an opossum breaker whose fault has come and gone against one that
//   never had one (its own action is back in place), goal ≤ 1.05×. Each library's ratio to its bare breaker is printed.
// Usage: node bench/agent-overhead.mjs [--calls 50000] [--rounds 25] [--baseline <git revision>] [--clock wall|cpu]
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { circuitBreaker, ConsecutiveBreaker, handleAll } from 'cockatiel';
import CircuitBreaker from 'opossum';
import { ROOT } from '../scripts/run.mjs';
import { benchLine, median, numberArg } from './report.mjs';

const CALLS = numberArg('calls', 50_000);
const ROUNDS = numberArg('rounds', 25);
const GOAL = 1.5;
const FAULT_SLOT_GOAL = 1.05;
const clockArg = process.argv.indexOf('--clock');
const CLOCK = clockArg > 0 ? process.argv[clockArg + 1] : 'wall';
if (CLOCK !== 'wall' && CLOCK !== 'cpu') throw new Error('--clock is wall or cpu');

const require = createRequire(import.meta.url);
const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
const build = (source, out) =>
  execFileSync(process.execPath, [path.join(source, 'libs/agent/packaging/build.mjs'), out], { stdio: 'ignore' });

// the package as services get it, built from the current source
const out = path.join(ROOT, '.data/bench/agent-package');
build(ROOT, out);
const current = require(path.join(out, 'agent/src/index.js'));

/**
 * The honest baseline for the fault slot is the same agent without fault support: the package built from the source
 * before faults came (the parent of the commit that added src/faults.ts; HEAD while that is not committed yet), so
 * that the comparison is of the call path with and without the slot, all else alike. Against the bare breaker the
 * slot's cost would drown in the agent's own counting.
 */
const baselineArg = process.argv.indexOf('--baseline');
const added = git('log', '--diff-filter=A', '--format=%H', '--', 'libs/agent/src/faults.ts').split('\n').filter(Boolean).at(-1);
const baselineRev = baselineArg > 0 ? process.argv[baselineArg + 1] : added ? `${added}^` : 'HEAD';
const baselineSource = path.join(ROOT, '.data/bench/agent-baseline-source');
const baselineOut = path.join(ROOT, '.data/bench/agent-baseline-package');
rmSync(baselineSource, { recursive: true, force: true });
mkdirSync(baselineSource, { recursive: true });
const tar = path.join(baselineSource, 'source.tar');
git('archive', '--format=tar', '-o', tar, baselineRev, 'libs/agent', 'libs/breaker', 'libs/contracts', 'tsconfig.base.json');
execFileSync('tar', ['-xf', tar, '-C', baselineSource]);
build(baselineSource, baselineOut);
const before = require(path.join(baselineOut, 'agent/src/index.js'));
const { CircuitBreaker: CbhBreaker } = require(path.join(out, 'breaker/src/index.js'));

/** The hub, on a thread of its own so that its work is not counted in any breaker's calls; it tallies each breaker's calls. */
const HUB = `
const { createServer } = require('node:http');
const { parentPort } = require('node:worker_threads');
let reports = 0;
const calls = {};
const server = createServer((request, response) => {
  // a report is a POST; anything else (an agent's upgrade to the stream, which this hub does not offer) is not found
  if (request.method !== 'POST') return response.writeHead(404).end();
  let body = '';
  request.on('data', (chunk) => (body += chunk)).on('end', () => {
    reports++;
    const report = JSON.parse(body);
    for (const breaker of report.breakers) {
      const key = report.instance + '/' + breaker.name;
      calls[key] ??= { successes: 0, rejections: 0 };
      calls[key].successes += breaker.window.successes;
      calls[key].rejections += breaker.window.rejections;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version: 1, reportEveryMs: 1000, controls: [] }));
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', () => parentPort.postMessage({ reports, calls }));
`;
const hub = new Worker(HUB, { eval: true });
const ask = () => new Promise((resolve) => hub.once('message', resolve));
const { port } = await ask();

const work = async () => 1;
const noop = () => undefined;
const options = { timeout: false, errorThresholdPercentage: 50, resetTimeout: 3_600_000 };
const cockatielSettings = { type: 'consecutive', halfOpenAfter: 3_600_000, threshold: 5 };
const cbhSettings = { type: 'simple', failureThreshold: 5, timeout: 30_000, recoveryTime: 60_000, successThreshold: 1 };

const bare = new CircuitBreaker(work, options);
const bareOpen = new CircuitBreaker(work, options);
bareOpen.open();
const bareCockatiel = circuitBreaker(handleAll, { halfOpenAfter: 3_600_000, breaker: new ConsecutiveBreaker(5) });
const bareCbh = new CbhBreaker(cbhSettings);

// the agent that takes faults, none running
const agent = current.createAgent({ service: 'bench', instance: 'current', allowFaults: true });
const watched = new CircuitBreaker(work, options);
const watchedOpen = new CircuitBreaker(work, options);
const faulted = new CircuitBreaker(work, options);
agent.register(new current.OpossumAdapter(watched, 'closed'));
const forced = new current.OpossumAdapter(watchedOpen, 'open');
agent.register(forced);
forced.forceOpen();
agent.register(new current.OpossumAdapter(faulted, 'faulted'));
const cockatiel = new current.CockatielAdapter('cockatiel', cockatielSettings);
agent.register(cockatiel);
const cbh = new current.CbhAdapter('cbh', cbhSettings);
agent.register(cbh);

/** Calls made through a fault before it ended (rate 0: each is looked at and let through), so that V8 has seen both paths. */
const FAULTED_CALLS = 10_000;
const until = new Date(Date.now() + 3_600_000).toISOString();
agent.applyFaults([{ id: 'bench-0', breaker: 'faulted', kind: 'error', rate: 0, until }]);
for (let i = 0; i < FAULTED_CALLS; i++) await faulted.fire();
agent.applyFaults([]);

// the same agent without fault support
const beforeAgent = before.createAgent({ service: 'bench', instance: 'before' });
const beforeWatched = new CircuitBreaker(work, options);
beforeAgent.register(new before.OpossumAdapter(beforeWatched, 'closed'));
const beforeCockatiel = new before.CockatielAdapter('cockatiel', cockatielSettings);
beforeAgent.register(beforeCockatiel);
const beforeCbh = new before.CbhAdapter('cbh', cbhSettings);
beforeAgent.register(beforeCbh);

const hubUrl = `http://127.0.0.1:${port}`;
const logger = { info: noop, warn: console.warn };
// both over HTTP, the only way the agent before the stream knew: the comparison is of the call path, not the transport
const connections = [
  current.connectToHub(agent, { hubUrl, token: 'bench', logger, transport: 'http' }),
  before.connectToHub(beforeAgent, { hubUrl, token: 'bench', logger }),
];

/** Lets timers and sockets run, as a service's event loop does between calls: else the agents would never report. */
const turn = () => new Promise(setImmediate);

/**
 * Nanoseconds per call of each candidate in each round, after a warm-up round; every round runs every candidate in
 * turn, as bench/breaker-overhead.mjs does, so that none is measured alone while V8 sees one function, and every other
 * round in the reverse order, so that no candidate always follows the same one (and the garbage it left). The agents'
 * reports are made during the rounds, so their cost falls on whichever candidate is running. With `--clock cpu`, the
 * process's CPU time is counted instead of the time that passed: on a machine busy with other work, time off the CPU
 * would otherwise be counted as the calls' cost.
 */
async function measureAll(candidates) {
  const elapsed =
    CLOCK === 'cpu' ? () => BigInt(Object.values(process.cpuUsage()).reduce((a, b) => a + b, 0)) * 1000n : () => process.hrtime.bigint();
  const samples = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]));
  for (let round = 0; round <= ROUNDS; round++) {
    const order = Object.entries(candidates);
    if (round % 2 === 1) order.reverse();
    for (const [name, call] of order) {
      const started = elapsed();
      for (let i = 0; i < CALLS; i++) {
        await call();
        if (i % 1000 === 999) await turn();
      }
      if (round > 0) samples[name].push(Number(elapsed() - started) / CALLS);
    }
  }
  return samples;
}

const started = Date.now();
const samples = await measureAll({
  'opossum closed': () => bare.fire(),
  'opossum + agent closed': () => watched.fire(),
  'opossum + agent before faults': () => beforeWatched.fire(),
  'opossum + agent after a fault': () => faulted.fire(),
  'opossum open': () => bareOpen.fire().catch(noop),
  'opossum + agent open': () => watchedOpen.fire().catch(noop),
  cockatiel: () => bareCockatiel.execute(work),
  'cockatiel + agent': () => cockatiel.execute(work),
  'cockatiel + agent before faults': () => beforeCockatiel.execute(work),
  cbh: () => bareCbh.execute(work),
  'cbh + agent': () => cbh.execute(work),
  'cbh + agent before faults': () => beforeCbh.execute(work),
});
const results = Object.fromEntries(Object.entries(samples).map(([name, ns]) => [name, median(ns)]));
/** The median of the rounds' ratios: each round's pair measured close together, under the same load. */
const ratiosOf = (measured, baseline) => samples[measured].map((ns, round) => ns / samples[baseline][round]).sort((a, b) => a - b);
const ratioOf = (measured, baseline) => median(ratiosOf(measured, baseline));
/** The middle half of the rounds' ratios, to tell a difference from the noise of the machine. */
const spreadOf = (measured, baseline) => {
  const ratios = ratiosOf(measured, baseline);
  const at = (q) => ratios[Math.min(ratios.length - 1, Math.floor(q * ratios.length))].toFixed(3);
  return `${at(0.25)}–${at(0.75)}`;
};
for (const connection of connections) await connection.stop();
hub.postMessage('figures');
const received = await ask();
await hub.terminate();
for (const circuit of [bare, bareOpen, watched, watchedOpen, faulted, beforeWatched]) circuit.shutdown();

const made = (ROUNDS + 1) * CALLS;
console.log(
  `${CALLS} calls × ${ROUNDS} rounds, median ${CLOCK} ns per call, ratios the median of the rounds' (node ${process.version}; ` +
    `baseline without faults: ${baselineRev})`,
);
for (const [name, ns] of Object.entries(results)) console.log(`  ${name.padEnd(32)} ${ns.toFixed(0).padStart(7)} ns`);
console.log(`the hub had ${received.reports} reports in ${((Date.now() - started) / 1000).toFixed(1)} s`);
for (const mode of ['closed', 'open']) {
  const ratio = ratioOf(`opossum + agent ${mode}`, `opossum ${mode}`);
  console.log(`${mode}: opossum + agent / opossum ${ratio.toFixed(3)}× (goal ≤ ${GOAL}×) ${ratio <= GOAL ? 'OK' : 'MISSED'}`);
  benchLine(`agent call overhead ${mode}: opossum + agent / opossum`, `${ratio.toFixed(3)}×`, `≤ ${GOAL}×`, ratio <= GOAL);
}
const slots = [
  ['opossum', 'opossum + agent closed', 'opossum + agent before faults', 'opossum closed'],
  ['opossum, a fault come and gone', 'opossum + agent after a fault', 'opossum + agent closed', 'opossum closed'],
  ['cockatiel', 'cockatiel + agent', 'cockatiel + agent before faults', 'cockatiel'],
  ['cbh', 'cbh + agent', 'cbh + agent before faults', 'cbh'],
];
for (const [what, measured, baseline, bareName] of slots) {
  const ratio = ratioOf(measured, baseline);
  const ok = ratio <= FAULT_SLOT_GOAL;
  console.log(
    `no fault active, ${what}: ${measured} / ${baseline} ${ratio.toFixed(3)}× (middle half of the rounds ${spreadOf(measured, baseline)}; ` +
      `goal ≤ ${FAULT_SLOT_GOAL}×) ${ok ? 'OK' : 'MISSED'}; ` +
      `/ ${bareName} ${ratioOf(measured, bareName).toFixed(3)}×`,
  );
  benchLine(`agent fault slot, no fault active (${what}): ${measured} / ${baseline}`, `${ratio.toFixed(3)}×`, `≤ ${FAULT_SLOT_GOAL}×`, ok);
}

// every call of the measured breakers reached the hub (the faulted one's calls through its fault too)
const expected = {
  'current/closed': [made, 0],
  'current/open': [0, made],
  'current/faulted': [made + FAULTED_CALLS, 0],
  'current/cockatiel': [made, 0],
  'current/cbh': [made, 0],
  'before/closed': [made, 0],
  'before/cockatiel': [made, 0],
  'before/cbh': [made, 0],
};
const missed = Object.entries(expected).filter(
  ([key, [successes, rejections]]) => received.calls[key]?.successes !== successes || received.calls[key]?.rejections !== rejections,
);
if (missed.length > 0) {
  benchLine('agent reports: every call counted', `missed for ${missed.map(([key]) => key).join(', ')}`, 'all', false);
}
