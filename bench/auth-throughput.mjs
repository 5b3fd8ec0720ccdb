// Authenticated GET /api/auth/user throughput of the production API, as a ratio to a bare node:http server
// answering the same JSON, both measured here with autocannon (goal ≥ 0.15).
// Usage: npm run build && node bench/auth-throughput.mjs [--seconds 10] [--connections 50]
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';
import { ROOT } from '../scripts/run.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const SECONDS = arg('seconds', 10);
const CONNECTIONS = arg('connections', 50);
const API_PORT = 3390;
const BARE_PORT = 3391;
const ADMIN = { email: 'bench@example.com', password: 'bench-password-123' };
const DATA_DIR = path.join(ROOT, '.data/bench');

const run = (url, headers = {}) =>
  new Promise((resolve, reject) =>
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers }, (error, result) => (error ? reject(error) : resolve(result))),
  );

rmSync(DATA_DIR, { recursive: true, force: true });
const api = spawn(process.execPath, [path.join(ROOT, 'dist/api/main.js')], {
  cwd: ROOT,
  env: { ...process.env, PORT: String(API_PORT), DATA_DIR, EMBEDDED_PG_PORT: '54370', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, DATABASE_URL: '' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  const base = `http://127.0.0.1:${API_PORT}`;
  for (let tries = 0; ; tries++) {
    const ok = await fetch(`${base}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (tries > 240) throw new Error('the API did not start');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const login = await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  const cookie = login.headers.get('set-cookie').split(';')[0];
  const body = await (await fetch(`${base}/api/auth/user`, { headers: { cookie } })).text();

  const bare = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(body);
  });
  await new Promise((resolve) => bare.listen(BARE_PORT, '127.0.0.1', resolve));

  const bareResult = await run(`http://127.0.0.1:${BARE_PORT}/api/auth/user`);
  const apiResult = await run(`${base}/api/auth/user`, { cookie });
  bare.close();

  const line = (name, r) =>
    `${name.padEnd(34)} ${r.requests.average.toFixed(0).padStart(8)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms   non-2xx ${r.non2xx}   errors ${r.errors}`;
  console.log(`autocannon: ${CONNECTIONS} connections, ${SECONDS} s each, one after the other`);
  console.log(line('bare node:http (same JSON)', bareResult));
  console.log(line('API GET /api/auth/user (signed in)', apiResult));
  console.log(`ratio API / bare: ${(apiResult.requests.average / bareResult.requests.average).toFixed(3)} (goal ≥ 0.15)`);
} finally {
  api.kill('SIGTERM');
}
