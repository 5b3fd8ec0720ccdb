// Per-call overhead of @cbh/breaker against opossum, cockatiel and a bare awaited call, closed (pass-through)
// and open (rejected fast). Goals: ≤ 0.25× opossum, ≤ 0.75× cockatiel, ≤ 2× bare.
// Usage: node bench/breaker-overhead.mjs [--calls 200000] [--rounds 7]
import { circuitBreaker, ConsecutiveBreaker, handleAll } from 'cockatiel';
import CircuitBreakerOpossum from 'opossum';
import { loadLib } from './load-lib.mjs';
import { benchLine, numberArg } from './report.mjs';

const CALLS = numberArg('calls', 200_000);
const ROUNDS = numberArg('rounds', 7);
const { CircuitBreaker } = loadLib('breaker');

const work = async () => 1;
const noop = () => undefined;

/** Median nanoseconds per call over several rounds, after a warm-up round. */
async function measure(call) {
  const samples = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) await call();
    const ns = Number(process.hrtime.bigint() - started) / CALLS;
    if (round > 0) samples.push(ns);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
}

const settings = { type: 'simple', failureThreshold: 5, timeout: 3_600_000, recoveryTime: 60_000, successThreshold: 3 };
const oursClosed = new CircuitBreaker(settings);
const oursOpen = new CircuitBreaker(settings);
oursOpen.forceOpen();

const opossumOptions = { timeout: false, errorThresholdPercentage: 50, resetTimeout: 3_600_000 };
const opossumClosed = new CircuitBreakerOpossum(work, opossumOptions);
const opossumOpen = new CircuitBreakerOpossum(work, opossumOptions);
opossumOpen.open();

const cockatielClosed = circuitBreaker(handleAll, { halfOpenAfter: 3_600_000, breaker: new ConsecutiveBreaker(5) });
const cockatielOpen = circuitBreaker(handleAll, { halfOpenAfter: 3_600_000, breaker: new ConsecutiveBreaker(1) });
await cockatielOpen.execute(() => Promise.reject(new Error('trip'))).catch(noop);

const results = {
  bare: await measure(() => work()),
  'ours closed': await measure(() => oursClosed.execute(work)),
  'opossum closed': await measure(() => opossumClosed.fire()),
  'cockatiel closed': await measure(() => cockatielClosed.execute(work)),
  'ours open': await measure(() => oursOpen.execute(work).catch(noop)),
  // The same decision without an exception: how the load engine calls it.
  'ours open admit': await measure(async () => (oursOpen.admit() === 'permitted' ? work() : undefined)),
  'ours closed admit': await measure(async () => {
    if (oursClosed.admit() === 'permitted') oursClosed.record(true, await work());
  }),
  'opossum open': await measure(() => opossumOpen.fire().catch(noop)),
  'cockatiel open': await measure(() => cockatielOpen.execute(work).catch(noop)),
};
opossumClosed.shutdown();
opossumOpen.shutdown();

console.log(`${CALLS} calls × ${ROUNDS} rounds, median ns per call (node ${process.version})`);
for (const [name, ns] of Object.entries(results)) console.log(`  ${name.padEnd(17)} ${ns.toFixed(0).padStart(7)} ns`);
/** Prints one comparison, and its BENCH line for npm run bench. */
function compare(label, a, b, goal) {
  const value = results[a] / results[b];
  console.log(`${label} ${value.toFixed(3)}× (goal ≤ ${goal}×) ${value <= goal ? 'OK' : 'MISSED'}`);
  benchLine(`breaker call overhead ${label}`, `${value.toFixed(3)}×`, `≤ ${goal}×`, value <= goal);
}
for (const mode of ['closed', 'open']) {
  compare(`${mode}: ours / opossum`, `ours ${mode}`, `opossum ${mode}`, 0.25);
  compare(`${mode}: ours / cockatiel`, `ours ${mode}`, `cockatiel ${mode}`, 0.75);
  compare(`${mode}: ours / bare (execute, a rejection is a rejected promise)`, `ours ${mode}`, 'bare', 2);
  compare(`${mode}: ours / bare (admit + record, no exception)`, `ours ${mode} admit`, 'bare', 2);
}
