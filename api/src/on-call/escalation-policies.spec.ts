import type { EscalationPolicyView, ScheduleView } from '@cbh/contracts';
import { apiForThisFile, DEMO_PASSWORD, signIn } from '../../test/test-api';
import { callsAs, json } from './on-call.test-kit';

const spec = apiForThisFile();
const as = (cookie: string) => callsAs(spec, cookie);

it('keeps a policy whose steps name existing channels, people and a schedule, refusing one that does not exist, naming the step', async () => {
  const admin = as(spec.admin);
  const me = await json<{ id: string }>(admin('/api/auth/user'));
  const channel = await json<{ id: string }>(admin('/api/notification-channels', 'POST', { name: 'Ops log', type: 'log' }));
  const schedule = await json<ScheduleView>(admin('/api/schedules', 'POST', { name: 'Primary', timeZone: 'UTC' }));
  const body = {
    name: 'Payments',
    steps: [
      { notify: { schedule: schedule.id }, waitMinutes: 5 },
      { notify: { channels: [channel.id], users: [me.id] }, waitMinutes: 10 },
    ],
    repeat: 1,
  };
  const created = await admin('/api/escalation-policies', 'POST', body);
  expect(created.status).toBe(201);
  const policy = await json<EscalationPolicyView>(created);
  expect(policy).toMatchObject(body);
  const missing = '6f1c2d3e-4b5a-4c6d-8e7f-901234567890';
  const refused = await admin('/api/escalation-policies', 'POST', {
    ...body,
    name: 'Ghost',
    steps: [{ notify: { users: [missing] }, waitMinutes: 1 }],
  });
  expect([refused.status, (await refused.json()).message]).toEqual([422, `steps[0].notify: no user ${missing}`]);
  expect((await admin('/api/escalation-policies', 'POST', { ...body, name: 'PAYMENTS' })).status).toBe(409);
  expect((await admin(`/api/escalation-policies/${policy.id}`, 'PATCH', { repeat: 3 })).status).toBe(200);
  expect((await json<EscalationPolicyView>(admin(`/api/escalation-policies/${policy.id}`))).repeat).toBe(3);
  const viewer = as(await signIn(spec.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD));
  expect((await viewer('/api/escalation-policies')).status).toBe(403);
  expect((await admin(`/api/escalation-policies/${policy.id}`, 'DELETE')).status).toBe(204);
  expect(await json(admin('/api/escalation-policies'))).toEqual([]);
});
