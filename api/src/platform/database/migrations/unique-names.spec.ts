import { DataSource } from 'typeorm';
import { startTestApi, type TestApi } from '../../../../test/test-api';
import { UniqueNames1765800000000 } from './1765800000000-UniqueNames';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.stop();
});

const breaker = (name: string) =>
  api.sql(
    `INSERT INTO circuit_breaker_configs (name, type, failure_threshold, timeout_ms, recovery_time_ms, success_threshold)
     VALUES ($1, 'simple', 5, 30000, 60000, 3)`,
    [name],
  );

it('renames breakers and services that share a name, whatever its letter case, to the first free "name (n)"', async () => {
  const migration = new UniqueNames1765800000000();
  const runner = api.app.get(DataSource).createQueryRunner();
  try {
    // the names as they could stand before the migration
    await migration.down(runner);
    for (const name of ['Payment Gateway', 'payment gateway', 'Payment Gateway (2)', 'PAYMENT GATEWAY']) await breaker(name);
    // the demo's Search Service is already there
    await api.sql(
      `INSERT INTO services (name, endpoint) VALUES ('Search Service', 'https://a.example.test'), ('search service', 'https://b.example.test')`,
    );
    await migration.up(runner);
  } finally {
    await runner.release();
  }
  const names = async (table: string) => (await api.sql(`SELECT name FROM ${table} ORDER BY id`)).map((row) => row.name);
  expect(await names('circuit_breaker_configs')).toEqual([
    'Payment Gateway',
    'Inventory Service',
    'Search API',
    'Payment Gateway (3)',
    'payment gateway (4)',
    'Payment Gateway (2)',
    'PAYMENT GATEWAY (5)',
  ]);
  expect((await names('services')).filter((name: string) => /search service/i.test(name))).toEqual([
    'Search Service',
    'Search Service (2)',
    'search service (3)',
  ]);
  await expect(breaker('payment GATEWAY (2)')).rejects.toThrow(/circuit_breaker_configs_name_key/);
});
