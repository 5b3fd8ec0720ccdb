// Authenticated GET /api/auth/user and GET /api/metrics/latest throughput of the production API, each as a
// ratio to a bare node:http server answering the same JSON, all measured here with autocannon (goal ≥ 0.15).
// Usage: npm run build && node bench/api-throughput.mjs [--seconds 10] [--connections 50]
import { createServer } from 'node:http';
import autocannon from 'autocannon';
import { startBenchApi } from './api-process.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const SECONDS = arg('seconds', 10);
const CONNECTIONS = arg('connections', 50);

const run = (url, headers = {}) =>
  new Promise((resolve, reject) =>
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers }, (error, result) => (error ? reject(error) : resolve(result))),
  );
const line = (name, r) =>
  `${name.padEnd(40)} ${r.requests.average.toFixed(0).padStart(8)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms   non-2xx ${r.non2xx}   errors ${r.errors}`;

const api = await startBenchApi();
try {
  console.log(`autocannon: ${CONNECTIONS} connections, ${SECONDS} s each, one after the other`);
  for (const path of ['/api/auth/user', '/api/metrics/latest']) {
    const body = await (await fetch(`${api.url}${path}`, { headers: { cookie: api.cookie } })).text();
    const bare = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(body);
    });
    await new Promise((resolve) => bare.listen(3391, '127.0.0.1', resolve));
    const bareResult = await run(`http://127.0.0.1:3391${path}`);
    bare.close();
    const apiResult = await run(`${api.url}${path}`, { cookie: api.cookie });
    console.log(line(`bare node:http, same ${body.length}-byte JSON`, bareResult));
    console.log(line(`API GET ${path} (signed in)`, apiResult));
    console.log(`ratio API / bare for ${path}: ${(apiResult.requests.average / bareResult.requests.average).toFixed(3)} (goal ≥ 0.15)\n`);
  }
} finally {
  api.stop();
}
