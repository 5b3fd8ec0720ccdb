import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/test';
import { SCRATCH, startSite } from './support/server';
import { suitePgPort } from './support/suite-sites';
import { freePort } from '../tools/testing/free-port.mjs';

test.skip(Boolean(process.env.DATABASE_URL), 'the embedded database is used only without DATABASE_URL');

test('the embedded PostgreSQL keeps its data and starts again after a crash left a stale postmaster.pid naming a reused pid', async ({
  request,
}) => {
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(path.join(SCRATCH, 'crash-'));
  const env = { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), DATABASE_URL: '' };

  const first = await startSite({ port: await freePort(), env });
  const firstHealth = await (await request.get(`${first.url}/api/health`)).json();
  expect(firstHealth).toMatchObject({ status: 'ok', database: 'up' });
  expect(first.logs.join('')).toContain('applied database migrations');

  // Crash: the API and its PostgreSQL die at once, leaving postmaster.pid behind.
  const pidFile = path.join(dataDir, 'pg/postmaster.pid');
  const postmaster = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  await first.stop('SIGKILL');
  process.kill(postmaster, 'SIGKILL');
  await expect
    .poll(() => {
      try {
        process.kill(postmaster, 0);
        return 'alive';
      } catch {
        return 'gone';
      }
    })
    .toBe('gone');
  // The number is reused by a live process that is not PostgreSQL, which makes PostgreSQL refuse to start.
  const lock = readFileSync(pidFile, 'utf8');
  expect(lock.split('\n')[0]).toBe(String(postmaster));
  writeFileSync(pidFile, lock.replace(/^\d+/, String(process.pid)));

  const second = await startSite({ port: await freePort(), env });
  try {
    const health = await (await request.get(`${second.url}/api/health`)).json();
    expect(health).toMatchObject({ status: 'ok', database: 'up' });
    expect(health.instance).not.toBe(firstHealth.instance);
    // The schema survived: nothing was migrated again.
    expect(second.logs.join('')).not.toContain('applied database migrations');
  } finally {
    await second.stop();
  }
});

test('a second embedded PostgreSQL on a taken port stops the API with a message that says what to do', async () => {
  const env = { DATABASE_URL: '', EMBEDDED_PG_PORT: suitePgPort()! };
  const start = startSite({ port: await freePort(), env: { ...env, DATA_DIR: mkdtempSync(path.join(SCRATCH, 'taken-')) } });
  await expect(start).rejects.toThrow(/did not start on port \d+ \(another server on that port\? set EMBEDDED_PG_PORT or DATABASE_URL\)/);
});
