import { expect, test } from './support/test';
import { Client } from 'pg';
import { domainCheckEnv, startDomainServers, type DomainServers } from '../api/test/domain-servers';
import { linkIn, startSmtpSink } from '../api/test/smtp-sink';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../api/test/webhook-receiver';
import { ACCOUNTS_ENV, ownDatabase, startSite, type Site } from './support/server';
import { apiSignIn, createBreaker, siteApi } from './support/site-api';
import { freePort } from '../tools/testing/free-port.mjs';
import { shoot } from './support/shots';

/**
 * On call on two replicas of the production build, on a database of their own: a breaker's opening opens an alert
 * group whose escalation mails the schedule's on-call person, then posts to a webhook a "minute" later (a minute
 * lasts MINUTE_SECONDS here, by the ESCALATION_MINUTE_SECONDS setting), and the webhook's acknowledge link, opened
 * and confirmed in a browser, stops it. A replica is killed while the group waits for its next step: the step is
 * stored on the group's row, not held by a process, so the survivor fires it, once. Ten breakers depending on a
 * domain whose site goes down join the domain's group and page nobody.
 */
const DATABASE = `on_call_e2e_${process.pid}`;
const SECRET = 'whsec-shared-by-the-hub-and-the-on-call-receiver';
const MINUTE_SECONDS = 5;
const DOMAIN_INTERVAL_SECONDS = 5;

let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
let servers: DomainServers | undefined;
let smtp: Awaited<ReturnType<typeof startSmtpSink>> | undefined;
let env: Record<string, string>;
let ports: number[];
let replicas: Site[] = [];
let cookie: string;
let db: Client | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await ownDatabase(DATABASE);
  servers = await startDomainServers();
  smtp = await startSmtpSink();
  ports = [await freePort(), await freePort()];
  env = {
    ...ACCOUNTS_ENV,
    ...domainCheckEnv(servers, { intervalSeconds: DOMAIN_INTERVAL_SECONDS, trustCa: true }),
    DATABASE_URL: database.url,
    PUBLIC_URL: `http://127.0.0.1:${ports[0]}`,
    SMTP_URL: smtp.url,
    ESCALATION_MINUTE_SECONDS: String(MINUTE_SECONDS),
  };
  // the first replica migrates the new database before the second starts
  replicas = [await startSite({ port: ports[0]!, env })];
  replicas.push(await startSite({ port: ports[1]!, env }));
  cookie = await apiSignIn(replicas[0]!);
  db = new Client({ connectionString: database.url });
  await db.connect();
});

test.afterAll(async () => {
  await db?.end();
  for (const replica of replicas) await replica.stop();
  await smtp?.stop();
  await servers?.stop();
  await database?.drop();
});

async function json<T>(response: Promise<Response>, status: number): Promise<T> {
  const answered = await response;
  expect(answered.status, await answered.clone().text()).toBe(status);
  return (await answered.json()) as T;
}

const created = <T = { id: string }>(path: string, body: unknown, site = replicas[0]!) =>
  json<T>(siteApi(site, cookie, path, 'POST', body), 201);
const forceOpen = (site: Site, id: number) => json(siteApi(site, cookie, `/api/circuit-breakers/${id}/force-open`, 'POST'), 200);

interface GroupView {
  id: number;
  state: string;
  title: string;
  nextStep: { step: number; at: string } | null;
  causedCount: number;
  eventCount: number;
  acknowledgedBy: string | null;
}
interface GroupDetail extends GroupView {
  timeline: { kind: string; at: string; step: number | null; subject: { name: string } | null }[];
  deliveries: { to: string; step: number; status: string }[];
}
const groupsOf = async (subject: string, site = replicas[1]!) =>
  (await json<{ items: GroupView[] }>(siteApi(site, cookie, `/api/alert-groups?subject=${subject}`), 200)).items;
const detail = (id: number, site = replicas[1]!) => json<GroupDetail>(siteApi(site, cookie, `/api/alert-groups/${id}`), 200);

interface StepMessage {
  type: string;
  data: { alertGroup?: { id: number; state: string; step: number; url: string; acknowledgeUrl: string } };
}
const stepMessages = (receiver: WebhookReceiver, groupId: number, step?: number): ReceivedWebhook[] =>
  receiver.received.filter((hook) => {
    const group = (hook.body as unknown as StepMessage).data?.alertGroup;
    return group?.id === groupId && (step === undefined || group.step === step);
  });
