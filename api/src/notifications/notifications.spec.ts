import type { BreakerConfigView, ChannelView, DeliveryPage, DeliveryView, RuleView, TestDeliveryView } from '@cbh/contracts';
import { DEMO_PASSWORD, eventually, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../test/test-api';
import { startSmtpSink } from '../../test/smtp-sink';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';
import { NotificationOutbox } from './notification-outbox.service';

const SESSION_SECRET = 'a-session-secret-the-two-replicas-of-this-file-share';
const SECRET = 'whsec-the-receiver-and-the-hub-share';
// loopback 127.0.0.1 only: the receivers listen there, and 127.0.0.2 stands for a private address outside the ranges
const ENV = { SESSION_SECRET, ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' };

let api: TestApi;
let second: TestApi;
let admin: string;
let receiver: WebhookReceiver;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  smtp = await startSmtpSink();
  api = await startTestApi({ ...ENV, SMTP_URL: smtp.url });
  second = await startTestApi({ ...ENV, SMTP_URL: smtp.url, DATABASE_URL: api.databaseUrl });
  admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  receiver = await startWebhookReceiver({ secret: SECRET });
});
afterAll(async () => {
  await second?.stop();
  await api?.stop();
  await receiver?.stop();
  await smtp?.stop();
});

const post = (path: string, body: unknown, replica = api, cookie = admin) => replica.call(path, { method: 'POST', body, cookie });
const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;

async function webhookChannel(name: string, url = receiver.url, secret: string | undefined = SECRET): Promise<ChannelView> {
  const response = await post('/api/notification-channels', { name, type: 'webhook', url, ...(secret ? { secret } : {}) });
  expect(response.status).toBe(201);
  return json<ChannelView>(response);
}

async function rule(body: Record<string, unknown>): Promise<RuleView> {
  const response = await post('/api/notification-rules', body);
  expect(response.status).toBe(201);
  return json<RuleView>(response);
}

async function deliveries(query = ''): Promise<DeliveryView[]> {
  return (await json<DeliveryPage>(api.call(`/api/notification-deliveries?limit=200${query}`, { cookie: admin }))).items;
}

const forceOpen = (id: number, replica = api) => post(`/api/circuit-breakers/${id}/force-open`, undefined, replica);
const reset = (id: number, replica = api) => post(`/api/circuit-breakers/${id}/reset`, undefined, replica);

/** A breaker of its own for each test, so their events do not mix. */
async function freshBreaker(name: string): Promise<BreakerConfigView> {
  const response = await post('/api/circuit-breakers', {
    name,
    type: 'simple',
    failureThreshold: 5,
    timeout: 60000,
    recoveryTime: 30000,
    successThreshold: 2,
  });
  expect(response.status).toBe(201);
  return json<BreakerConfigView>(response);
}

