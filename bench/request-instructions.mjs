// Instructions per authenticated read, counted by valgrind's callgrind: the API's GET /api/auth/user and
// GET /api/metrics/latest (session and token), a bare Nest application on Fastify and a bare node:http server answering
// the same JSON, each under callgrind. Within a run the rounds agree far closer than CPU seconds do, so a piece of a
// few µs a request shows (a few thousand instructions); between runs of one build the medians move more (up to a fifth
// for the API: when V8 optimises and when a major collection falls differ per process), so compare builds over
// several runs of each.
// Each server answers one request at a time over one kept-alive connection: --warm requests first, then --rounds
// rounds of --requests, counted on its main thread only (V8's compiler and GC helpers run beside it on threads of
// their own, whenever they like). The API's work on timers (its jobs) runs on that thread too: a round of the same
// length without requests is counted and taken off. Medians of the rounds; nothing here is a goal.
// One request at a time is not the load of bench:api: what the API batches per turn of the event loop (the access
// log's write, the figures' body) is paid by every request here. Spread: the floors' rounds within 2–4 %, the API's
// within 5–10 % (its jobs' database work falls unevenly into the rounds), so compare medians of two runs of each.
// Slow (each server runs about 50× slower under callgrind): 5–25 minutes a path with the defaults.
// Usage: npm run build && npm run bench:instructions -- [--requests 2000] [--rounds 5] [--warm 5000] [--path /api/auth/user]
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ROOT } from '../scripts/run.mjs';
import { adminCall, freePort, startBenchApi } from './api-process.mjs';
import { benchLine, median, numberArg } from './report.mjs';

const REQUESTS = numberArg('requests', 2000);
const ROUNDS = numberArg('rounds', 5);
const WARM = numberArg('warm', 5000);
const pathAt = process.argv.indexOf('--path');
const PATHS = pathAt > 0 ? [process.argv[pathAt + 1]] : ['/api/auth/user', '/api/metrics/latest'];
const OUT = path.join(ROOT, '.data/bench-instructions');
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

/** valgrind's callgrind, counting nothing until asked, a file per thread and per dump: `name`.<pid>.<dump>-<thread>. */
const callgrind = (name) => [
  'valgrind',
  '--tool=callgrind',
  '--instr-atstart=no',
  '--separate-threads=yes',
  `--callgrind-out-file=${OUT}/${name}.%p`,
];

function control(pid, ...args) {
  return new Promise((resolve, reject) => {
    const child = spawn('callgrind_control', [...args, String(pid)], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`callgrind_control ${args.join(' ')}: exit ${code}`))));
  });
}

