import { expect, test } from './support/test';
import { Client } from 'pg';
import { startWebhookReceiver, type WebhookReceiver } from '../api/test/webhook-receiver';
import { ACCOUNTS_ENV, ownDatabase, startSite, type Site } from './support/server';
import { apiSignIn, createBreaker, siteApi } from './support/site-api';
import { signIn } from './support/sign-in';
import { freePort } from '../tools/testing/free-port.mjs';
import { shoot } from './support/shots';

const SECRET = 'whsec-shared-by-the-hub-and-the-receiver';

/**
 * Two replicas of the production build on a database of their own, each allowed to call the receivers on 127.0.0.1:
 * the notifications a browser sets up reach a real webhook receiver that checks their signature, once each, whichever
 * replica raised the event or delivers it, and also when the replica holding a delivery is killed mid-try. (Every
 * replica on a database delivers: the suite's main site, which may not call loopback addresses, must not share this
 * outbox.)
 */
const DATABASE = `notifications_e2e_${process.pid}`;
let databaseUrl: string;
let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
let env: Record<string, string>;
let replicas: Site[];
let receiver: WebhookReceiver;
let cookie: string;
let db: Client;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await ownDatabase(DATABASE);
  databaseUrl = database.url;
  const ports = [await freePort(), await freePort()];
  env = { ...ACCOUNTS_ENV, DATABASE_URL: databaseUrl, PUBLIC_URL: `http://127.0.0.1:${ports[0]}`, ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' };
  // the first replica migrates the new database before the second starts
  replicas = [await startSite({ port: ports[0]!, env })];
  replicas.push(await startSite({ port: ports[1]!, env }));
  receiver = await startWebhookReceiver({ secret: SECRET });
  cookie = await apiSignIn(replicas[0]!);
  db = new Client({ connectionString: databaseUrl });
  await db.connect();
});
test.afterAll(async () => {
  await db?.end();
  await receiver?.stop();
  for (const replica of replicas ?? []) await replica.stop();
  await database?.drop();
});

async function json<T>(response: Promise<Response>, status: number): Promise<T> {
  const answered = await response;
  expect(answered.status, await answered.clone().text()).toBe(status);
  return (await answered.json()) as T;
}

/** A webhook channel to its own receiver and a rule for it, through the API. */
async function channelAndRule(name: string, url: string, rule: Record<string, unknown>) {
  const channel = await json<{ id: string }>(
    siteApi(replicas[0]!, cookie, '/api/notification-channels', 'POST', { name, type: 'webhook', url, secret: SECRET }),
    201,
  );
  await json(siteApi(replicas[0]!, cookie, '/api/notification-rules', 'POST', { name, channelIds: [channel.id], ...rule }), 201);
  return channel;
}

const forceOpen = (site: Site, id: number) => json(siteApi(site, cookie, `/api/circuit-breakers/${id}/force-open`, 'POST'), 200);
const reset = (site: Site, id: number) => json(siteApi(site, cookie, `/api/circuit-breakers/${id}/reset`, 'POST'), 200);

test('ten openings in a minute on two replicas send one breaker.flapping, and every other event once', async () => {
  test.setTimeout(60_000);
  const flaps = await startWebhookReceiver({ secret: SECRET });
  try {
    const breaker = await createBreaker(replicas[0]!, cookie, 'Flapping on two replicas');
    await channelAndRule('flapping', flaps.url, {
      events: ['breaker.opened', 'breaker.flapping'],
      breakers: [breaker.name],
      flappingOpenings: 5,
      flappingMinutes: 1,
    });
    for (let i = 0; i < 10; i++) {
      await forceOpen(replicas[i % 2]!, breaker.id);
      await reset(replicas[(i + 1) % 2]!, breaker.id);
    }
    await flaps.waitFor(2).catch(async (error: Error) => {
      const { rows } = await db.query(
        `SELECT d.event_type, d.status, d.attempts, d.last_error FROM notification_deliveries d JOIN notification_channels c ON c.id = d.channel_id
         WHERE c.name = 'flapping' ORDER BY d.seq`,
      );
      const events = await db.query(
        'SELECT type, occurred_at, dispatched_at FROM notification_events WHERE subject_name = $1 ORDER BY id',
        [breaker.name],
      );
      throw new Error(`${error.message}: ${JSON.stringify(rows)} ${JSON.stringify(events.rows)}`);
    });
    // what is left to arrive would arrive well within this
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(flaps.received.map((hook) => hook.body.type).sort()).toEqual(['breaker.flapping', 'breaker.opened']);
    expect(flaps.received.every((hook) => hook.signatureValid)).toBe(true);
    expect(flaps.received.find((hook) => hook.body.type === 'breaker.flapping')!.body.data).toMatchObject({ openings: 6, minutes: 1 });
  } finally {
    await flaps.stop();
  }
});

