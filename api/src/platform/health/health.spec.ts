import { Client } from 'pg';
import { startTestApi, type TestApi } from '../../../test/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.stop();
});

/** Runs SQL on the test server as its administrator, outside the API's database. */
async function asAdministrator(sql: string): Promise<void> {
  const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

it('answers 503 with database "down" and no word of the driver while the database refuses connections', async () => {
  const database = new URL(api.databaseUrl).pathname.slice(1);
  // the server refuses new connections to the API's database and ends the ones it has
  await asAdministrator(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
  await asAdministrator(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}'`);
  try {
    const response = await api.call('/api/health');
    expect(response.status).toBe(503);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'The database is unreachable',
      status: 'degraded',
      database: 'down',
      instance: expect.any(String),
    });
    expect(text).not.toContain(database);
  } finally {
    await asAdministrator(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
  }
  // and once the database is back, the API finds it again by itself
  expect((await api.call('/api/health')).status).toBe(200);
});