const deliveryRows = async (groupId: number) =>
  (
    await db!.query<{ step: number; status: string; attempts: number }>(
      'SELECT step, status, attempts FROM notification_deliveries WHERE alert_group_id = $1 ORDER BY step, seq',
      [groupId],
    )
  ).rows;

test('a breaker opens: step 1 mails the on-call person, step 2 posts to the webhook a minute later though a replica dies mid-wait, and the link acknowledged in the browser stops it', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const receiver = await startWebhookReceiver({ secret: SECRET });
  try {
    const me = await json<{ id: string; email: string }>(siteApi(replicas[0]!, cookie, '/api/auth/user'), 200);
    const hook = await created('/api/notification-channels', { name: 'ops-hook', type: 'webhook', url: receiver.url, secret: SECRET });
    const schedule = await created('/api/schedules', {
      name: 'Payments primary',
      timeZone: 'UTC',
      rotations: [{ users: [me.id], start: '2026-01-01T00:00', lengthHours: 'weekly' }],
    });
    // step 2 waits 3 minutes before step 3: time to confirm the link in a browser before step 3 would fire
    const policy = await created('/api/escalation-policies', {
      name: 'Payments escalation',
      steps: [
        { notify: { schedule: schedule.id }, waitMinutes: 1 },
        { notify: { channels: [hook.id] }, waitMinutes: 3 },
        { notify: { channels: [hook.id] }, waitMinutes: 1 },
      ],
      repeat: 0,
    });
    const breaker = await createBreaker(replicas[0]!, cookie, 'On-call payments');
    await created('/api/notification-rules', {
      name: 'Payments pages',
      events: ['breaker.opened'],
      breakers: [breaker.name],
      escalationPolicyId: policy.id,
    });

    // the breaker opens: step 1 mails the on-call person at once, with the group's acknowledge link
    const mailsBefore = smtp!.mails.length;
    await forceOpen(replicas[0]!, breaker.id);
    await expect.poll(() => smtp!.mails.length, { timeout: 20_000 }).toBeGreaterThan(mailsBefore);
    const mail = smtp!.mails[mailsBefore]!;
    expect(mail.to).toEqual([me.email]);
    const mailLink = linkIn(mail, /http:\/\/[^\s]+\/api\/public\/acknowledge\?code=[\w.-]+/);
    expect(mailLink.startsWith(`${env.PUBLIC_URL}/api/public/acknowledge?code=`)).toBe(true);
    const [group] = await groupsOf(`breaker:${breaker.id}`);
    expect(group).toMatchObject({ state: 'firing', eventCount: 1, nextStep: { step: 2 } });
    expect(receiver.received).toHaveLength(0);

    // nobody acknowledges. Mid-wait (step 1 delivered, step 2 not yet due) the replica the breaker was opened on is
    // killed: whatever replica fired step 1, step 2's time is on the group's row for any runner to claim
    await expect.poll(() => deliveryRows(group!.id), { timeout: 15_000 }).toEqual([{ step: 1, status: 'delivered', attempts: 1 }]);
    const waiting = await detail(group!.id);
    const step2Due = Date.parse(waiting.nextStep!.at);
    expect(waiting.nextStep!.step).toBe(2);
    expect(step2Due - Date.now(), 'step 2 must still be ahead when the replica is killed').toBeGreaterThan(500);
    const killed = replicas[0]!;
    await killed.stop('SIGKILL');
    const survivor = replicas[1]!;

    // step 2 posts to the webhook a minute (here MINUTE_SECONDS) after step 1, from the survivor, once
    await expect.poll(() => stepMessages(receiver, group!.id, 2).length, { timeout: 30_000 }).toBeGreaterThan(0);
    const [step2] = stepMessages(receiver, group!.id, 2);
    expect(step2!.at).toBeGreaterThanOrEqual(step2Due - 250);
    expect(step2!.signatureValid).toBe(true);
    const message = step2!.body as unknown as StepMessage;
    expect(message.type).toBe('breaker.opened');
    expect(message.data.alertGroup).toMatchObject({ id: group!.id, state: 'firing', step: 2 });
    const fired = await detail(group!.id, survivor);
    const stepEntries = fired.timeline.filter((entry) => entry.kind === 'step');
    expect(stepEntries.map((entry) => entry.step)).toEqual([1, 2]);
    const gapMs = Date.parse(stepEntries[1]!.at) - Date.parse(stepEntries[0]!.at);
    test.info().annotations.push({ type: 'step 1 → step 2', description: `${gapMs} ms (a minute is ${MINUTE_SECONDS} s)` });
    expect(gapMs).toBeGreaterThanOrEqual(MINUTE_SECONDS * 1000 - 250);
    expect(gapMs).toBeLessThan(MINUTE_SECONDS * 1000 + 5000);
    // exactly once: one request, one delivery row, delivered on the first try
    await expect
      .poll(() => deliveryRows(group!.id), { timeout: 10_000 })
      .toEqual([
        { step: 1, status: 'delivered', attempts: 1 },
        { step: 2, status: 'delivered', attempts: 1 },
      ]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(stepMessages(receiver, group!.id, 2)).toHaveLength(1);

    // the webhook's link, opened in a browser (on the surviving replica, as a gateway would send it): GET only asks
    const link = new URL(message.data.alertGroup!.acknowledgeUrl);
    expect(link.origin).toBe(env.PUBLIC_URL);
    expect(link.pathname).toBe('/api/public/acknowledge');
    await page.goto(`${survivor.url}${link.pathname}${link.search}`);
    await expect(page).toHaveTitle(`Acknowledge alert group ${group!.id}?`);
    await expect(page.getByRole('heading', { name: `Acknowledge alert group ${group!.id}?` })).toBeVisible();
    // a scanner opening the link changes nothing
    const beforeConfirming = await detail(group!.id, survivor);
    expect(beforeConfirming).toMatchObject({ state: 'firing', nextStep: { step: 3 } });
    const step3Due = Date.parse(beforeConfirming.nextStep!.at);
    expect(step3Due - Date.now(), 'step 3 must still be ahead when the link is confirmed').toBeGreaterThan(500);

    // confirmed: acknowledged via the channel the link went to, and the escalation stops
    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await expect(page.getByRole('heading', { name: 'Acknowledged' })).toBeVisible();
    await expect(page.getByRole('main')).toContainText('via ops-hook');
    const acknowledged = await detail(group!.id, survivor);
    expect(acknowledged).toMatchObject({ state: 'acknowledged', acknowledgedBy: 'via ops-hook', nextStep: null });
    expect(acknowledged.timeline.map((entry) => entry.kind)).toEqual(['opened', 'step', 'step', 'acknowledged']);
    expect(acknowledged.deliveries.map((delivery) => [delivery.to, delivery.step])).toEqual([
      [me.email, 1],
      ['ops-hook (webhook)', 2],
    ]);

    // a new process takes the killed replica's address (the link's origin); past the time step 3 was due, nothing more
    // went out from either replica
    replicas[0] = await startSite({ port: ports[0]!, env });
    cookie = await apiSignIn(replicas[0]!);
    const untilStep3 = step3Due + 2500 - Date.now();
    if (untilStep3 > 0) await new Promise((resolve) => setTimeout(resolve, untilStep3));
    expect(stepMessages(receiver, group!.id)).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
    expect(smtp!.mails.length).toBe(mailsBefore + 1);
    expect((await deliveryRows(group!.id)).map((row) => row.step)).toEqual([1, 2]);
    expect((await detail(group!.id, replicas[0]!)).state).toBe('acknowledged');

    // the link as sent, opened again at its own origin, says it is done
    await page.goto(link.toString());
    await expect(page.getByRole('heading', { name: 'Already acknowledged' })).toBeVisible();
    await shoot(page, 'acknowledged', { fullPage: true });
  } finally {
    await receiver.stop();
  }
});

