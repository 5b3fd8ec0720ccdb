import type {
  AlertGroupDetailView,
  AlertGroupPage,
  AlertGroupSummary,
  BreakerConfigView,
  BreakerDependenciesView,
  ChannelView,
  ContactMethodView,
  EscalationPolicyView,
  ResponseTimesView,
  RuleView,
  ScheduleView,
} from '@cbh/contracts';
import { DEMO_PASSWORD, eventually, signIn } from '../../test/test-api';
import { linkIn } from '../../test/smtp-sink';
import { replicaPairForThisFile } from '../../test/replica-pair';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';
import { EscalationRunner } from './escalation-runner.service';
import { simpleBreaker } from '../../test/breaker-bodies';

// an escalation minute lasts a second here: a step of "1 minute" waits 1 s (the setting, not a sleep, shortens it)
const pair = replicaPairForThisFile({ ESCALATION_MINUTE_SECONDS: '1', ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' });
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver({});
});
afterAll(() => receiver?.stop());

const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;
const call = (path: string, method = 'GET', body?: unknown, replica = pair.api, cookie = pair.admin) =>
  replica.call(path, { method, body, cookie });
async function created<T>(path: string, body: unknown): Promise<T> {
  const response = await call(path, 'POST', body);
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return json<T>(response);
}

const breaker = (name: string) => created<BreakerConfigView>('/api/circuit-breakers', simpleBreaker(name));
const forceOpen = (id: number, replica = pair.api) => call(`/api/circuit-breakers/${id}/force-open`, 'POST', undefined, replica);
const reset = (id: number) => call(`/api/circuit-breakers/${id}/reset`, 'POST');
const groupsOf = async (subject: string) => (await json<AlertGroupPage>(call(`/api/alert-groups?subject=${subject}`))).items;
const detail = (id: number, cookie = pair.admin) =>
  json<AlertGroupDetailView>(call(`/api/alert-groups/${id}`, 'GET', undefined, pair.api, cookie));

/** A policy and a rule routing one breaker's openings to it. */
async function paging(breakerName: string, steps: EscalationPolicyView['steps'], repeat = 0): Promise<EscalationPolicyView> {
  const policy = await created<EscalationPolicyView>('/api/escalation-policies', { name: `${breakerName} policy`, steps, repeat });
  await created<RuleView>('/api/notification-rules', {
    name: `${breakerName} pages`,
    events: ['breaker.opened'],
    breakers: [breakerName],
    escalationPolicyId: policy.id,
  });
  return policy;
}

let me: { id: string; email: string };
let hook: ChannelView;
beforeAll(async () => {
  me = await json(call('/api/auth/user'));
  hook = await created<ChannelView>('/api/notification-channels', { name: 'ops-hook', type: 'webhook', url: receiver.url });
});