/** The instructions of the process's main thread in its newest dump (thread 01 is the one that runs JavaScript). */
function newestMainThreadCount(name, pid) {
  const files = readdirSync(OUT)
    .filter((file) => file.startsWith(`${name}.${pid}.`) && file.endsWith('-01'))
    .map((file) => ({ file, at: statSync(path.join(OUT, file)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  const summary = /^summary: (\d+)$/m.exec(readFileSync(path.join(OUT, files[0].file), 'utf8'));
  return Number(summary[1]);
}

/**
 * `count` GETs of `url`, one at a time over the agent's one kept-alive connection; every answer must be 200. The warm-up
 * and the rounds share that connection: a new one makes every later request dearer for a thousand or more requests
 * (84,000 instructions a request in the first 1,000 on bare node:http, 31,000 in the next), as V8 meets new shapes.
 */
async function getMany(agent, url, count, headers) {
  for (let i = 0; i < count; i++) {
    const status = await new Promise((resolve, reject) => {
      http
        .get(url, { agent, headers }, (response) => {
          response.resume();
          response.once('end', () => resolve(response.statusCode));
        })
        .once('error', reject);
    });
    if (status !== 200) throw new Error(`GET ${url}: ${status}`);
  }
}

/** Instructions on the main thread while `work` runs, and how long it ran (ms). */
async function counted(name, pid, work) {
  await control(pid, '-z');
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  await control(pid, '-d');
  return { instructions: newestMainThreadCount(name, pid), ms };
}

/**
 * Instructions per request of `url` on the server `pid`: `--rounds` rounds of `--requests`, less what the server did
 * on its own in as long (a round without requests), when `idle` is asked for.
 */
async function perRequest(name, pid, url, headers, { idle }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  await control(pid, '-i', 'on');
  await getMany(agent, url, WARM, headers);
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) rounds.push(await counted(name, pid, () => getMany(agent, url, REQUESTS, headers)));
  agent.destroy();
  const ms = median(rounds.map((round) => round.ms));
  const quiet = idle ? await counted(name, pid, () => new Promise((resolve) => setTimeout(resolve, ms))) : { instructions: 0, ms };
  await control(pid, '-i', 'off');
  const own = quiet.instructions / quiet.ms;
  const each = rounds.map((round) => (round.instructions - own * round.ms) / REQUESTS);
  console.log(
    `${name} ${url.replace(/^http:\/\/[^/]+/, '')}: ${each.map((n) => Math.round(n).toLocaleString('en')).join(', ')} instructions a request` +
      (idle ? ` (less ${Math.round((own * ms) / REQUESTS).toLocaleString('en')} of its own work on timers)` : ''),
  );
  return median(each);
}

/** A floor server (bench/node-floor.mjs or bench/nest-floor.mjs) under callgrind, answering `body` at `urlPath`. */
async function startFloor(kind, urlPath, body) {
  const port = await freePort();
  const script = path.join(ROOT, `bench/${kind}-floor.mjs`);
  const [valgrind, ...valgrindArgs] = callgrind(kind);
  const child = spawn(valgrind, [...valgrindArgs, process.execPath, script], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  child.send({ path: urlPath, body, port });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the ${kind} floor exited with code ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}${urlPath}`, pid: child.pid, stop: () => child.kill() };
}

console.log(`callgrind: ${WARM} requests to warm, then ${ROUNDS} rounds of ${REQUESTS}, one at a time, on each server`);
const api = await startBenchApi({
  port: await freePort(),
  env: { EMBEDDED_PG_PORT: String(await freePort()), TOKEN_RATE_LIMIT: '1000000' },
  dataDir: path.join(ROOT, '.data/bench-instructions-api'),
  launcher: callgrind('api'),
  startWithinS: 600,
});
try {
  const { token } = await adminCall(api, 'POST', '/api/tokens', { name: 'bench', expiresInDays: 1 }, 201);
  for (const urlPath of PATHS) {
    const body = await (await fetch(`${api.url}${urlPath}`, { headers: { cookie: api.cookie } })).text();
    const counts = {};
    for (const kind of ['node', 'nest']) {
      const floor = await startFloor(kind, urlPath, body);
      try {
        counts[kind] = await perRequest(kind, floor.pid, floor.url, {}, { idle: false });
      } finally {
        floor.stop();
      }
    }
    counts.session = await perRequest('api', api.process.pid, `${api.url}${urlPath}`, { cookie: api.cookie }, { idle: true });
    counts.token = await perRequest('api', api.process.pid, `${api.url}${urlPath}`, { authorization: `Bearer ${token}` }, { idle: true });
    const k = (n) => `${(n / 1000).toFixed(1)} k`;
    benchLine(`Instructions a request, bare node:http ${urlPath}`, k(counts.node), '—', null);
    benchLine(`Instructions a request, bare Nest on Fastify ${urlPath}`, k(counts.nest), '—', null);
    for (const way of ['session', 'token']) {
      benchLine(
        `Instructions a request, API ${urlPath} (${way})`,
        `${k(counts[way])} (${(counts[way] / counts.node).toFixed(2)}× bare node:http, ${(counts[way] / counts.nest).toFixed(2)}× bare Nest)`,
        'printed',
        true,
      );
    }
  }
} finally {
  await api.stop(60_000);
}
