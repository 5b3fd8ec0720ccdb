import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { ENTITIES } from '../src/entities';
import { createDataSource, migrate } from '../src/platform/database/database';

/** A fresh, empty database on the test PostgreSQL (see tools/jest/global-setup.ts), dropped by drop(). */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) throw new Error('TEST_DATABASE_URL is not set: run the tests through jest');
  const name = `cbh_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** A fresh database with the API's schema and a data source on it, no API running: for a repository on its own. */
export async function migratedTestDatabase(): Promise<{ dataSource: DataSource; drop(): Promise<void> }> {
  const database = await createTestDatabase();
  const dataSource = createDataSource(database.url, ENTITIES);
  await dataSource.initialize();
  await migrate(dataSource);
  return {
    dataSource,
    drop: async () => {
      await dataSource.destroy();
      await database.drop();
    },
  };
}