test('ten breakers depending on a domain whose site goes down join its alert group: the domain pages once, the children never', async () => {
  test.setTimeout(90_000);
  const receiver = await startWebhookReceiver({ secret: SECRET });
  try {
    const host = `payments-db.${servers!.suffix}`;
    await servers!.addHost(host);
    const domain = await created<{ id: number; domain: string }>('/api/domains', { domain: host });
    const [verification] = await json<{ recordName: string; recordValue: string }[]>(
      siteApi(replicas[0]!, cookie, `/api/domain-verifications?domainId=${domain.id}`),
      200,
    );
    servers!.addRecord(verification!.recordName, 'TXT', verification!.recordValue);
    await json(siteApi(replicas[0]!, cookie, `/api/domains/${domain.id}/verify`, 'POST'), 202);
    const statusOf = async () => (await json<{ status: string }>(siteApi(replicas[1]!, cookie, `/api/domains/${domain.id}`), 200)).status;
    await expect.poll(statusOf, { timeout: 30_000 }).toBe('active');

    // the domain's alerts page through a webhook step; the breakers' openings page too, when nothing they depend on is the cause
    const hook = await created('/api/notification-channels', {
      name: 'dependencies-hook',
      type: 'webhook',
      url: receiver.url,
      secret: SECRET,
    });
    const domainPolicy = await created('/api/escalation-policies', {
      name: 'Database escalation',
      steps: [{ notify: { channels: [hook.id] }, waitMinutes: 60 }],
    });
    await created('/api/notification-rules', {
      name: 'Database pages',
      events: ['domain.alert.opened'],
      domains: [host],
      escalationPolicyId: domainPolicy.id,
    });
    const children: { id: number; name: string }[] = [];
    for (let index = 0; index < 10; index++)
      children.push(await createBreaker(replicas[index % 2]!, cookie, `Depends on the database ${index}`));
    const bystander = await createBreaker(replicas[0]!, cookie, 'Depends on nothing');
    const breakerPolicy = await created('/api/escalation-policies', {
      name: 'Breakers escalation',
      steps: [{ notify: { channels: [hook.id] }, waitMinutes: 60 }],
    });
    await created('/api/notification-rules', {
      name: 'Breakers page',
      events: ['breaker.opened'],
      breakers: [...children, bystander].map((breaker) => breaker.name),
      escalationPolicyId: breakerPolicy.id,
    });
    for (const [index, child] of children.entries()) {
      await json(
        siteApi(replicas[index % 2]!, cookie, `/api/circuit-breakers/${child.id}/dependencies`, 'PUT', {
          dependsOn: [{ kind: 'domain', id: domain.id }],
        }),
        200,
      );
    }

    // the domain's site goes down: after its failed checks in a row, its site_down alert opens the domain's group
    servers!.setSite(host, { status: 503 });
    await expect.poll(async () => (await groupsOf(`domain:${domain.id}`)).length, { timeout: 45_000 }).toBe(1);
    const [group] = await groupsOf(`domain:${domain.id}`);
    expect(group).toMatchObject({ state: 'firing', causedCount: 0 });
    expect(group!.title).toContain(host);
    const alerts = await json<{ alertType: string; status: string }[]>(
      siteApi(replicas[1]!, cookie, `/api/domain-alerts?domainId=${domain.id}`),
      200,
    );
    expect(alerts.filter((alert) => alert.status === 'open').map((alert) => alert.alertType)).toEqual(['site_down']);
    await expect.poll(() => stepMessages(receiver, group!.id, 1).length, { timeout: 15_000 }).toBe(1);

    // the ten breakers open, on both replicas: each joins the domain's group as caused by it, none opens its own
    for (const [index, child] of children.entries()) await forceOpen(replicas[index % 2]!, child.id);
    await expect.poll(async () => (await detail(group!.id)).causedCount, { timeout: 20_000 }).toBe(10);
    for (const child of children) expect(await groupsOf(`breaker:${child.id}`)).toEqual([]);
    const caused = (await detail(group!.id)).timeline.filter((entry) => entry.kind === 'caused');
    expect(caused.map((entry) => entry.subject?.name).sort()).toEqual(children.map((child) => child.name).sort());
    const shown = await json<{ quietedBy: { groupId: number } | null }>(
      siteApi(replicas[0]!, cookie, `/api/circuit-breakers/${children[3]!.id}/dependencies`),
      200,
    );
    expect(shown.quietedBy).toMatchObject({ groupId: group!.id });

    // all of it paged once: what is left to arrive would arrive well within this
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.signatureValid).toBe(true);
    expect(receiver.received[0]!.body).toMatchObject({ type: 'domain.alert.opened', data: { alertGroup: { id: group!.id, step: 1 } } });
    expect((await deliveryRows(group!.id)).map((row) => row.step)).toEqual([1]);
    const { rows } = await db!.query<{ count: string }>(
      `SELECT count(*) FROM notification_deliveries d JOIN alert_groups g ON g.id = d.alert_group_id
       WHERE g.subject_kind = 'breaker' AND g.subject_id = ANY($1::int[])`,
      [children.map((child) => child.id)],
    );
    expect(Number(rows[0]!.count)).toBe(0);

    // the same rule pages for a breaker that depends on nothing: the children were quiet because of the domain
    await forceOpen(replicas[1]!, bystander.id);
    await expect.poll(async () => (await groupsOf(`breaker:${bystander.id}`)).length, { timeout: 15_000 }).toBe(1);
    const [own] = await groupsOf(`breaker:${bystander.id}`);
    await expect.poll(() => stepMessages(receiver, own!.id, 1).length, { timeout: 15_000 }).toBe(1);
    expect(receiver.received).toHaveLength(2);
    expect((await detail(group!.id)).causedCount).toBe(10);
  } finally {
    await receiver.stop();
  }
});
