import { DataSource } from 'typeorm';
import { startTestApi, type TestApi } from '../../../../test/test-api';
import { JournalNamesNotEmails1765300000000 } from './1765300000000-JournalNamesNotEmails';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.stop();
});

it('rewrites journal reasons written with an e-mail to the account’s name, or "someone", and leaves the others', async () => {
  const [{ id: configId }] = await api.sql('SELECT id FROM circuit_breaker_configs ORDER BY id LIMIT 1');
  const reasons = ['forced open by operator@example.com', 'reset by gone@example.com', 'failure threshold reached (5 failures)'];
  const ids: string[] = [];
  for (const [n, reason] of reasons.entries()) {
    const [row] = await api.sql(
      `INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, instance_id, at)
       VALUES ($1, 'CLOSED', 'OPEN', $2, gen_random_uuid(), now() + make_interval(secs => $3)) RETURNING id`,
      [configId, reason, n],
    );
    ids.push(row.id);
  }
  const runner = api.app.get(DataSource).createQueryRunner();
  try {
    await new JournalNamesNotEmails1765300000000().up(runner);
  } finally {
    await runner.release();
  }
  const rows = await api.sql('SELECT reason FROM breaker_transitions WHERE id = ANY($1) ORDER BY id', [ids]);
  expect(rows.map((row: { reason: string }) => row.reason)).toEqual([
    'forced open by Omar',
    'reset by someone',
    'failure threshold reached (5 failures)',
  ]);
});
