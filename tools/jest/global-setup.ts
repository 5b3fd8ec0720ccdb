import path from 'node:path';
import { startEmbeddedPostgres } from '@cbh/embedded-postgres';
import { freePort } from '../testing/free-port.mjs';

/** A real PostgreSQL for the API tests: DATABASE_URL when set, else an embedded cluster kept for reuse. */
export default async function globalSetup() {
  if (process.env.DATABASE_URL) {
    process.env.TEST_DATABASE_URL = process.env.DATABASE_URL;
    return;
  }
  const database = await startEmbeddedPostgres({
    dataDir: path.resolve(__dirname, '../../.data/test'),
    port: process.env.TEST_PG_PORT ? Number(process.env.TEST_PG_PORT) : await freePort(),
    database: 'postgres',
  });
  process.env.TEST_DATABASE_URL = database.url;
  (globalThis as { __embeddedPostgres?: typeof database }).__embeddedPostgres = database;
}
