// What an authenticated read costs the API as a function of how often reads come: GET /api/auth/user with a service
// account's token, spread evenly over each second at each of --rates (100, 200, 400, 800, 1,600 a second), --seconds
// (10) each, twice (rising, then falling), on one replica after --warm-up (60) seconds of them at 200 a second (a
// replica's per-request CPU keeps falling for its first minute: see bench/fleet-ingest.mjs). Printed per rate: the
// API process's CPU per request (not PostgreSQL's), and above the replica's idle work (measured for 20 s after the
// warm-up and again after the rates). What a replica does once per turn of its event loop (being woken) or once a
// second is shared by more requests as they come closer together, so the cost a request falls; this bench does not
// tell the two apart. The capacity model's per-unit costs, measured at 100–200 units a second per replica (the
// fleet's reports and their GET baseline among them), are the expensive end of this curve.
// Usage: npm run build && node bench/request-rate.mjs [--rates 100,200,400,800,1600] [--seconds 10] [--warm-up 60]
//   (npm run bench:rate)
import path from 'node:path';
import { ROOT } from '../scripts/run.mjs';
import { cpuSeconds, freePort, serviceAccountToken, spread, startBenchApi } from './api-process.mjs';
import { benchLine, numberArg, numbersArg } from './report.mjs';

const RATES = numbersArg('rates', [100, 200, 400, 800, 1600]);
const SECONDS = numberArg('seconds', 10);
const WARM_UP_S = numberArg('warm-up', 60);
const IDLE_S = 20;

const api = await startBenchApi({
  port: await freePort(),
  // its own database, folder and port: another benchmark's may be running
  dataDir: path.join(ROOT, '.data/bench-rate'),
  env: { EMBEDDED_PG_PORT: String(await freePort()), TOKEN_RATE_LIMIT: '1000000' },
});
try {
  const token = await serviceAccountToken(api, 'bench-rate');
  const headers = { authorization: `Bearer ${token}` };
  const get = () => fetch(`${api.url}/api/auth/user`, { headers });
  const pid = api.process.pid;

  /** The replica's CPU a second with nothing asked of it (ms), over IDLE_S. */
  const idleNow = async () => {
    const before = cpuSeconds(pid);
    await new Promise((resolve) => setTimeout(resolve, IDLE_S * 1000));
    return ((cpuSeconds(pid) - before) * 1000) / IDLE_S;
  };
  await spread(200, 1, WARM_UP_S, get);
  // idle measured after the warm-up, and again after the rates: its error counts δ/rate a request, most at low rates
  const idleBefore = await idleNow();

  // each rate twice, rising then falling, so that time since the start is not read as the rate
  const runs = new Map(RATES.map((rate) => [rate, []]));
  for (const rate of [...RATES, ...[...RATES].reverse()]) {
    const cpu = cpuSeconds(pid);
    const from = performance.now();
    const { ok, refused, failed } = await spread(rate, 1, SECONDS, get);
    runs.get(rate).push({ cpuMs: (cpuSeconds(pid) - cpu) * 1000, seconds: (performance.now() - from) / 1000, ok, refused, failed });
  }
  const idleAfter = await idleNow();
  const idleMsPerS = (idleBefore + idleAfter) / 2;
  console.log(`replica idle: ${idleBefore.toFixed(0)} ms of CPU a second before the rates, ${idleAfter.toFixed(0)} after`);

  const costs = RATES.map((rate) => {
    const passes = runs.get(rate);
    const ok = passes.reduce((sum, pass) => sum + pass.ok, 0);
    const cpuMs = passes.reduce((sum, pass) => sum + pass.cpuMs, 0);
    const idleMs = passes.reduce((sum, pass) => sum + idleMsPerS * pass.seconds, 0);
    const perGet = cpuMs / Math.max(1, ok);
    const aboveIdle = (cpuMs - idleMs) / Math.max(1, ok);
    const eachPass = passes.map((pass) => ((pass.cpuMs - idleMsPerS * pass.seconds) / Math.max(1, pass.ok)).toFixed(3)).join(' and ');
    const notOk = passes.reduce((sum, pass) => sum + pass.refused + pass.failed, 0);
    console.log(
      `${rate}/s: ${perGet.toFixed(3)} ms of CPU per GET, ${aboveIdle.toFixed(3)} ms above idle (rising and falling: ${eachPass}; ${ok} ok, ${notOk} refused or failed)`,
    );
    benchLine(`API CPU per authenticated GET above idle, ${rate} a second`, `${aboveIdle.toFixed(3)} ms`, '—', null);
    return aboveIdle;
  });
  console.log(`from ${RATES[0]} to ${RATES.at(-1)} a second, a GET costs ${(costs[0] / costs.at(-1)).toFixed(1)}× less at the higher rate`);
} finally {
  await api.stop();
}
