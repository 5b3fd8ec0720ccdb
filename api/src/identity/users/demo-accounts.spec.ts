import { DEMO_PASSWORD, eventually, signIn, startTestApi, type TestApi } from '../../../test/test-api';
import { DEMO_USERS } from './bootstrap.service';

/**
 * A database seeded with the demo accounts (SEED_DEMO), later run in production: production refuses SEED_DEMO, and
 * the accounts it left behind, whose password was printed or set in a test's settings, must not stay usable.
 */
let seeded: TestApi;
let production: TestApi | undefined;
beforeAll(async () => {
  seeded = await startTestApi();
});
afterAll(async () => {
  await production?.stop();
  await seeded.stop();
});

it('deactivates the demo accounts when a replica starts in production, ending their sessions on every replica', async () => {
  const viewer = await signIn(seeded.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
  expect((await seeded.call('/api/auth/user', { cookie: viewer })).status).toBe(200);

  production = await startTestApi({ DATABASE_URL: seeded.databaseUrl, NODE_ENV: 'production', SEED_DEMO: 'false' });

  const emails = DEMO_USERS.map((user) => user.email);
  const rows = await seeded.sql('SELECT email, is_active FROM users WHERE email = ANY($1) ORDER BY email', [emails]);
  expect(rows).toEqual([...emails].sort().map((email) => ({ email, is_active: false })));
  // the replica that kept serving drops the session as soon as the fan-out tells it
  expect(await eventually(async () => (await seeded.call('/api/auth/user', { cookie: viewer })).status === 401)).toBe(true);
  const audit = await seeded.sql(`SELECT actor_id, after FROM audit_entries WHERE action = 'user.deactivate'`);
  expect(audit).toHaveLength(emails.length);
  expect(audit[0]).toEqual({ actor_id: null, after: { isActive: false, reason: 'demo account in production' } });
});
