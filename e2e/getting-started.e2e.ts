import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/test';
import { freePort } from '../tools/testing/free-port.mjs';
import { ownDatabase, ROOT, SCRATCH, waitForHealth } from './support/server';

/**
 * docs/getting-started.md as a newcomer follows it: its first terminal block starts the hub (`npm install && npm
 * start`, exactly as written), and every later block runs, in order, in one shell against it. Only the port differs
 * (a free one instead of 3000), and the data lives in a scratch folder instead of `.data/`.
 */
const GUIDE = path.join(ROOT, 'docs/getting-started.md');
const blocks = [...readFileSync(GUIDE, 'utf8').matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
const PASSWORD = 'a-password-for-the-getting-started-test';

test('every terminal step of the getting-started guide works against a hub started as it says', async () => {
  test.setTimeout(300_000);
  expect(blocks[0]!.trim()).toBe('npm install && npm start');
  const port = await freePort();
  const database = process.env.DATABASE_URL ? await ownDatabase('getting_started') : null;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: mkdtempSync(path.join(SCRATCH, 'getting-started-')),
    EMBEDDED_PG_PORT: String(await freePort()),
    DATABASE_URL: database?.url ?? '',
    ADMIN_PASSWORD: PASSWORD,
    // the sample domain's checks never leave the machine: DNS and RDAP go to a closed loopback port
    DNS_SERVERS: '127.0.0.1:9',
    RDAP_BASE_URL: 'http://127.0.0.1:9',
  };
  for (const name of ['ADMIN_EMAIL', 'SEED_DEMO', 'NODE_ENV']) delete env[name];
  const logs: string[] = [];
  const hub = spawn('bash', ['-c', blocks[0]!], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  hub.stdout!.on('data', (chunk) => logs.push(String(chunk)));
  hub.stderr!.on('data', (chunk) => logs.push(String(chunk)));
  const exited = new Promise<void>((resolve) => hub.once('exit', () => resolve()));
  try {
    await Promise.race([
      waitForHealth(`http://127.0.0.1:${port}`, 240_000),
      exited.then(() => {
        throw new Error(`npm start exited:\n${logs.join('')}`);
      }),
    ]);
    const script = ['set -euo pipefail', ...blocks.slice(1)].join('\n').replaceAll('localhost:3000', `localhost:${port}`);
    const steps = spawnSync('bash', ['-c', script], {
      cwd: mkdtempSync(path.join(SCRATCH, 'getting-started-shell-')),
      env: { ...env, ADMIN_PASSWORD: PASSWORD },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect({ status: steps.status, stderr: steps.stderr, stdout: steps.status === 0 ? '' : steps.stdout }).toEqual({
      status: 0,
      stderr: '',
      stdout: '',
    });
    // what the guide says each step shows: signed in, the sample loaded and removed, the alert delivered and logged
    expect(steps.stdout).toContain('"email":"admin@example.com"');
    expect(steps.stdout).toContain('"loaded":true');
    expect(steps.stdout).toContain('"name":"Payments"');
    expect(steps.stdout).toMatch(/"event":"breaker.opened"[^}]*"channelName":"Log"[^}]*"status":"delivered"/);
    expect(steps.stdout).toContain('"loaded":false');
    await expect.poll(() => logs.join('')).toMatch(/breaker\.opened \S+: Breaker 'Payments' opened/);
  } finally {
    if (hub.exitCode === null) process.kill(-hub.pid!, 'SIGTERM');
    await exited;
    await database?.drop();
  }
});
