import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import type { Logger } from 'pino';
import { createApi, type RunningApi } from '../src/app';
import { createLogger } from '../src/platform/common/logger';
import { loadConfig } from '../src/platform/config/config';
import { createTestDatabase } from './test-database';

export const TEST_MANIFEST = {
  remotes: [{ name: 'mfe_dashboard', entry: '/remotes/mfe-dashboard/mf-manifest.json', routes: ['/dashboard'] }],
};

/** A small built site: the shell's HTML and one remote with a manifest, an entry and a hashed chunk. */
function writeStaticFixture(root: string) {
  const files: Record<string, string> = {
    'shell/index.html': '<!doctype html><title>Circuit Breaker Hub</title><div id="root"></div>',
    'shell/main.0123456789.js': 'console.log("shell")',
    // what the shell provides to remotes, as its build writes it: what a release's contract check reads
    'shell/shared-versions.json': JSON.stringify({ react: '19.3.1', 'react-dom': '19.3.1', 'react-redux': '9.3.1', '@cbh/ui': '0.1.0' }),
    'mfe-dashboard/mf-manifest.json': '{"id":"mfe_dashboard"}',
    'mfe-dashboard/remoteEntry.js': 'var mfe_dashboard;',
    'mfe-dashboard/749.abcdef0123.js': 'console.log("chunk")',
    'api/main.js': 'server code',
  };
  for (const [file, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), body);
  }
  writeFileSync(path.join(root, 'remotes.json'), JSON.stringify(TEST_MANIFEST));
}

export const TEST_ADMIN = { email: 'root@example.com', password: 'root-password-for-tests' };
export const DEMO_PASSWORD = 'demo-password-for-tests';

export interface TestApi extends RunningApi {
  baseUrl: string;
  databaseUrl: string;
  /** Every route the HTTP server registered, as "METHOD /path" (Fastify's automatic HEAD routes left out). */
  routes: string[];
  /** An HTTP call to the API: a JSON body when given, the session cookie when given, redirects not followed. */
  call(path: string, options?: { method?: string; body?: unknown; cookie?: string | null }): Promise<Response>;
  /** Runs SQL on the test database directly, behind the API's back; rows of ad-hoc queries are untyped. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  sql(query: string, params?: unknown[]): Promise<any[]>;
  stop(): Promise<void>;
}

/**
 * The real API on a free port and a fixture build, over its own fresh database with the schema migrated (`emptyDatabase`:
 * one it migrates itself), or over `env.DATABASE_URL`'s, another test API's, as a further replica; `logger` to read its
 * log lines.
 */
export async function startTestApi(
  env: Record<string, string> = {},
  { logger, emptyDatabase = false }: { logger?: Logger; emptyDatabase?: boolean } = {},
): Promise<TestApi> {
  // a further replica's database is the first one's, which that one drops
  const database = env.DATABASE_URL
    ? { url: env.DATABASE_URL, drop: async () => undefined }
    : await createTestDatabase({ empty: emptyDatabase });
  const root = mkdtempSync(path.join(tmpdir(), 'cbh-api-'));
  writeStaticFixture(root);
  const config = loadConfig({
    DATABASE_URL: database.url,
    DATA_DIR: path.join(root, 'data'),
    STATIC_ROOT: root,
    REMOTES_MANIFEST: path.join(root, 'remotes.json'),
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    SEED_DEMO: 'true',
    DEMO_PASSWORD: DEMO_PASSWORD,
    ELEVATION_EMAIL: 'elevate@example.com',
    // domain checks never leave the machine: DNS and RDAP go to a closed loopback port unless a test starts servers
    DNS_SERVERS: '127.0.0.1:9',
    RDAP_BASE_URL: 'http://127.0.0.1:9',
    ...env,
  });
  const api = await createApi(config, logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'));
  const routes: string[] = [];
  // Nest registers its routes when the application starts listening
  api.app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push(`${method} ${route.url}`);
    });
  await api.app.listen(0, '127.0.0.1');
  const { port } = api.app.getHttpServer().address() as AddressInfo;
  // close() once, whoever asks: a test that stops the API itself is stopped again by its afterAll
  let closed: ReturnType<RunningApi['close']> | undefined;
  const close = () => (closed ??= api.close());
  return {
    ...api,
    close,
    baseUrl: `http://127.0.0.1:${port}`,
    databaseUrl: database.url,
    routes,
    call: (path, { method = 'GET', body, cookie } = {}) =>
      fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        redirect: 'manual',
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      }),
    sql: async (query, params = []) => {
      const client = new Client({ connectionString: database.url });
      await client.connect();
      try {
        return (await client.query(query, params)).rows;
      } finally {
        await client.end();
      }
    },
    stop: async () => {
      await close();
      await database.drop();
    },
  };
}

/**
 * Whether `check` holds within `ms` (asked every 20 ms, then once more): for a change that reaches another replica
 * as a message, well inside the 10 s a cached copy may live.
 */
export async function eventually(check: () => Promise<boolean>, ms = 2000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await check()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return check();
}

/**
 * Per-minute counts (rate limits, journal quotas) start again at each minute of the clock: a test that counts up to
 * a limit starts where the minute has `ms` left (it takes a small part of that), waiting out the end of one that has less.
 */
export async function withRoomInTheMinute(ms = 10_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < ms) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** Signs in through POST /api/login and returns the session cookie. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in as ${email} failed: ${response.status} ${await response.text()}`);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

/** The spec file's API, started before its first test and stopped after its last, with the bootstrap admin's cookie. */
export function apiForThisFile(env: Record<string, string> = {}): { readonly api: TestApi; readonly admin: string } {
  const started = {} as { api: TestApi; admin: string };
  beforeAll(async () => {
    started.api = await startTestApi(env);
    started.admin = await signIn(started.api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(async () => {
    await started.api?.stop();
  });
  return started;
}

/**
 * The spec file's two replicas over one database, with the bootstrap admin's cookie: for what must hold for the
 * cluster, not one process. They share their session secret, as a deployment's do, so one cookie is good on both.
 */
export function twoReplicasForThisFile(env: Record<string, string> = {}): {
  readonly api: TestApi;
  readonly second: TestApi;
  readonly admin: string;
  /** What both replicas started with: for a further replica a test starts on the same database. */
  readonly env: Record<string, string>;
} {
  const shared = { SESSION_SECRET: 'a-session-secret-the-two-replicas-of-this-file-share', ...env };
  const started = { env: shared as Record<string, string> } as {
    api: TestApi;
    second: TestApi;
    admin: string;
    env: Record<string, string>;
  };
  beforeAll(async () => {
    started.api = await startTestApi(shared);
    started.second = await startTestApi({ ...shared, DATABASE_URL: started.api.databaseUrl });
    started.admin = await signIn(started.api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(async () => {
    await started.second?.stop();
    await started.api?.stop();
  });
  return started;
}
