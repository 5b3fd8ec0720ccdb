// Per-call overhead of @cbh/breaker against opossum, cockatiel and a bare awaited call, closed (pass-through)
// and open (rejected fast). Goals: ≤ 0.25× opossum, ≤ 0.75× cockatiel, ≤ 2× bare.
// Usage: node bench/breaker-overhead.mjs [--calls 200000] [--rounds 7]
import { circuitBreaker, ConsecutiveBreaker, handleAll } from 'cockatiel';
import CircuitBreakerOpossum from 'opossum';
import { loadLib } from './load-lib.mjs';
import { benchLine, median, numberArg } from './report.mjs';

const CALLS = numberArg('calls', 200_000);
const ROUNDS = numberArg('rounds', 7);
const { CircuitBreaker } = loadLib('breaker');

const work = async () => 1;
const noop = () => undefined;
/** Made once, as the breaker makes its rejection once: what is measured is the rejected promise, not new Error(). */
const failure = new Error('refused');

/**
 * Median nanoseconds per call of each candidate over several rounds, after a warm-up round. Every round runs every
 * candidate in turn: measured one after the other, the first would run while the loop's call site still sees one
 * function (V8 inlines it) and the last after it has seen them all, and that alone moved a ratio from 1.5× to 2.8×.
 */
async function measureAll(candidates) {
  const samples = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]));
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [name, call] of Object.entries(candidates)) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < CALLS; i++) await call();
      if (round > 0) samples[name].push(Number(process.hrtime.bigint() - started) / CALLS);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, ns]) => [name, median(ns)]));
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

const results = await measureAll({
  bare: () => work(),
  // An open breaker answers with a rejection: its floor is a bare call that rejects, which costs several times a
  // resolved one (Node tracks every rejection until a handler is attached).
  'bare rejected': () => Promise.reject(failure).catch(noop),
  // The load engine's way (admit, await the call, record) without the breaker: the same async function and await.
  'bare awaited': async () => noop(await work()),
  'ours closed': () => oursClosed.execute(work),
  'opossum closed': () => opossumClosed.fire(),
  'cockatiel closed': () => cockatielClosed.execute(work),
  'ours open': () => oursOpen.execute(work).catch(noop),
  // The same decision without an exception: how the load engine calls it.
  'ours open admit': async () => (oursOpen.admit() === 'permitted' ? work() : undefined),
  'ours closed admit': async () => {
    if (oursClosed.admit() === 'permitted') oursClosed.record(true, await work());
  },
  'opossum open': () => opossumOpen.fire().catch(noop),
  'cockatiel open': () => cockatielOpen.execute(work).catch(noop),
});
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
  if (mode === 'closed') compare(`closed: ours / bare (execute)`, 'ours closed', 'bare', 2);
  else compare(`open: ours / a bare rejected call (execute)`, 'ours open', 'bare rejected', 2);
  if (mode === 'closed') compare('closed: ours / the same awaited call bare (admit + record)', 'ours closed admit', 'bare awaited', 2);
  else compare('open: ours / bare (admit, no exception)', 'ours open admit', 'bare', 2);
}
