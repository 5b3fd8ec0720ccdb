import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { freePort } from '../../tools/testing/free-port.mjs';
import { ACCOUNTS_ENV, DIST, ownDatabase, SCRATCH, startSite, type Site } from './server';
import { siteEnvironment } from './suite-sites';

/**
 * Starts the production site once per worker (see suite-sites.ts), each with its embedded PostgreSQL, or with a
 * database of its own on DATABASE_URL's server when that is set.
 */
export default async function globalSetup(config: FullConfig) {
  for (const app of ['shell', 'api', 'mfe-dashboard']) {
    if (!existsSync(path.join(DIST, app))) throw new Error(`dist/${app} is missing: run npm run build first`);
  }
  rmSync(SCRATCH, { recursive: true, force: true });
  mkdirSync(SCRATCH, { recursive: true });
  const sites = await Promise.all(Array.from({ length: config.workers }, (_, i) => startWorkerSite(i)));
  (globalThis as { __sites?: Site[] }).__sites = sites;
}

async function startWorkerSite(i: number): Promise<Site> {
  const names = siteEnvironment(i);
  const dataDir = path.join(SCRATCH, `data-${i}`);
  const env: Record<string, string> = { DATA_DIR: dataDir, ...ACCOUNTS_ENV };
  if (process.env.DATABASE_URL) {
    env.DATABASE_URL = (await ownDatabase(`circuit_breaker_hub_e2e_${i}`, process.env.DATABASE_URL)).url;
  } else {
    env.EMBEDDED_PG_PORT = String(await freePort());
    process.env[names.pgPort] = env.EMBEDDED_PG_PORT;
  }
  const site = await startSite({ port: await freePort(), env });
  process.env[names.url] = site.url;
  process.env[names.databaseUrl] =
    env.DATABASE_URL ??
    `postgres://postgres:${readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim()}@127.0.0.1:${env.EMBEDDED_PG_PORT}/circuit_breaker_hub`;
  return site;
}
