// Authenticated GET /api/auth/user and GET /api/metrics/latest throughput of the production API, each as a ratio
// to a bare node:http server answering the same JSON, measured here with autocannon: --runs rounds (default 3),
// each a bare run then an API run with the session cookie and one with a personal access token
// (Authorization: Bearer), and the median of the rounds (goals: ≥ 0.7 with the session, ≥ 0.65 with the token, the
// API's p99 ≤ 10 ms at 50 connections). Each round also measures the framework's floor: a bare Nest application on
// Fastify in a process of its own (bench/nest-floor.mjs) answering the same JSON, printed as a ratio beside the goals
// (what the API's own per-request work costs is the distance between it and the API). The p99s of both floors are
// printed beside the API's: at 50 connections that never pause, a request's latency is mostly its wait in the queue
// (the mean is 50 / throughput), so the p99 in milliseconds follows the machine, and the floors say what it allows.
// --profile also writes the API's CPU profile (node --cpu-prof) and prints its top frames.
// Usage: npm run build && node bench/api-throughput.mjs [--seconds 10] [--connections 50] [--runs 3] [--profile]
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import autocannon from 'autocannon';
import { adminCall, startBenchApi } from './api-process.mjs';
import { apiProfiling } from './cpu-profile.mjs';
import { benchLine, median, numberArg } from './report.mjs';

const SECONDS = numberArg('seconds', 10);
const CONNECTIONS = numberArg('connections', 50);
const RUNS = numberArg('runs', 3);
const profiling = apiProfiling();
/** Throughput against the bare server's, by way in: a token costs a hash and a cache look-up more than a session. */
const RATIO_GOALS = { session: 0.7, token: 0.65 };
const P99_GOAL_MS = 10;

const run = (url, headers = {}) =>
  new Promise((resolve, reject) =>
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers }, (error, result) => (error ? reject(error) : resolve(result))),
  );
const line = (name, r) =>
  `${name.padEnd(40)} ${r.requests.average.toFixed(0).padStart(8)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms   non-2xx ${r.non2xx}   errors ${r.errors}`;

// the token's per-minute limit is raised past what a 10-second run at full speed sends, so every request counts
const api = await startBenchApi({ nodeArgs: profiling.nodeArgs, env: { TOKEN_RATE_LIMIT: '1000000' } });
try {
  const { token } = await adminCall(api, 'POST', '/api/tokens', { name: 'bench', expiresInDays: 1 }, 201);
  const bearer = { authorization: `Bearer ${token}` };
  const ways = [
    { name: 'session', headers: { cookie: api.cookie } },
    { name: 'token', headers: bearer },
  ];
  console.log(`autocannon: ${CONNECTIONS} connections, ${SECONDS} s each, ${RUNS} rounds of bare then API, one after the other`);
  for (const urlPath of ['/api/auth/user', '/api/metrics/latest']) {
    const body = await (await fetch(`${api.url}${urlPath}`, { headers: { cookie: api.cookie } })).text();
    const bare = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(body);
    });
    await new Promise((resolve) => bare.listen(3391, '127.0.0.1', resolve));
    const floor = fork(new URL('./nest-floor.mjs', import.meta.url));
    floor.send({ path: urlPath, body, port: 3392 });
    await new Promise((resolve) => floor.once('message', resolve));
    const ratios = { session: [], token: [], floor: [] };
    const p99s = { session: [], token: [], bare: [], floor: [] };
    for (let round = 1; round <= RUNS; round++) {
      const bareResult = await run(`http://127.0.0.1:3391${urlPath}`);
      console.log(line(`round ${round}: bare node:http, ${body.length}-byte JSON`, bareResult));
      const floorResult = await run(`http://127.0.0.1:3392${urlPath}`);
      console.log(line(`round ${round}: bare Nest on Fastify`, floorResult));
      ratios.floor.push(floorResult.requests.average / bareResult.requests.average);
      p99s.bare.push(bareResult.latency.p99);
      p99s.floor.push(floorResult.latency.p99);
      for (const way of ways) {
        const apiResult = await run(`${api.url}${urlPath}`, way.headers);
        if (apiResult.non2xx || apiResult.errors)
          throw new Error(`${urlPath} (${way.name}): ${apiResult.non2xx} non-2xx, ${apiResult.errors} errors`);
        console.log(line(`round ${round}: API GET ${urlPath}, ${way.name}`, apiResult));
        ratios[way.name].push(apiResult.requests.average / bareResult.requests.average);
        p99s[way.name].push(apiResult.latency.p99);
      }
    }
    bare.close();
    floor.kill();
    const floorRatio = median(ratios.floor);
    console.log(
      `${urlPath}: bare Nest on Fastify / bare ${ratios.floor.map((r) => r.toFixed(3)).join(', ')} → median ${floorRatio.toFixed(3)}`,
    );
    benchLine(`Bare Nest on Fastify ${urlPath} / bare node:http (the framework's floor)`, floorRatio.toFixed(3), '—', null);
    benchLine(
      `p99 of bare node:http / bare Nest on Fastify ${urlPath}, ${CONNECTIONS} connections (the floors)`,
      `${median(p99s.bare)} ms / ${median(p99s.floor)} ms`,
      '—',
      null,
    );
    for (const way of ways) {
      const ratio = median(ratios[way.name]);
      const p99 = median(p99s[way.name]);
      const goal = RATIO_GOALS[way.name];
      console.log(
        `${urlPath} (${way.name}): ratio API / bare ${ratios[way.name].map((r) => r.toFixed(3)).join(', ')} → median ${ratio.toFixed(3)} (goal ≥ ${goal}); API p99 median ${p99} ms (goal ≤ ${P99_GOAL_MS} ms)`,
      );
      // the session lines keep their names, so earlier reports compare with these
      const by = way.name === 'session' ? '' : ', bearer token';
      benchLine(`API throughput ${urlPath}${by} / bare node:http`, ratio.toFixed(3), `≥ ${goal}`, ratio >= goal);
      benchLine(`API p99 ${urlPath}${by}, ${CONNECTIONS} connections`, `${p99} ms`, `≤ ${P99_GOAL_MS} ms`, p99 <= P99_GOAL_MS);
    }
    console.log('');
  }
} finally {
  await api.stop();
}
profiling.report();
