// Simulated breaker calls per second on one core with every call counted in the rolling metrics, as the load
// tests run them (goal ≥ 100,000/s), beside the same loop without metrics as the baseline of the same run.
// Usage: node bench/load-engine.mjs [--seconds 3]
import { loadLib } from './load-lib.mjs';
import { benchLine, numberArg } from './report.mjs';

const SECONDS = numberArg('seconds', 3);
const { CircuitBreaker, RollingMetrics, runCalls } = loadLib('breaker');

function callsPerSecond(failureRate, withMetrics) {
  const breaker = new CircuitBreaker({ type: 'simple', failureThreshold: 5, timeout: 200, recoveryTime: 60_000, successThreshold: 3 });
  const metrics = new RollingMetrics();
  const record = withMetrics ? (outcome, latency) => metrics.record(outcome, latency, Date.now()) : () => undefined;
  const downstream = { failureRate, meanLatencyMs: 80 };
  runCalls(breaker, 50_000, downstream, record); // warm-up
  let calls = 0;
  const started = performance.now();
  while (performance.now() - started < SECONDS * 1000) {
    runCalls(breaker, 10_000, downstream, record);
    calls += 10_000;
  }
  return { rate: calls / ((performance.now() - started) / 1000), totals: metrics.totals(Date.now()) };
}

console.log(`${SECONDS} s per case, one core (node ${process.version})`);
for (const failureRate of [0, 15, 100]) {
  const bare = callsPerSecond(failureRate, false);
  const counted = callsPerSecond(failureRate, true);
  const c = counted.totals.counts;
  console.log(
    `failure rate ${String(failureRate).padStart(3)} %: ${Math.round(counted.rate).toLocaleString('en')} calls/s counted ` +
      `(${(counted.rate / bare.rate).toFixed(2)}× of ${Math.round(bare.rate).toLocaleString('en')} uncounted) ` +
      `${counted.rate >= 100_000 ? 'OK' : 'MISSED'} (goal ≥ 100,000/s) — last 10 s: ${c.success} ok, ${c.failure} failed, ${c['short-circuited']} short-circuited`,
  );
  benchLine(
    `load engine at ${failureRate} % failures`,
    `${Math.round(counted.rate).toLocaleString('en')} calls/s`,
    '≥ 100,000/s',
    counted.rate >= 100_000,
  );
}
