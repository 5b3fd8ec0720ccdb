import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { ENTITIES } from '../src/entities';
import { createDataSource, migrate } from '../src/platform/database/database';
import { MIGRATIONS } from '../src/platform/database/migrations';

/** Any constant: the test server's files building the template take it in turn. */
const TEMPLATE_LOCK_KEY = 7_342_101;
const TEMPLATE_PREFIX = 'cbh_test_template_';

function testServerUrl(): string {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) throw new Error('TEST_DATABASE_URL is not set: run the tests through jest');
  return baseUrl;
}

function urlOf(database: string): string {
  const url = new URL(testServerUrl());
  url.pathname = `/${database}`;
  return url.toString();
}

async function asAdmin<T>(work: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: testServerUrl() });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** Names the migrations as they are now: a migration added or changed makes a new template. */
function templateName(): string {
  const digest = createHash('sha256');
  for (const Migration of MIGRATIONS) digest.update(`${Migration.name}\n${Migration.prototype.up.toString()}\n`);
  return `${TEMPLATE_PREFIX}${digest.digest('hex').slice(0, 16)}`;
}

/**
 * The API's schema, migrated once per set of migrations on the test server and copied for each test database: a copy
 * takes about 60 ms where migrating an empty database took 700. Built under another name and renamed when done, so a
 * template by this name is always whole; older templates go when a new one is built.
 */
async function migratedTemplate(admin: Client): Promise<string> {
  const name = templateName();
  const exists = async () => ((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount ?? 0) > 0;
  if (await exists()) return name;
  await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
  try {
    if (await exists()) return name;
    const building = `${name}_building`;
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${building}`);
    const dataSource = createDataSource(urlOf(building), ENTITIES);
    await dataSource.initialize();
    try {
      await migrate(dataSource);
    } finally {
      await dataSource.destroy();
    }
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    const older = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1 AND datname <> $2', [
      `${TEMPLATE_PREFIX}%`,
      name,
    ]);
    for (const { datname } of older.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    return name;
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
  }
}

/**
 * A fresh database on the test PostgreSQL (see tools/jest/global-setup.ts), dropped by drop(): with the API's schema
 * migrated, or `empty` for a test of the migrations themselves.
 */
export async function createTestDatabase({ empty = false }: { empty?: boolean } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `cbh_test_${randomBytes(6).toString('hex')}`;
  await asAdmin(async (admin) => {
    const template = empty ? 'template1' : await migratedTemplate(admin);
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  });
  return {
    url: urlOf(name),
    drop: () => asAdmin(async (admin) => void (await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}

/** A fresh database with the API's schema and a data source on it, no API running: for a repository on its own. */
export async function migratedTestDatabase(): Promise<{ dataSource: DataSource; drop(): Promise<void> }> {
  const database = await createTestDatabase();
  const dataSource = createDataSource(database.url, ENTITIES);
  await dataSource.initialize();
  return {
    dataSource,
    drop: async () => {
      await dataSource.destroy();
      await database.drop();
    },
  };
}
