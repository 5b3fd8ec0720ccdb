// Starts the production API (dist/api/main.js) with its own embedded PostgreSQL for a benchmark, and signs in.
// With `probe`, that module is preloaded into the API process and may report to the benchmark over IPC.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../scripts/run.mjs';

export const BENCH_ADMIN = { email: 'bench@example.com', password: 'bench-password-123' };

export async function startBenchApi({ port = 3390, pgPort = 54370, dataFolder = '.data/bench', env = {}, probe } = {}) {
  const dataDir = path.join(ROOT, dataFolder);
  rmSync(dataDir, { recursive: true, force: true });
  const child = spawn(process.execPath, [...(probe ? ['--require', probe] : []), path.join(ROOT, 'dist/api/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      SEED_DEMO: 'true',
      DATABASE_URL: '',
      // the console bench runs a load test through each of 200 breakers
      LOAD_TESTS_PER_USER: '1000',
      LOAD_TESTS_TOTAL: '1000',
      // the /ws benchmarks connect thousands of clients with one session
      WS_CONNECTIONS_PER_SESSION: '100000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit', ...(probe ? ['ipc'] : [])],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (tries > 240) throw new Error('the API did not start');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const login = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_ADMIN),
  });
  const cookie = login.headers.get('set-cookie').split(';')[0];
  return { url, cookie, process: child, stop: () => child.kill('SIGTERM') };
}