test('a replica killed with a delivery in flight: the other delivers it once, with the same id', async () => {
  test.setTimeout(90_000);
  const held = await startWebhookReceiver({ secret: SECRET });
  const spare = await startSite({ port: await freePort(), env });
  try {
    const breaker = await createBreaker(replicas[0]!, cookie, 'Killed mid-delivery');
    await channelAndRule('killed mid-delivery', held.url, { events: ['breaker.opened'], breakers: [breaker.name] });
    // the receiver takes the request and does not answer: the replica that sent it holds the delivery
    held.setMode({ hold: true });
    await forceOpen(replicas[0]!, breaker.id);
    const [first] = await held.waitFor(1);
    const deliveryId = first!.headers['x-cbh-delivery'] as string;
    const { rows } = await db.query('SELECT lease_owner FROM notification_deliveries WHERE id = $1', [deliveryId]);
    const sites = [...replicas, spare];
    const instances = await Promise.all(
      sites.map(async (site) => ((await (await fetch(`${site.url}/api/health`)).json()) as { instance: string }).instance),
    );
    const holder = sites[instances.indexOf(rows[0].lease_owner)]!;
    expect(holder).toBeDefined();
    held.setMode({ status: 200 });
    await holder.stop('SIGKILL');
    // the held request's connection died with the replica; another replica takes the delivery over when its lease lapses
    const [, retry] = await held.waitFor(2, 40_000).catch(async (error: Error) => {
      const { rows: found } = await db.query(
        'SELECT status, attempts, last_error, lease_owner, lease_until, now() FROM notification_deliveries WHERE id = $1',
        [deliveryId],
      );
      throw new Error(`${error.message}: ${JSON.stringify(found)} ${instances.join()} killed ${rows[0].lease_owner}`);
    });
    expect(retry!.headers['x-cbh-delivery']).toBe(deliveryId);
    expect(retry!.signatureValid).toBe(true);
    await expect
      .poll(async () => (await db.query('SELECT status, attempts FROM notification_deliveries WHERE id = $1', [deliveryId])).rows[0], {
        timeout: 10_000,
      })
      .toEqual({ status: 'delivered', attempts: 2 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(held.acknowledged()).toHaveLength(1);
    if (holder !== spare) {
      // the test's later steps need two replicas: the spare stands in for the one killed
      replicas[replicas.indexOf(holder)] = spare;
      cookie = await apiSignIn(replicas[0]!);
    }
  } finally {
    if (replicas.includes(spare) === false) await spare.stop();
    await held.stop();
  }
});

test('in the browser: a webhook channel and a rule made on /notifications, a breaker forced open, one signed delivery, retried while the receiver is down', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: replicas[0]!.url });
  const page = await context.newPage();
  try {
    await signIn(page);
    const breaker = await createBreaker(replicas[0]!, cookie, 'Paged from the browser');
    await page.goto('/notifications');

    // the channel: the form says what is wrong as it is typed
    await page.getByRole('button', { name: 'Add channel' }).click();
    const channelForm = page.getByRole('dialog', { name: 'Add channel' });
    await channelForm.getByLabel('Name').fill('On-call webhook');
    await channelForm.getByLabel('Type').selectOption({ label: 'Webhook' });
    await channelForm.getByLabel('URL').fill('ftp://example.com');
    await expect(channelForm.getByText('must be an https URL')).toBeVisible();
    await channelForm.getByLabel('URL').fill(receiver.url);
    await expect(channelForm.getByText('must be an https URL')).toHaveCount(0);
    await channelForm.getByLabel('Secret').fill(SECRET);
    await channelForm.getByRole('button', { name: 'Save' }).click();
    await expect(channelForm).toHaveCount(0);
    const channelRow = page.getByRole('region', { name: 'Notification channels' }).getByRole('row').filter({ hasText: 'On-call webhook' });
    await expect(channelRow).toContainText('••• set');

    // the rule: openings of this breaker, every one (no minimum interval)
    await page.getByRole('button', { name: 'Add rule' }).click();
    const ruleForm = page.getByRole('dialog', { name: 'Add rule' });
    await ruleForm.getByLabel('Name').fill('Page on-call');
    await ruleForm.getByRole('checkbox', { name: 'Breaker opened' }).check();
    await ruleForm.getByRole('checkbox', { name: 'On-call webhook' }).check();
    await ruleForm.getByLabel('Breakers').fill(breaker.name);
    await ruleForm.getByLabel('Minimum interval (minutes)').fill('0');
    await ruleForm.getByRole('button', { name: 'Save' }).click();
    await expect(ruleForm).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Notification rules' })).toContainText('Page on-call');

    // Force open on the breaker's page: the receiver gets one signed delivery
    const before = receiver.received.length;
    await page.goto(`/circuit-breakers/${breaker.id}`);
    await page.getByRole('button', { name: 'Force open' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Force open' }).click();
    const forcedAt = Date.now();
    await receiver.waitFor(before + 1);
    test.info().annotations.push({ type: 'force open → webhook received', description: `${receiver.received[before]!.at - forcedAt} ms` });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]!.signatureValid).toBe(true);
    expect(got[0]!.body).toMatchObject({ type: 'breaker.opened', data: { breaker: { name: breaker.name } } });

    // the log shows it delivered
    await page.goto('/notifications');
    const log = page.getByRole('region', { name: 'Deliveries' });
    const rows = log.getByRole('row').filter({ hasText: 'Breaker opened' }).filter({ hasText: breaker.name });
    await expect(rows.first()).toContainText('Delivered');
    await expect(rows.first()).toContainText('200');

    // the receiver goes down: the next opening is retried, and the log shows the tries
    await receiver.down();
    await json(siteApi(replicas[0]!, cookie, `/api/circuit-breakers/${breaker.id}/reset`, 'POST'), 200);
    await json(siteApi(replicas[1]!, cookie, `/api/circuit-breakers/${breaker.id}/force-open`, 'POST'), 200);
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText('Pending');
    await expect(rows.first()).toContainText(/ECONNREFUSED|refused/i);
    await expect(rows.first().getByRole('cell').nth(6)).toHaveText(/^[2-9]$/, { timeout: 20_000 });
    // back up: delivered once, with the id every try carried
    await receiver.up();
    await expect(rows.first()).toContainText('Delivered', { timeout: 40_000 });
    const retried = receiver.received.slice(before + 1);
    expect(retried).toHaveLength(1);
    expect(retried[0]!.signatureValid).toBe(true);
    await shoot(page, 'notifications', { fullPage: true });
  } finally {
    await context.close();
  }
});
