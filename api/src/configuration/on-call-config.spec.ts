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
