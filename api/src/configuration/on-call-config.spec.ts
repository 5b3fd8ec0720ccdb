import { apiForThisFile } from '../../test/test-api';
import { changed, documentRoutes, refusal } from './document.test-kit';

const spec = apiForThisFile();
const { exportedDocument, importing, imported } = documentRoutes(spec);

it('imports a channel, a schedule of people by e-mail and a policy naming both in one document, exports it alike, and is idempotent', async () => {
  const document = await exportedDocument();
  document.channels = [...(document.channels ?? []), { name: 'Ops log', type: 'log' } as never];
  document.schedules = [
    {
      name: 'Primary',
      timeZone: 'Europe/Berlin',
      rotations: [
        { users: ['root@example.com', 'viewer@example.com'], start: '2026-11-02T09:00', lengthHours: 'weekly', handoffTime: '09:00' },
      ],
      overrides: [],
    },
  ];
  document.escalationPolicies = [
    {
      name: 'Payments',
      steps: [
        { notify: { schedule: 'Primary' }, waitMinutes: 5 },
        { notify: { channels: ['Ops log'], users: ['root@example.com'] }, waitMinutes: 10 },
      ],
      repeat: 1,
    },
  ];
  expect(changed(await imported(document))).toEqual([
    { kind: 'channel', name: 'Ops log', action: 'create' },
    { kind: 'schedule', name: 'Primary', action: 'create' },
    { kind: 'escalationPolicy', name: 'Payments', action: 'create' },
  ]);
  const again = await exportedDocument();
  expect(again.schedules).toEqual(document.schedules);
  expect(again.escalationPolicies).toEqual(document.escalationPolicies);
  expect(changed(await imported(again))).toEqual([]);

  again.escalationPolicies![0]!.repeat = 3;
  expect(changed(await imported(again))).toEqual([{ kind: 'escalationPolicy', name: 'Payments', action: 'update' }]);
  expect(changed(await imported({ ...again, schedules: [], escalationPolicies: [] }, { query: '?prune=true' }))).toEqual([
    { kind: 'schedule', name: 'Primary', action: 'delete' },
    { kind: 'escalationPolicy', name: 'Payments', action: 'delete' },
  ]);
});

it('names a person who is no account by the place in the document', async () => {
  const document = await exportedDocument();
  document.schedules = [
    {
      name: 'Ghosts',
      timeZone: 'UTC',
      rotations: [{ users: ['nobody@example.com'], start: '2026-11-02T09:00', lengthHours: 12 }],
      overrides: [],
    },
  ];
  expect(await refusal(await importing(document))).toEqual({
    status: 400,
    message: 'schedules[0] (Ghosts): schedules[0].rotations[0].users: no account with the e-mail nobody@example.com',
  });
});

it('imports a rule naming a policy of the same document (no channels needed), exports it by name, and repoints it when a prune replaces the policy', async () => {
  const document = await exportedDocument();
  document.channels = [...(document.channels ?? []), { name: 'Pager log', type: 'log' } as never];
  const policy = (name: string) => ({ name, steps: [{ notify: { channels: ['Pager log'] }, waitMinutes: 5 }], repeat: 0 });
  document.escalationPolicies = [policy('Day')];
  document.notificationRules = [
    ...(document.notificationRules ?? []),
    { name: 'Page on openings', events: ['breaker.opened'], escalationPolicy: 'Day' } as never,
  ];
  expect(changed(await imported(document))).toEqual([
    { kind: 'channel', name: 'Pager log', action: 'create' },
    { kind: 'notificationRule', name: 'Page on openings', action: 'create' },
    { kind: 'escalationPolicy', name: 'Day', action: 'create' },
  ]);
  const again = await exportedDocument();
  expect(again.notificationRules!.find((rule) => rule.name === 'Page on openings')).toMatchObject({
    channels: [],
    escalationPolicy: 'Day',
  });
  expect(changed(await imported(again))).toEqual([]);

  // the policy replaced by another in one pruning import: the rule follows, nothing is refused
  again.escalationPolicies = [policy('Night')];
  again.notificationRules = again.notificationRules!.map((rule) =>
    rule.name === 'Page on openings' ? { ...rule, escalationPolicy: 'Night' } : rule,
  );
  expect(changed(await imported(again, { query: '?prune=true' }))).toEqual(
    expect.arrayContaining([
      { kind: 'escalationPolicy', name: 'Day', action: 'delete' },
      { kind: 'escalationPolicy', name: 'Night', action: 'create' },
      { kind: 'notificationRule', name: 'Page on openings', action: 'update', fields: ['escalationPolicy'] },
    ]),
  );
  const rules = (await spec.api.call('/api/notification-rules', { cookie: spec.admin }).then((r) => r.json())) as {
    name: string;
    escalationPolicyId: string;
  }[];
  const policies = (await spec.api.call('/api/escalation-policies', { cookie: spec.admin }).then((r) => r.json())) as {
    id: string;
    name: string;
  }[];
  expect(rules.find((rule) => rule.name === 'Page on openings')!.escalationPolicyId).toBe(policies.find((p) => p.name === 'Night')!.id);

  // a policy neither the document nor the hub has is refused at its place; by hand, a policy in use is not deleted
  const ghost = await exportedDocument();
  ghost.notificationRules = ghost.notificationRules!.map((rule) =>
    rule.name === 'Page on openings' ? { ...rule, escalationPolicy: 'Ghost' } : rule,
  );
  expect((await refusal(await importing(ghost))).message).toContain(".escalationPolicy: no escalation policy named 'Ghost'");
  const night = policies.find((p) => p.name === 'Night')!;
  const refused = await spec.api.call(`/api/escalation-policies/${night.id}`, { method: 'DELETE', cookie: spec.admin });
  expect([refused.status, ((await refused.json()) as { message: string }).message]).toEqual([
    409,
    'Notification rule Page on openings uses escalation policy Night: change or delete the rule first',
  ]);
});
