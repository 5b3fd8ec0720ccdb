// What an authenticated read costs the API as a function of how often reads come: GET /api/auth/user with a service
// account's token, spread evenly over each second at each of --rates (100, 200, 400, 800, 1,600 a second), --seconds
// (10) each, on one replica after --warm-up (60) seconds of them at 200 a second (a replica's per-request CPU keeps
// falling for its first minute: see bench/fleet-ingest.mjs). Printed per rate: the API's CPU per request, and above
// the replica's idle work (measured first for 10 s). A process woken for each request pays the wake-up each time; at
// higher rates requests share the turns of the event loop, so the cost a request falls. Per-unit costs of the
// capacity model measured at low rates (the fleet's reports and their GET baseline at 100 a second per replica) are
// the expensive end of this curve.
// Usage: npm run build && node bench/request-rate.mjs [--rates 100,200,400,800,1600] [--seconds 10] [--warm-up 60]
//   (npm run bench:rate)
import { cpuSeconds, freePort, spread, startBenchApi } from './api-process.mjs';
import { benchLine, numberArg } from './report.mjs';

const RATES = process.argv.includes('--rates')
  ? process.argv[process.argv.indexOf('--rates') + 1].split(',').map(Number)
  : [100, 200, 400, 800, 1600];
const SECONDS = numberArg('seconds', 10);
const WARM_UP_S = numberArg('warm-up', 60);
const IDLE_S = 10;

const api = await startBenchApi({
  port: await freePort(),
  // its own database: another benchmark's may be running on the default port
  env: { EMBEDDED_PG_PORT: String(await freePort()), TOKEN_RATE_LIMIT: '1000000' },
});
try {
  const call = async (path, body) => {
    const response = await fetch(`${api.url}${path}`, {
      method: 'POST',
      headers: { cookie: api.cookie, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const account = await call('/api/service-accounts', { name: 'bench-rate' });
  const { token } = await call(`/api/service-accounts/${account.id}/tokens`, { name: 'bench', expiresInDays: 1 });
  const headers = { authorization: `Bearer ${token}` };
  const get = () => fetch(`${api.url}/api/auth/user`, { headers });
  const pid = api.process.pid;

  let cpu = cpuSeconds(pid);
  await new Promise((resolve) => setTimeout(resolve, IDLE_S * 1000));
  const idlePerS = (cpuSeconds(pid) - cpu) / IDLE_S;
  console.log(`replica idle: ${(idlePerS * 1000).toFixed(0)} ms of CPU a second`);
  await spread(200, 1, WARM_UP_S, get);

  const costs = [];
  for (const rate of RATES) {
    cpu = cpuSeconds(pid);
    const from = performance.now();
    const { ok, refused, failed } = await spread(rate, 1, SECONDS, get);
    const used = cpuSeconds(pid) - cpu;
    const aboveIdle = ((used - (idlePerS * (performance.now() - from)) / 1000) * 1000) / Math.max(1, ok);
    costs.push(aboveIdle);
    console.log(
      `${rate}/s: ${((used * 1000) / Math.max(1, ok)).toFixed(3)} ms of CPU per GET, ${aboveIdle.toFixed(3)} ms above idle (${ok} ok, ${refused} refused, ${failed} failed)`,
    );
    benchLine(`API CPU per authenticated GET above idle, ${rate} a second`, `${aboveIdle.toFixed(3)} ms`, '—', null);
  }
  console.log(`from ${RATES[0]} to ${RATES.at(-1)} a second, a GET costs ${(costs[0] / costs.at(-1)).toFixed(1)}× less at the higher rate`);
} finally {
  await api.stop();
}
