import { auditActorText } from './token-vocabulary';
import { createTokenSchema } from './tokens';

it('names the token an audited change was made through', () => {
  const via = { tokenId: 't-1', name: 'ci-export', prefix: 'cbh_3fA9kQ2x' };
  expect(auditActorText({ actorEmail: 'root@example.com', via })).toBe("root@example.com via token 'ci-export' (cbh_3fA9kQ2x…)");
  expect(auditActorText({ actorEmail: 'root@example.com', via: null })).toBe('root@example.com');
  expect(auditActorText({ actorEmail: null, via: null })).toBe('the system');
  expect(auditActorText({ actorEmail: 'ci-bot@service-account.invalid', via: { ...via, name: 'deploy' } })).toBe(
    "service account 'ci-bot' via token 'deploy' (cbh_3fA9kQ2x…)",
  );
});

it('takes a name and 1 to 365 days, and permissions only from the known list', () => {
  expect(createTokenSchema.safeParse({ name: ' ci ', expiresInDays: 365 }).data).toEqual({ name: 'ci', expiresInDays: 365 });
  for (const body of [
    { name: 'ci', expiresInDays: 0 },
    { name: 'ci', expiresInDays: 366 },
    { name: 'ci', expiresInDays: 1.5 },
    { name: ' ', expiresInDays: 1 },
    { name: 'ci', expiresInDays: 1, permissions: ['root'] },
    { name: 'ci', expiresInDays: 1, extra: true },
  ]) {
    expect(createTokenSchema.safeParse(body).success).toBe(false);
  }
});
