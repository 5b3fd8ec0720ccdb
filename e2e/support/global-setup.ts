import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../tools/testing/free-port';
import { ACCOUNTS_ENV, DIST, SCRATCH, startSite } from './server';

/** Starts the production site once (with its embedded PostgreSQL unless DATABASE_URL is set). */
export default async function globalSetup() {
  for (const app of ['shell', 'api', 'mfe-dashboard']) {
    if (!existsSync(path.join(DIST, app))) throw new Error(`dist/${app} is missing: run npm run build first`);
  }
  rmSync(SCRATCH, { recursive: true, force: true });
  mkdirSync(SCRATCH, { recursive: true });
  process.env.E2E_PG_PORT ??= String(await freePort());
  const port = process.env.E2E_PORT ? Number(process.env.E2E_PORT) : await freePort();
  const site = await startSite({
    port,
    env: { DATA_DIR: path.join(SCRATCH, 'data'), EMBEDDED_PG_PORT: process.env.E2E_PG_PORT, ...ACCOUNTS_ENV },
  });
  process.env.E2E_BASE_URL = site.url;
  (globalThis as { __site?: typeof site }).__site = site;
}
