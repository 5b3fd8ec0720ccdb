import { DataSource, type DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/config';
import { MIGRATIONS } from './migrations';

export const EMBEDDED_DATABASE_NAME = 'circuit_breaker_hub';
/** The application_name of the API's database connections. */
export const APPLICATION_NAME = 'circuit-breaker-hub';
/** Any constant works: it only has to be the same for every replica running migrations. */
const MIGRATION_LOCK_KEY = 7_342_001;

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/** DATABASE_URL when set, otherwise the embedded PostgreSQL under DATA_DIR. */
export async function openDatabase(config: AppConfig, log: (message: string) => void): Promise<DatabaseHandle> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, embedded: false, stop: async () => undefined };
  // Loaded only when needed: the embedded server's packages are large and ES-module only.
  const { startEmbeddedPostgres } = await import('@cbh/embedded-postgres');
  const embedded = await startEmbeddedPostgres({
    dataDir: config.DATA_DIR,
    port: config.EMBEDDED_PG_PORT,
    database: EMBEDDED_DATABASE_NAME,
    log,
  });
  return { ...embedded, embedded: true };
}

/** `entities`: every context's entities, which the composition root assembles (api/src/entities.ts). */
export function createDataSource(url: string, entities: DataSourceOptions['entities']): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    synchronize: false,
    migrations: MIGRATIONS,
    migrationsTransactionMode: 'each',
    entities,
    extra: {
      max: 10,
      // a request waits at most 3 s for a connection, so an unreachable database answers 503 well within 5 s
      connectionTimeoutMillis: 3000,
      // the replica's connections say whose they are (pg_stat_activity), and the server looks every 2 s whether the
      // client of a running statement is still there: a statement cut at shutdown (shutdown.ts) while it waited on a
      // lock is cancelled, rather than carried out once the lock is free by a replica that has already stopped
      application_name: APPLICATION_NAME,
      options: '-c client_connection_check_interval=2000',
    },
  });
}

/** Applies pending migrations under an advisory lock, so replicas starting together migrate once. */
export async function migrate(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
