import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import { test } from './test';
import { freePort } from '../../tools/testing/free-port.mjs';
import { suiteDatabaseUrl } from './suite-sites';

export const ROOT = path.resolve(__dirname, '../..');
export const DIST = path.join(ROOT, 'dist');
/** Scratch space inside the repository, so copies of apps still resolve the workspace's node_modules. */
export const SCRATCH = path.join(ROOT, '.data/e2e');

/** The accounts every e2e site has: the bootstrap super admin and, with SEED_DEMO, one per role. */
export const ADMIN = { email: 'root@example.com', password: 'root-password-for-e2e' };
export const DEMO_PASSWORD = 'demo-password-for-e2e';
export const ELEVATION_EMAIL = 'elevate@example.com';
/** Replicas of one site share the session secret, as they would behind one gateway. */
export const SESSION_SECRET = 'session-secret-shared-by-the-e2e-replicas-0123456789';
export const ACCOUNTS_ENV = {
  SESSION_SECRET,
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  SEED_DEMO: 'true',
  DEMO_PASSWORD,
  ELEVATION_EMAIL,
  // domain checks never leave the machine: DNS and RDAP go to a closed loopback port unless a test starts servers
  DNS_SERVERS: '127.0.0.1:9',
  RDAP_BASE_URL: 'http://127.0.0.1:9',
  // the journeys start load tests as the one admin, some left to run out: more at once than a person would
  LOAD_TESTS_PER_USER: '20',
};

export interface Site {
  url: string;
  logs: string[];
  process: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function waitForHealth(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not become healthy within ${timeoutMs} ms`);
}

/** The production API (dist/api/main.js) serving a built site, on its own port. */
export async function startSite({ port, env = {} }: { port: number; env?: Record<string, string> }): Promise<Site> {
  const logs: string[] = [];
  const child = spawn(process.execPath, [path.join(DIST, 'api/main.js')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => logs.push(String(chunk)));
  child.stderr!.on('data', (chunk) => logs.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await Promise.race([
      waitForHealth(url),
      exited.then(() => {
        throw new Error(`the API exited during start-up:\n${logs.join('')}`);
      }),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    // a start that never became healthy says why only in its own output: give it with the error
    if (error instanceof Error && !error.message.includes('exited during start-up')) {
      error.message += `\nthe API's output so far:\n${logs.join('').slice(-20_000)}`;
    }
    throw error;
  }
  return {
    url,
    logs,
    process: child,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** The database every extra site shares with the main one (this worker's, see suite-sites.ts). */
export const sharedDatabaseUrl = suiteDatabaseUrl;

/** A copy of the production build that a test may change (delete or redeploy a remote). */
export function copyOfBuild(): string {
  const root = mkdtempSync(path.join(SCRATCH, 'site-'));
  cpSync(DIST, root, { recursive: true });
  return root;
}

/**
 * A database of a test file's own on the suite's PostgreSQL, for replicas whose work must not mix with the main
 * site's (outboxes, scrapes, releases), or of a worker's site on another server (`serverUrl`): created empty (one a run
 * before left dropped first), dropped with `drop` (connections ended).
 */
export async function ownDatabase(
  name: string,
  serverUrl: string = sharedDatabaseUrl(),
): Promise<{ url: string; drop: () => Promise<void> }> {
  const { Client } = await import('pg');
  const asAdmin = async (statement: string) => {
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  await asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await asAdmin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** One more API process of the production build on the site's database, as a further replica behind its gateway. */
export async function startReplica(env: Record<string, string> = {}): Promise<Site> {
  return startSite({ port: await freePort(), env: { DATABASE_URL: sharedDatabaseUrl(), SESSION_SECRET, ...env } });
}

/**
 * Replicas of the site by the names given, started (at once) before the first test of the file or describe block
 * that asks and stopped after its last.
 */
export function replicasForTheseTests<Name extends string>(...names: Name[]): Readonly<Record<Name, Site>> {
  const replicas = {} as Record<Name, Site>;
  test.beforeAll(async () => {
    const started = await Promise.all(names.map(() => startReplica()));
    names.forEach((name, i) => (replicas[name] = started[i]!));
  });
  test.afterAll(async () => {
    await Promise.all(names.map((name) => replicas[name]?.stop()));
  });
  return replicas;
}

/**
 * A site of its own, for journeys that change what other tests rely on: the production API with the e2e accounts over
 * an embedded PostgreSQL kept in SCRATCH/<dataDir>; `env` is given the site's address, for settings that name it.
 */
export async function startOwnSite(dataDir: string, env: (url: string) => Record<string, string> = () => ({})): Promise<Site> {
  const port = await freePort();
  return startSite({
    port,
    env: {
      ...ACCOUNTS_ENV,
      DATA_DIR: path.join(SCRATCH, dataDir),
      EMBEDDED_PG_PORT: String(await freePort()),
      ...env(`http://127.0.0.1:${port}`),
    },
  });
}