describe('channels', () => {
  it('keeps a webhook URL and secret sealed and never sends them back: the view says they are set', async () => {
    const channel = await webhookChannel('sealed', `${receiver.url}?token=do-not-leak`);
    expect(channel).toMatchObject({
      name: 'sealed',
      type: 'webhook',
      urlSet: true,
      secretSet: true,
      urlHost: `127.0.0.1:${receiver.port}`,
    });
    const listed = JSON.stringify(await json(api.call('/api/notification-channels', { cookie: admin })));
    expect(listed).not.toContain('do-not-leak');
    expect(listed).not.toContain(SECRET);
    const [row] = await api.sql('SELECT url_sealed, secret_sealed FROM notification_channels WHERE id = $1', [channel.id]);
    expect(row.url_sealed).not.toContain('do-not-leak');
    expect(row.secret_sealed).not.toContain(SECRET);
    const [audit] = await api.sql("SELECT after FROM audit_entries WHERE action = 'notification-channel.create' AND target_id = $1", [
      channel.id,
    ]);
    expect(JSON.stringify(audit.after)).not.toContain('do-not-leak');
    expect((await api.call(`/api/notification-channels/${channel.id}`, { method: 'DELETE', cookie: admin })).status).toBe(204);
  });

  it.each([
    [{ name: 'x', type: 'webhook', url: 'ftp://example.com/hook' }, 'url: must be an https URL'],
    [{ name: 'x', type: 'webhook' }, 'url: is required'],
    [{ name: 'x', type: 'email', recipients: [] }, 'recipients: name at least one address'],
    [{ name: 'x', type: 'email', recipients: ['not-an-address'] }, 'recipients.0: must be an e-mail address'],
    [{ name: 'x', type: 'pager', url: 'https://example.com' }, 'type: must be one of email, webhook, slack, discord, log'],
    [{ name: 'x', type: 'slack', url: 'https://example.com', secret: 'a-long-secret' }, 'secret: signs webhook channels only'],
    [{ name: 'x', type: 'log', url: 'https://example.com' }, 'url: is for webhook, Slack and Discord channels'],
    [{ name: 'x', type: 'log', recipients: ['ops@example.com'] }, 'recipients: are for e-mail channels'],
    [
      { name: 'x', type: 'webhook', url: 'http://169.254.169.254/latest/meta-data' },
      'url: Refused to call 169.254.169.254 (169.254.169.254): a link-local or metadata address',
    ],
    [
      { name: 'x', type: 'webhook', url: 'http://93.184.216.34/hook' },
      'url: Refused to call 93.184.216.34 (93.184.216.34): a public address, which plain http may not reach',
    ],
    [
      { name: 'x', type: 'webhook', url: 'http://127.0.0.2:9/hook' },
      'url: Refused to call 127.0.0.2 (127.0.0.2): a loopback or private address outside the allowed ranges',
    ],
  ])('refuses %j with a 400 naming the field', async (body, message) => {
    const response = await post('/api/notification-channels', body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ statusCode: 400, error: 'Bad Request', message });
  });

  it("keeps a webhook's secret for its URL's origin only: a URL on another origin needs the secret again (400 naming the field)", async () => {
    const channel = await webhookChannel('moving');
    const patch = (body: unknown) => api.call(`/api/notification-channels/${channel.id}`, { method: 'PATCH', body, cookie: admin });
    const moved = await patch({ url: 'http://127.0.0.1:9/hook' });
    expect(moved.status).toBe(400);
    expect((await moved.json()).message).toBe(
      'secret: the URL moves to http://127.0.0.1:9; give the secret again for it, or null to send without one',
    );
    // refused, it still signs for the receiver
    const result = await json<TestDeliveryView>(post(`/api/notification-channels/${channel.id}/test`, undefined));
    expect(result).toMatchObject({ status: 'delivered', statusCode: 200 });
    expect(receiver.received.at(-1)!.signatureValid).toBe(true);
    // the same origin keeps it; given again, or null, the URL moves
    expect(await json(patch({ url: `${receiver.url}?path=same-origin` }))).toMatchObject({ secretSet: true });
    expect(await json(patch({ url: 'http://127.0.0.1:9/hook', secret: SECRET }))).toMatchObject({
      urlHost: '127.0.0.1:9',
      secretSet: true,
    });
    expect(await json(patch({ url: receiver.url, secret: null }))).toMatchObject({
      urlHost: `127.0.0.1:${receiver.port}`,
      secretSet: false,
    });
    expect((await api.call(`/api/notification-channels/${channel.id}`, { method: 'DELETE', cookie: admin })).status).toBe(204);
  });

  it('sends a test and answers what the receiver said, or why it could not be reached', async () => {
    const channel = await webhookChannel('test-me');
    const before = receiver.received.length;
    const result = await json<TestDeliveryView>(post(`/api/notification-channels/${channel.id}/test`, undefined));
    expect(result).toMatchObject({ status: 'delivered', statusCode: 200, error: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    const [delivery] = receiver.received.slice(before);
    expect(delivery!.headers['x-cbh-event']).toBe('notification.test');
    expect(delivery!.signatureValid).toBe(true);

    receiver.setMode({ status: 404 });
    try {
      const refused = await json<TestDeliveryView>(post(`/api/notification-channels/${channel.id}/test`, undefined));
      expect(refused).toMatchObject({ status: 'failed', statusCode: 404 });
      expect(refused.error).toContain('HTTP 404');
    } finally {
      receiver.setMode({ status: 200 });
    }
    const channels = await json<ChannelView[]>(api.call('/api/notification-channels', { cookie: admin }));
    expect(channels.find((each) => each.id === channel.id)!.lastDelivery).toMatchObject({ status: 'failed', statusCode: 404 });
  });

  it('is refused (403) without circuit_breaker_admin, and a rule of domain events without domain_management', async () => {
    const operator = await signIn(api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
    for (const response of [
      await api.call('/api/notification-channels', { cookie: operator }),
      await post('/api/notification-rules', { name: 'r', events: ['breaker.opened'], channelIds: [] }, api, operator),
      await api.call('/api/notification-deliveries', { cookie: operator }),
    ]) {
      expect(response.status).toBe(403);
    }
    const [demoAdmin] = await api.sql("SELECT id FROM users WHERE email = 'admin@demo.example.com'");
    await api.call(`/api/users/${demoAdmin.id}/permissions`, {
      method: 'PATCH',
      cookie: admin,
      body: { permissions: ['dashboard_view', 'circuit_breaker_view', 'circuit_breaker_admin'] },
    });
    const breakerAdmin = await signIn(api.baseUrl, 'admin@demo.example.com', DEMO_PASSWORD);
    const channel = await webhookChannel('for-breaker-admins');
    const domainRule = await post(
      '/api/notification-rules',
      { name: 'domains', events: ['domain.alert.opened'], channelIds: [channel.id] },
      api,
      breakerAdmin,
    );
    expect(domainRule.status).toBe(403);
    expect(await domainRule.json()).toMatchObject({ message: 'Requires the domain_management permission to notify about domain events' });
    const breakerRule = await post(
      '/api/notification-rules',
      { name: 'breakers only', events: ['breaker.opened'], channelIds: [channel.id], breakers: ['none-such'] },
      api,
      breakerAdmin,
    );
    expect(breakerRule.status).toBe(201);

    // routing, redirecting or muting domain alerts is reading them: none of it without domain_management
    const domainChannel = await webhookChannel('domain alerts only');
    const routed = await rule({ name: 'domain alerts', events: ['domain.alert.opened'], channelIds: [domainChannel.id] });
    const asBreakerAdmin = (path: string, method: string, body?: unknown) => api.call(path, { method, body, cookie: breakerAdmin });
    const refusals = [
      await asBreakerAdmin(`/api/notification-channels/${domainChannel.id}`, 'PATCH', { url: 'http://127.0.0.1:9/elsewhere' }),
      await asBreakerAdmin(`/api/notification-channels/${domainChannel.id}`, 'DELETE'),
      await asBreakerAdmin(`/api/notification-rules/${routed.id}`, 'PATCH', { events: ['breaker.opened'] }),
      await asBreakerAdmin(`/api/notification-rules/${routed.id}`, 'DELETE'),
      await asBreakerAdmin('/api/maintenance-windows', 'POST', {
        name: 'everything',
        startsAt: '2020-01-01T00:00:00Z',
        endsAt: '2999-01-01T00:00:00Z',
      }),
      await asBreakerAdmin('/api/maintenance-windows', 'POST', {
        name: 'a domain',
        startsAt: '2020-01-01T00:00:00Z',
        endsAt: '2999-01-01T00:00:00Z',
        domains: ['example.com'],
      }),
    ];
    expect(refusals.map((response) => response.status)).toEqual([403, 403, 403, 403, 403, 403]);
    const breakerWindow = await asBreakerAdmin('/api/maintenance-windows', 'POST', {
      name: 'breakers only',
      startsAt: '2020-01-01T00:00:00Z',
      endsAt: '2020-01-02T00:00:00Z',
      breakers: ['none-such'],
    });
    expect(breakerWindow.status).toBe(201);
    const rulesSeen = await json<RuleView[]>(asBreakerAdmin('/api/notification-rules', 'GET'));
    expect(rulesSeen.map((each) => each.name)).not.toContain('domain alerts');
    expect(rulesSeen.map((each) => each.name)).toContain('breakers only');
  });
});

describe('rules', () => {
  it.each([
    [{ name: 'r', events: ['breaker.exploded'], channelIds: ['0b8e5f0e-4a43-4b0a-9d4c-0b1f5c1f7a11'] }, 'events.0: must be one of'],
    [
      { name: 'r', events: ['breaker.opened'], channelIds: ['0b8e5f0e-4a43-4b0a-9d4c-0b1f5c1f7a11'] },
      'channelIds: no channel with id 0b8e5f0e-4a43-4b0a-9d4c-0b1f5c1f7a11',
    ],
    [{ name: 'r', events: [], channelIds: ['0b8e5f0e-4a43-4b0a-9d4c-0b1f5c1f7a11'] }, 'events: name at least one event type'],
    [{ name: 'r', events: ['breaker.opened'], channelIds: ['nope'] }, 'channelIds.0: must be a channel id'],
  ])('refuses %j with a 400 naming the field', async (body, message) => {
    const response = await post('/api/notification-rules', body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain(message);
  });
});

describe('delivery', () => {
  it('delivers a forced opening once, signed, with the contract headers and body, and logs it delivered', async () => {
    const breaker = await freshBreaker('payments-once');
    const channel = await webhookChannel('once');
    await rule({ name: 'opened once', events: ['breaker.opened'], channelIds: [channel.id], breakers: [breaker.name] });
    const before = receiver.received.length;
    expect((await forceOpen(breaker.id)).status).toBe(200);
    await receiver.waitFor(before + 1);
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(1);
    const [hook] = got;
    expect(hook!.signatureValid).toBe(true);
    expect(hook!.headers['x-cbh-event']).toBe('breaker.opened');
    expect(hook!.headers['x-cbh-delivery']).toBe(hook!.body.id);
    expect(Math.abs(Number(hook!.headers['x-cbh-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(Object.keys(hook!.body)).toEqual(['id', 'type', 'occurredAt', 'data']);
    expect(hook!.body).toMatchObject({
      type: 'breaker.opened',
      data: {
        breaker: { id: breaker.id, name: breaker.name, type: 'simple' },
        from: 'CLOSED',
        to: 'OPEN',
        url: expect.stringMatching(new RegExp(`/circuit-breakers/${breaker.id}$`)),
      },
    });
    expect(await eventually(async () => (await deliveries(`&channelId=${channel.id}`))[0]?.status === 'delivered')).toBe(true);
    const [logged] = await deliveries(`&channelId=${channel.id}`);
    expect(logged).toMatchObject({
      id: hook!.body.id,
      event: 'breaker.opened',
      subject: breaker.name,
      breakerId: breaker.id,
      attempts: 1,
      statusCode: 200,
      ruleName: 'opened once',
    });
    // a second opening a minute later would be suppressed by the 5-minute interval; the receiver got nothing more
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.slice(before)).toHaveLength(1);
  });

  it('retries 5xx answers and refused connections with backoff, then delivers once with the same id', async () => {
    const breaker = await freshBreaker('retried');
    const flaky = await startWebhookReceiver({ secret: SECRET });
    const channel = await webhookChannel('flaky', flaky.url);
    await rule({ name: 'retried rule', events: ['breaker.opened'], channelIds: [channel.id], breakers: [breaker.name] });
    flaky.setMode({ status: 503 });
    await forceOpen(breaker.id);
    await flaky.waitFor(1);
    await flaky.down();
    flaky.setMode({ status: 200 });
    // the first retry about 2 s (±20 %) after the failure is refused (down); the next, about 4 s later, reaches it
    // (attempts count from a claim: wait for the second one to have been refused, not merely begun)
    const secondRefused = async () => {
      const [delivery] = await deliveries(`&channelId=${channel.id}`);
      return delivery?.attempts === 2 && delivery.status === 'pending';
    };
    expect(await eventually(secondRefused, 6000)).toBe(true);
    const [waiting] = await deliveries(`&channelId=${channel.id}`);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 2 });
    expect(waiting!.lastError).toMatch(/ECONNREFUSED|refused/i);
    await flaky.up();
    await flaky.waitFor(2, 12_000);
    expect(await eventually(async () => (await deliveries(`&channelId=${channel.id}`))[0]?.status === 'delivered', 3000)).toBe(true);
    const ids = new Set(flaky.received.map((hook) => hook.headers['x-cbh-delivery']));
    expect(ids.size).toBe(1);
    expect(flaky.acknowledged()).toHaveLength(1);
    const [done] = await deliveries(`&channelId=${channel.id}`);
    expect(done).toMatchObject({ status: 'delivered', attempts: 3, statusCode: 200 });
    await flaky.stop();
  }, 30_000);

  it('treats a 4xx as final, and a failed delivery retried by hand is delivered', async () => {
    const breaker = await freshBreaker('refused-4xx');
    const strict = await startWebhookReceiver({ secret: SECRET });
    strict.setMode({ status: 410 });
    const channel = await webhookChannel('strict', strict.url);
    await rule({ name: 'strict rule', events: ['breaker.opened'], channelIds: [channel.id], breakers: [breaker.name] });
    await forceOpen(breaker.id);
    expect(await eventually(async () => (await deliveries(`&channelId=${channel.id}`))[0]?.status === 'failed', 5000)).toBe(true);
    const [failed] = await deliveries(`&channelId=${channel.id}&status=failed`);
    expect(failed).toMatchObject({ attempts: 1, statusCode: 410 });
    strict.setMode({ status: 200 });
    const retried = await post(`/api/notification-deliveries/${failed!.id}/retry`, undefined);
    expect(retried.status).toBe(200);
    expect(await eventually(async () => (await deliveries(`&channelId=${channel.id}`))[0]?.status === 'delivered', 5000)).toBe(true);
    expect((await post(`/api/notification-deliveries/${failed!.id}/retry`, undefined)).status).toBe(409);
    expect(strict.acknowledged()).toHaveLength(1);
    await strict.stop();
  });

  it('sends one breaker.flapping, not ten openings, when a breaker opens ten times in a minute', async () => {
    const breaker = await freshBreaker('flapper');
    const flapReceiver = await startWebhookReceiver({ secret: SECRET });
    const channel = await webhookChannel('flaps', flapReceiver.url);
    await rule({
      name: 'flapping',
      events: ['breaker.opened', 'breaker.flapping'],
      channelIds: [channel.id],
      breakers: [breaker.name],
      flappingOpenings: 5,
      flappingMinutes: 10,
    });
    for (let i = 0; i < 10; i++) {
      expect((await forceOpen(breaker.id, i % 2 ? second : api)).status).toBe(200);
      expect((await reset(breaker.id)).status).toBe(200);
    }
    await flapReceiver.waitFor(2);
    await eventually(async () => (await deliveries(`&channelId=${channel.id}`)).length >= 20, 5000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const types = flapReceiver.received.map((hook) => hook.body.type);
    expect(types.sort()).toEqual(['breaker.flapping', 'breaker.opened']);
    const flapping = flapReceiver.received.find((hook) => hook.body.type === 'breaker.flapping')!;
    expect(flapping.body.data).toMatchObject({ breaker: { name: breaker.name }, openings: 6, minutes: 10 });
    const log = await deliveries(`&channelId=${channel.id}`);
    expect(log.filter((row) => row.status === 'suppressed').length).toBe(9 + 4);
    await flapReceiver.stop();
  }, 20_000);

  it('with two replicas fans each event out once and delivers it once', async () => {
    const breaker = await freshBreaker('two-replicas');
    const twice = await startWebhookReceiver({ secret: SECRET });
    const channel = await webhookChannel('two-replicas', twice.url);
    await rule({
      name: 'replicas',
      events: ['breaker.opened', 'breaker.recovered'],
      channelIds: [channel.id],
      breakers: [breaker.name],
      minIntervalMinutes: 0,
    });
    for (let i = 0; i < 5; i++) {
      await forceOpen(breaker.id, i % 2 ? second : api);
      await reset(breaker.id, i % 2 ? api : second);
    }
    await twice.waitFor(10);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(twice.received).toHaveLength(10);
    expect(new Set(twice.received.map((hook) => hook.body.id)).size).toBe(10);
    await twice.stop();
  }, 20_000);

  it('without a minimum interval sends every event, whatever order the replicas fan them out in', async () => {
    const breaker = await freshBreaker('out-of-order');
    const everyReceiver = await startWebhookReceiver({ secret: SECRET });
    const channel = await webhookChannel('every', everyReceiver.url);
    await rule({
      name: 'every opening',
      events: ['breaker.opened'],
      channelIds: [channel.id],
      breakers: [breaker.name],
      minIntervalMinutes: 0,
    });
    // the later opening is written (and so fanned out) first, as when another replica took an earlier batch
    for (const secondsAgo of [1, 2]) {
      await api.sql(
        `INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, at) VALUES ($1, 'CLOSED', 'OPEN', 'failures', now() - make_interval(secs => $2))`,
        [breaker.id, secondsAgo],
      );
    }
    await everyReceiver.waitFor(2, 5000);
    const statuses = async () => (await deliveries(`&channelId=${channel.id}`)).map((row) => row.status).join();
    expect(await eventually(async () => (await statuses()) === 'delivered,delivered')).toBe(true);
    await everyReceiver.stop();
  });

  it('writes thousands of deliveries from one batch of events (a statement a few hundred at a time)', async () => {
    const breaker = await freshBreaker('many-channels');
    const channels: string[] = [];
    for (let i = 0; i < 30; i++) channels.push((await webhookChannel(`wide ${i}`)).id);
    await rule({ name: 'wide', events: ['breaker.opened'], channelIds: channels, breakers: [breaker.name], minIntervalMinutes: 0 });
    // muted, so that nothing is sent: the fan-out alone is under test
    await post('/api/maintenance-windows', {
      name: 'wide quiet',
      startsAt: new Date(Date.now() - 3600_000).toISOString(),
      endsAt: new Date(Date.now() + 3600_000).toISOString(),
      breakers: [breaker.name],
    });
    await api.sql(
      `INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, at)
       SELECT $1, 'CLOSED', 'OPEN', 'failures', now() - make_interval(secs => n) FROM generate_series(1, 200) AS n`,
      [breaker.id],
    );
    const muted = async () =>
      Number((await api.sql("SELECT count(*) AS n FROM notification_deliveries WHERE rule_name = 'wide' AND status = 'muted'"))[0].n);
    expect(await eventually(async () => (await muted()) === 6000, 15_000)).toBe(true);
  }, 30_000);

  it('gives one slow receiver at most a few tries at once per replica: other channels are still delivered', async () => {
    const slow = await startWebhookReceiver({ secret: SECRET });
    const quick = await startWebhookReceiver({ secret: SECRET });
    slow.setMode({ hold: true });
    const breaker = await freshBreaker('slow-and-quick');
    const slowChannel = await webhookChannel('slow', slow.url);
    await rule({
      name: 'slow rule',
      events: ['breaker.opened'],
      channelIds: [slowChannel.id],
      breakers: [breaker.name],
      minIntervalMinutes: 0,
    });
    await api.sql(
      `INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, at)
       SELECT $1, 'CLOSED', 'OPEN', 'failures', now() - make_interval(secs => n) FROM generate_series(1, 60) AS n`,
      [breaker.id],
    );
    await slow.waitFor(32);
    const quickChannel = await webhookChannel('quick', quick.url);
    expect((await post(`/api/notification-channels/${quickChannel.id}/test`, undefined, second)).status).toBe(200);
    const other = await freshBreaker('quick-one');
    await rule({ name: 'quick rule', events: ['breaker.opened'], channelIds: [quickChannel.id], breakers: [other.name] });
    await forceOpen(other.id);
    await quick.waitFor(2, 5000);
    // sixteen at a time on each of the two replicas, however many are due
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(slow.received.length).toBe(32);
    slow.release();
    slow.setMode({ status: 200 });
    await slow.stop();
    await quick.stop();
  }, 30_000);

  it('takes over a delivery whose replica died mid-try (its lease lapsed) and delivers it once', async () => {
    const orphanReceiver = await startWebhookReceiver({ secret: SECRET });
    const channel = await webhookChannel('orphan', orphanReceiver.url);
    const [row] = await api.sql(
      `INSERT INTO notification_deliveries (event_type, subject, occurred_at, payload, channel_id, status, attempts, lease_owner, lease_until)
       VALUES ('breaker.opened', 'ghost', now(), '{"url":"x"}', $1, 'delivering', 1, gen_random_uuid(), now() - interval '1 second')
       RETURNING id`,
      [channel.id],
    );
    await orphanReceiver.waitFor(1, 5000);
    expect(orphanReceiver.received[0]!.headers['x-cbh-delivery']).toBe(row.id);
    expect(await eventually(async () => (await deliveries(`&channelId=${channel.id}`))[0]?.status === 'delivered')).toBe(true);
    expect((await deliveries(`&channelId=${channel.id}`))[0]!.attempts).toBe(2);
    await orphanReceiver.stop();
  });

  it('mutes what a maintenance window covers, and logs it muted', async () => {
    const breaker = await freshBreaker('in-maintenance');
    const mutedReceiver = await startWebhookReceiver({ secret: SECRET });
    const channel = await webhookChannel('muted', mutedReceiver.url);
    await rule({ name: 'muted rule', events: ['breaker.opened'], channelIds: [channel.id], breakers: [breaker.name] });
    const window = await post('/api/maintenance-windows', {
      name: 'deploy',
      startsAt: new Date(Date.now() - 60_000).toISOString(),
      endsAt: new Date(Date.now() + 3600_000).toISOString(),
      breakers: [breaker.name],
    });
    expect(window.status).toBe(201);
    expect(await window.json()).toMatchObject({ active: true });
    await forceOpen(breaker.id);
    expect(await eventually(async () => (await deliveries(`&channelId=${channel.id}`))[0]?.status === 'muted', 5000)).toBe(true);
    expect((await deliveries(`&channelId=${channel.id}`))[0]!.lastError).toBe("Muted by maintenance window 'deploy'");
    expect(mutedReceiver.received).toHaveLength(0);
    await mutedReceiver.stop();
  });

  it('raises breaker.stuck_open once for a breaker open longer than the rule allows', async () => {
    const breaker = await freshBreaker('stuck');
    const stuckReceiver = await startWebhookReceiver({ secret: SECRET });
    const channel = await webhookChannel('stuck', stuckReceiver.url);
    await rule({
      name: 'stuck rule',
      events: ['breaker.stuck_open'],
      channelIds: [channel.id],
      breakers: [breaker.name],
      stuckOpenMinutes: 15,
    });
    await api.sql(
      `INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, at) VALUES ($1, 'CLOSED', 'OPEN', 'failures', now() - interval '20 minutes')`,
      [breaker.id],
    );
    const outbox = api.app.get(NotificationOutbox);
    await outbox.sweepStuckOpen();
    await second.app.get(NotificationOutbox).sweepStuckOpen();
    await stuckReceiver.waitFor(1, 5000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(stuckReceiver.received).toHaveLength(1);
    expect(stuckReceiver.received[0]!.body).toMatchObject({
      type: 'breaker.stuck_open',
      data: { breaker: { name: 'stuck' }, minutes: 15 },
    });
    await stuckReceiver.stop();
  });

  it('notifies domain alerts opened and resolved with their severity and type, filtered by severity', async () => {
    const domainReceiver = await startWebhookReceiver({ secret: SECRET });
    const channel = await webhookChannel('domains', domainReceiver.url);
    await rule({
      name: 'critical domains',
      events: ['domain.alert.opened', 'domain.alert.resolved'],
      channelIds: [channel.id],
      severities: ['critical'],
      minIntervalMinutes: 0,
    });
    const [domain] = await api.sql("INSERT INTO domains (domain, verification_token) VALUES ('alerts.example.com', 'token') RETURNING id");
    const [low] = await api.sql(
      "INSERT INTO domain_alerts (domain_id, alert_type, severity, message) VALUES ($1, 'domain_down', 'low', 'slow') RETURNING id",
      [domain.id],
    );
    const [critical] = await api.sql(
      "INSERT INTO domain_alerts (domain_id, alert_type, severity, message) VALUES ($1, 'ssl_expired', 'critical', 'The certificate expired') RETURNING id",
      [domain.id],
    );
    await domainReceiver.waitFor(1, 5000);
    const resolved = await post(`/api/domain-alerts/${critical.id}/resolve`, undefined);
    expect(resolved.status).toBeLessThan(300);
    await domainReceiver.waitFor(2, 5000);
    expect(domainReceiver.received.map((hook) => hook.body.type)).toEqual(['domain.alert.opened', 'domain.alert.resolved']);
    expect(domainReceiver.received[0]!.body.data).toMatchObject({
      domain: { name: 'alerts.example.com' },
      alert: { id: critical.id, type: 'ssl_expired', severity: 'critical', message: 'The certificate expired' },
    });
    expect(low.id).toBeDefined();
    await domainReceiver.stop();
  });
});

describe('chat and e-mail', () => {
  it('posts Slack text and blocks with the link, and e-mails every recipient', async () => {
    const slack = await startWebhookReceiver();
    const slackChannel = await json<ChannelView>(post('/api/notification-channels', { name: 'slack', type: 'slack', url: slack.url }));
    const mailChannel = await json<ChannelView>(
      post('/api/notification-channels', { name: 'on-call mail', type: 'email', recipients: ['oncall@example.com', 'lead@example.com'] }),
    );
    const breaker = await freshBreaker('chatty');
    await rule({ name: 'chat', events: ['breaker.opened'], channelIds: [slackChannel.id, mailChannel.id], breakers: [breaker.name] });
    const mailsBefore = smtp.mails.length;
    await forceOpen(breaker.id);
    await slack.waitFor(1, 5000);
    const { text, blocks } = slack.received[0]!.body as { text: string; blocks: unknown[] };
    expect(text).toContain('chatty');
    expect(JSON.stringify(blocks)).toContain(`/circuit-breakers/${breaker.id}`);
    expect(await eventually(async () => smtp.mails.length > mailsBefore, 5000)).toBe(true);
    const mail = smtp.mails[smtp.mails.length - 1]!;
    expect(mail.to.sort()).toEqual(['lead@example.com', 'oncall@example.com']);
    expect(mail.raw).toContain('chatty');
    await slack.stop();
  });
});

it('describes the notification routes in the API docs, with their bodies and who may call them', async () => {
  const document = await json<{
    paths: Record<
      string,
      Record<
        string,
        {
          description?: string;
          requestBody?: { content: Record<string, { schema: { properties: object } }> };
          parameters?: { name: string }[];
        }
      >
    >;
  }>(api.call('/api/docs/openapi.json'));
  const create = document.paths['/api/notification-channels']!.post!;
  expect(create.description).toContain('circuit_breaker_admin');
  expect(Object.keys(create.requestBody!.content['application/json']!.schema.properties)).toEqual([
    'name',
    'type',
    'url',
    'recipients',
    'secret',
  ]);
  expect(
    Object.keys(document.paths['/api/notification-rules']!.post!.requestBody!.content['application/json']!.schema.properties),
  ).toContain('channelIds');
  expect(document.paths['/api/notification-deliveries']!.get!.parameters!.map((parameter) => parameter.name)).toEqual([
    'limit',
    'before',
    'channelId',
    'event',
    'status',
  ]);
  expect(document.paths['/api/notification-channels/{id}/test']!.post).toBeDefined();
});