describe('an alert group escalates until someone acknowledges it', () => {
  it('mails the schedule’s on-call person, posts to the webhook a minute later, and its signed link acknowledges and stops it', async () => {
    const payments = await breaker('oncall-payments');
    const schedule = await created<ScheduleView>('/api/schedules', {
      name: 'Payments primary',
      timeZone: 'UTC',
      rotations: [{ users: [me.id], start: '2026-01-01T00:00', lengthHours: 'weekly' }],
    });
    await paging(payments.name, [
      { notify: { schedule: schedule.id }, waitMinutes: 1 },
      { notify: { channels: [hook.id] }, waitMinutes: 1 },
      { notify: { channels: [hook.id] }, waitMinutes: 1 },
    ]);
    const mailsBefore = pair.smtp.mails.length;
    const hooksBefore = receiver.received.length;
    expect((await forceOpen(payments.id)).status).toBe(200);

    // step 1 at once: the on-call person's e-mail, with the group's acknowledge link
    expect(await eventually(async () => pair.smtp.mails.length > mailsBefore, 10_000)).toBe(true);
    const mail = pair.smtp.mails.at(-1)!;
    expect(mail.to).toEqual([me.email]);
    expect(linkIn(mail, /http:\/\/[^\s]+\/api\/public\/acknowledge\?code=[\w.-]+/)).toBeTruthy();
    const [group] = await groupsOf(`breaker:${payments.id}`);
    expect(group).toMatchObject({ state: 'firing', title: expect.stringContaining('oncall-payments'), eventCount: 1 });
    expect(receiver.received.length).toBe(hooksBefore);

    // nobody acknowledges: step 2 posts to the webhook a minute (here a second) later, once
    await receiver.waitFor(hooksBefore + 1, 10_000);
    const body = receiver.received.at(-1)!.body as {
      type: string;
      data: { alertGroup: { id: number; step: number; acknowledgeUrl: string } };
    };
    expect(body.type).toBe('breaker.opened');
    expect(body.data.alertGroup).toMatchObject({ id: group!.id, step: 2 });

    // the link shows a page; only its button's POST acknowledges, naming the channel it went to
    const link = new URL(body.data.alertGroup.acknowledgeUrl);
    const page = await fetch(`${pair.api.baseUrl}${link.pathname}${link.search}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<button type="submit">Acknowledge</button>');
    expect((await detail(group!.id)).state).toBe('firing');
    const code = link.searchParams.get('code')!;
    const confirmed = await fetch(`${pair.second.baseUrl}/api/public/acknowledge`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `code=${encodeURIComponent(code)}`,
    });
    expect(confirmed.status).toBe(200);
    const acknowledged = await detail(group!.id);
    expect(acknowledged).toMatchObject({ state: 'acknowledged', acknowledgedBy: 'via ops-hook', nextStep: null });
    expect(acknowledged.timeline.map((entry) => entry.kind)).toEqual(['opened', 'step', 'step', 'acknowledged']);
    expect(acknowledged.deliveries.map((delivery) => [delivery.to, delivery.step])).toEqual([
      [me.email, 1],
      ['ops-hook (webhook)', 2],
    ]);

    // acknowledging stopped it: step 3 never fires, on either replica
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(receiver.received.length).toBe(hooksBefore + 1);

    // an altered link does nothing
    const altered = await fetch(`${pair.api.baseUrl}/api/public/acknowledge?code=${code.slice(0, -2)}xx`);
    expect(altered.status).toBe(404);

    // the breaker's recovery resolves the group, and its link no longer acknowledges anything
    expect((await reset(payments.id)).status).toBe(200);
    expect(await eventually(async () => (await detail(group!.id)).state === 'resolved', 10_000)).toBe(true);
    expect((await detail(group!.id)).resolvedBy).toBe('recovery');
    expect(await (await fetch(`${pair.api.baseUrl}${link.pathname}${link.search}`)).text()).toContain('Already resolved');
  });

  it('un-acknowledging starts again from step one; silence waits and then starts again; a resolved group refuses actions', async () => {
    const ledger = await breaker('oncall-ledger');
    await paging(ledger.name, [{ notify: { channels: [hook.id] }, waitMinutes: 60 }]);
    expect((await forceOpen(ledger.id)).status).toBe(200);
    expect(await eventually(async () => (await groupsOf(`breaker:${ledger.id}`)).length === 1, 10_000)).toBe(true);
    const [group] = await groupsOf(`breaker:${ledger.id}`);
    expect(await eventually(async () => (await detail(group!.id)).deliveries.length === 1, 10_000)).toBe(true);

    expect((await call(`/api/alert-groups/${group!.id}/acknowledge`, 'POST')).status).toBe(200);
    expect((await detail(group!.id)).acknowledgedBy).toBe(me.email);
    // audited with who, before and after
    const { entries } = await json<{
      entries: { action: string; targetId: string; before: { state: string }; after: { state: string } }[];
    }>(call('/api/audit?action=alert-group.acknowledge&pageSize=5'));
    expect(entries.find((entry) => entry.targetId === String(group!.id))).toMatchObject({
      before: { state: 'firing' },
      after: { state: 'acknowledged' },
    });
    expect((await call(`/api/alert-groups/${group!.id}/unacknowledge`, 'POST', undefined, pair.second)).status).toBe(200);
    expect(await eventually(async () => (await detail(group!.id)).deliveries.length === 2, 10_000)).toBe(true);
    expect((await detail(group!.id)).deliveries.map((delivery) => delivery.step)).toEqual([1, 1]);

    const silenced = await json<AlertGroupDetailView>(call(`/api/alert-groups/${group!.id}/silence`, 'POST', { minutes: 30 }));
    expect(silenced).toMatchObject({ state: 'silenced', nextStep: { step: 1 } });
    expect((await call(`/api/alert-groups/${group!.id}/silence`, 'POST', { minutes: 0 })).status).toBe(400);

    expect((await call(`/api/alert-groups/${group!.id}/resolve`, 'POST')).status).toBe(200);
    expect((await call(`/api/alert-groups/${group!.id}/acknowledge`, 'POST')).status).toBe(409);
    // a new opening after the resolve opens a new group, from step one
    expect((await reset(ledger.id)).status).toBe(200);
    expect((await forceOpen(ledger.id)).status).toBe(200);
    expect(await eventually(async () => (await groupsOf(`breaker:${ledger.id}`)).length === 2, 10_000)).toBe(true);
  });

  it('lets viewers read groups and the counts but only operators act; a token acts as its person', async () => {
    const search = await breaker('oncall-search');
    await paging(search.name, [{ notify: { channels: [hook.id] }, waitMinutes: 60 }]);
    expect((await forceOpen(search.id)).status).toBe(200);
    expect(await eventually(async () => (await groupsOf(`breaker:${search.id}`)).length === 1, 10_000)).toBe(true);
    const [anyGroup] = await groupsOf(`breaker:${search.id}`);
    const viewer = await signIn(pair.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
    expect((await call(`/api/alert-groups/${anyGroup!.id}`, 'GET', undefined, pair.api, viewer)).status).toBe(200);
    expect((await call(`/api/alert-groups/${anyGroup!.id}/acknowledge`, 'POST', undefined, pair.api, viewer)).status).toBe(403);
    const summary = await json<AlertGroupSummary>(call('/api/alert-groups/summary'));
    expect(summary.firing + summary.acknowledged + summary.silenced).toBeGreaterThan(0);
    expect(summary.firing).toBeGreaterThan(0);
    expect((await call('/api/alert-groups?limit=500')).status).toBe(400);

    // a script with its person's token acts as that person, named by their e-mail
    const firing = anyGroup;
    const { token } = await json<{ token: string }>(call('/api/tokens', 'POST', { name: 'pager script', expiresInDays: 1 }));
    const byToken = await fetch(`${pair.second.baseUrl}/api/alert-groups/${firing!.id}/acknowledge`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(byToken.status).toBe(200);
    expect((await detail(firing!.id)).acknowledgedBy).toBe(me.email);
    // its acknowledgement counts toward the hub's own breakers' mean time to acknowledge
    const times = await json<ResponseTimesView>(call('/api/alert-groups/response-times?days=30'));
    expect(times.days).toBe(30);
    expect(times.services.find((row) => row.service === null)).toMatchObject({
      acknowledged: expect.any(Number),
      mttaSeconds: expect.any(Number),
    });
  });
});

describe('dependencies keep children quiet', () => {
  it('ten breakers depending on one whose group is firing join it as caused by it and page nobody', async () => {
    const parent = await breaker('oncall-database');
    await paging(parent.name, [{ notify: { channels: [hook.id] }, waitMinutes: 60 }]);
    const children = [];
    for (let index = 0; index < 10; index++) children.push(await breaker(`oncall-child-${index}`));
    // the children page too, when nothing they depend on is the cause
    const policy = await created<EscalationPolicyView>('/api/escalation-policies', {
      name: 'children',
      steps: [{ notify: { channels: [hook.id] }, waitMinutes: 60 }],
    });
    await created('/api/notification-rules', {
      name: 'children page',
      events: ['breaker.opened'],
      breakers: children.map((child) => child.name),
      escalationPolicyId: policy.id,
    });
    for (const child of children) {
      const set = await call(`/api/circuit-breakers/${child.id}/dependencies`, 'PUT', { dependsOn: [{ kind: 'breaker', id: parent.id }] });
      expect(set.status).toBe(200);
    }
    expect(
      (await call(`/api/circuit-breakers/${children[0]!.id}/dependencies`, 'PUT', { dependsOn: [{ kind: 'domain', id: 999999 }] })).status,
    ).toBe(422);
    expect(
      (await call(`/api/circuit-breakers/${children[0]!.id}/dependencies`, 'PUT', { dependsOn: [{ kind: 'breaker', id: parent.id }] }))
        .status,
    ).toBe(200);

    const hooksBefore = receiver.received.length;
    expect((await forceOpen(parent.id)).status).toBe(200);
    expect(await eventually(async () => (await groupsOf(`breaker:${parent.id}`)).length === 1, 10_000)).toBe(true);
    for (const [index, child] of children.entries())
      expect((await forceOpen(child.id, index % 2 ? pair.second : pair.api)).status).toBe(200);

    const [group] = await groupsOf(`breaker:${parent.id}`);
    expect(await eventually(async () => (await detail(group!.id)).causedCount === 10, 10_000)).toBe(true);
    for (const child of children) expect(await groupsOf(`breaker:${child.id}`)).toEqual([]);
    const caused = (await detail(group!.id)).timeline.filter((entry) => entry.kind === 'caused');
    expect(caused.map((entry) => entry.subject?.name).sort()).toEqual(children.map((child) => child.name).sort());
    await receiver.waitFor(hooksBefore + 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received.length).toBe(hooksBefore + 1);
    const shown = await json<BreakerDependenciesView>(call(`/api/circuit-breakers/${children[3]!.id}/dependencies`));
    expect(shown).toMatchObject({ dependsOn: [{ kind: 'breaker', id: parent.id, name: parent.name }], quietedBy: { groupId: group!.id } });
  });
});

describe('contact methods', () => {
  it('reaches a person on their own webhook besides their e-mail; the URL is judged, sealed and never shown', async () => {
    const added = await call('/api/account/contact-methods', 'POST', { type: 'webhook', url: `${receiver.url}/mine?key=personal-secret` });
    expect(added.status).toBe(201);
    const methods = await json<ContactMethodView[]>(call('/api/account/contact-methods'));
    expect(methods.map((method) => [method.type, method.target])).toEqual([
      ['email', me.email],
      ['webhook', `127.0.0.1:${receiver.port}`],
    ]);
    expect(JSON.stringify(methods)).not.toContain('personal-secret');
    expect((await call('/api/account/contact-methods', 'POST', { type: 'slack', url: 'http://127.0.0.2/hook' })).status).toBe(400);

    const cache = await breaker('oncall-cache');
    await paging(cache.name, [{ notify: { users: [me.id] }, waitMinutes: 60 }]);
    const before = receiver.received.length;
    expect((await forceOpen(cache.id)).status).toBe(200);
    await receiver.waitFor(before + 1, 10_000);
    const personal = receiver.received.at(-1)!;
    expect(personal.path).toBe(`${new URL(receiver.url).pathname}/mine?key=personal-secret`);
    const [group] = await groupsOf(`breaker:${cache.id}`);
    expect(await eventually(async () => (await detail(group!.id)).deliveries.length === 2, 10_000)).toBe(true);
    expect((await detail(group!.id)).deliveries.map((delivery) => delivery.to).sort()).toEqual(
      [me.email, `Webhook (webhook) of ${me.email}`].sort(),
    );
  });
});

/** The breakers' openings paged in two steps to a log channel, the second `waitMinutes` after the first. */
async function twoStepsToALog(name: string, breakers: readonly BreakerConfigView[], waitMinutes: number) {
  const channel = await created<ChannelView>('/api/notification-channels', { name: `${name}-log`, type: 'log' });
  const policy = await created<EscalationPolicyView>('/api/escalation-policies', {
    name,
    steps: [
      { notify: { channels: [channel.id] }, waitMinutes },
      { notify: { channels: [channel.id] }, waitMinutes: 0 },
    ],
  });
  await created('/api/notification-rules', {
    name: `${name} page`,
    events: ['breaker.opened'],
    breakers: breakers.map((b) => b.name),
    escalationPolicyId: policy.id,
  });
}

describe('each step fires once across replicas', () => {
  it('fires the due steps of many groups from two runners at once, each exactly once', async () => {
    const breakers = [];
    for (let index = 0; index < 20; index++) breakers.push(await breaker(`oncall-many-${index}`));
    await twoStepsToALog('many', breakers, 0);
    const runners = [pair.api.app.get(EscalationRunner), pair.second.app.get(EscalationRunner)];
    await Promise.all(breakers.map((b, index) => forceOpen(b.id, index % 2 ? pair.second : pair.api)));
    await Promise.all([...runners, ...runners].map((runner) => runner.turn()));
    for (const b of breakers) {
      expect(await eventually(async () => (await groupsOf(`breaker:${b.id}`))[0]?.nextStep === null, 10_000)).toBe(true);
      const [group] = await groupsOf(`breaker:${b.id}`);
      expect((await detail(group!.id)).deliveries.map((delivery) => delivery.step)).toEqual([1, 2]);
    }
  });
});

describe('when a step falls due', () => {
  it('wakes every runner when a step is moved sooner, whatever wrote it, though they sleep until the step they knew of', async () => {
    const b = await breaker('oncall-sooner');
    await twoStepsToALog('sooner', [b], 60);
    await forceOpen(b.id);
    expect(await eventually(async () => (await groupsOf(`breaker:${b.id}`))[0]?.nextStep?.step === 2, 5000)).toBe(true);
    const [group] = await groupsOf(`breaker:${b.id}`);
    // step 2 in a minute (60 escalation minutes of a second): both runners sleep, looking again every 10 s at most
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await pair.api.sql('UPDATE alert_groups SET next_step_at = now() WHERE id = $1', [group!.id]);
    const steps = async () => (await detail(group!.id)).deliveries.map((delivery) => delivery.step);
    expect(await eventually(async () => (await steps()).length === 2, 4000)).toBe(true);
    expect(await steps()).toEqual([1, 2]);
  });
});

describe('who is no longer here', () => {
  it('tells a deactivated person nothing, and their acknowledge link acts no more', async () => {
    // the demo operator leaves (and comes back at the end, for the tests after this one)
    const people = await json<{ id: string; email: string }[]>(call('/api/on-call/people'));
    const leaver = people.find((person) => person.email === 'operator@example.com')!;
    expect(leaver).toBeDefined();
    const db = await breaker('oncall-leaver');
    await paging(db.name, [{ notify: { users: [leaver.id] }, waitMinutes: 60 }]);
    const mailsBefore = pair.smtp.mails.length;
    expect((await forceOpen(db.id)).status).toBe(200);
    expect(await eventually(async () => pair.smtp.mails.length > mailsBefore, 10_000)).toBe(true);
    const link = linkIn(pair.smtp.mails.at(-1)!, /http:\/\/[^\s]+\/api\/public\/acknowledge\?code=[\w.-]+/);
    const code = new URL(link).searchParams.get('code')!;

    expect((await call(`/api/users/${leaver.id}/status`, 'PATCH', { isActive: false })).status).toBe(200);
    const refused = await fetch(`${pair.api.baseUrl}/api/public/acknowledge`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `code=${encodeURIComponent(code)}`,
    });
    expect(refused.status).toBe(404);
    const [group] = await groupsOf(`breaker:${db.id}`);
    expect((await detail(group!.id)).state).toBe('firing');
    expect((await call(`/api/users/${leaver.id}/status`, 'PATCH', { isActive: true })).status).toBe(200);
  });
});
