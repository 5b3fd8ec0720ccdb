import type { ChannelView, RuleView, TestDeliveryView } from '@cbh/contracts';
import { DEMO_PASSWORD, signIn } from '../../test/test-api';
import { json, notificationsApiForThisFile, SECRET } from './notifications.test-kit';

/*
 * Notification channels and rules through the API: what a channel keeps sealed, what is refused and to whom, a
 * channel's test send, and the routes in the API docs. What the outbox then delivers is in
 * notification-deliveries.spec.ts and notification-outbox.spec.ts.
 */
const { spec, post, webhookChannel, rule } = notificationsApiForThisFile();

describe('channels', () => {
  it('keeps a webhook URL and secret sealed and never sends them back: the view says they are set', async () => {
    const channel = await webhookChannel('sealed', `${spec.receiver.url}?token=do-not-leak`);
    expect(channel).toMatchObject({
      name: 'sealed',
      type: 'webhook',
      urlSet: true,
      secretSet: true,
      urlHost: `127.0.0.1:${spec.receiver.port}`,
    });
    const listed = JSON.stringify(await json(spec.api.call('/api/notification-channels', { cookie: spec.admin })));
    expect(listed).not.toContain('do-not-leak');
    expect(listed).not.toContain(SECRET);
    const [row] = await spec.api.sql('SELECT url_sealed, secret_sealed FROM notification_channels WHERE id = $1', [channel.id]);
    expect(row.url_sealed).not.toContain('do-not-leak');
    expect(row.secret_sealed).not.toContain(SECRET);
    const [audit] = await spec.api.sql("SELECT after FROM audit_entries WHERE action = 'notification-channel.create' AND target_id = $1", [
      channel.id,
    ]);
    expect(JSON.stringify(audit.after)).not.toContain('do-not-leak');
    expect((await spec.api.call(`/api/notification-channels/${channel.id}`, { method: 'DELETE', cookie: spec.admin })).status).toBe(204);
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
    const patch = (body: unknown) =>
      spec.api.call(`/api/notification-channels/${channel.id}`, { method: 'PATCH', body, cookie: spec.admin });
    const moved = await patch({ url: 'http://127.0.0.1:9/hook' });
    expect(moved.status).toBe(400);
    expect((await moved.json()).message).toBe(
      'secret: the URL moves to http://127.0.0.1:9; give the secret again for it, or null to send without one',
    );
    // refused, it still signs for the receiver
    const result = await json<TestDeliveryView>(post(`/api/notification-channels/${channel.id}/test`, undefined));
    expect(result).toMatchObject({ status: 'delivered', statusCode: 200 });
    expect(spec.receiver.received.at(-1)!.signatureValid).toBe(true);
    // the same origin keeps it; given again, or null, the URL moves
    expect(await json(patch({ url: `${spec.receiver.url}?path=same-origin` }))).toMatchObject({ secretSet: true });
    expect(await json(patch({ url: 'http://127.0.0.1:9/hook', secret: SECRET }))).toMatchObject({
      urlHost: '127.0.0.1:9',
      secretSet: true,
    });
    expect(await json(patch({ url: spec.receiver.url, secret: null }))).toMatchObject({
      urlHost: `127.0.0.1:${spec.receiver.port}`,
      secretSet: false,
    });
    expect((await spec.api.call(`/api/notification-channels/${channel.id}`, { method: 'DELETE', cookie: spec.admin })).status).toBe(204);
  });

  it('sends a test and answers what the receiver said, or why it could not be reached', async () => {
    const channel = await webhookChannel('test-me');
    const before = spec.receiver.received.length;
    const result = await json<TestDeliveryView>(post(`/api/notification-channels/${channel.id}/test`, undefined));
    expect(result).toMatchObject({ status: 'delivered', statusCode: 200, error: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    const [delivery] = spec.receiver.received.slice(before);
    expect(delivery!.headers['x-cbh-event']).toBe('notification.test');
    expect(delivery!.signatureValid).toBe(true);

    spec.receiver.setMode({ status: 404 });
    try {
      const refused = await json<TestDeliveryView>(post(`/api/notification-channels/${channel.id}/test`, undefined));
      expect(refused).toMatchObject({ status: 'failed', statusCode: 404 });
      expect(refused.error).toContain('HTTP 404');
    } finally {
      spec.receiver.setMode({ status: 200 });
    }
    const channels = await json<ChannelView[]>(spec.api.call('/api/notification-channels', { cookie: spec.admin }));
    expect(channels.find((each) => each.id === channel.id)!.lastDelivery).toMatchObject({ status: 'failed', statusCode: 404 });
  });

  it('is refused (403) without circuit_breaker_admin, and a rule of domain events without domain_management', async () => {
    const operator = await signIn(spec.api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
    for (const response of [
      await spec.api.call('/api/notification-channels', { cookie: operator }),
      await post('/api/notification-rules', { name: 'r', events: ['breaker.opened'], channelIds: [] }, spec.api, operator),
      await spec.api.call('/api/notification-deliveries', { cookie: operator }),
    ]) {
      expect(response.status).toBe(403);
    }
    const [demoAdmin] = await spec.api.sql("SELECT id FROM users WHERE email = 'admin@demo.example.com'");
    await spec.api.call(`/api/users/${demoAdmin.id}/permissions`, {
      method: 'PATCH',
      cookie: spec.admin,
      body: { permissions: ['dashboard_view', 'circuit_breaker_view', 'circuit_breaker_admin'] },
    });
    const breakerAdmin = await signIn(spec.api.baseUrl, 'admin@demo.example.com', DEMO_PASSWORD);
    const channel = await webhookChannel('for-breaker-admins');
    const domainRule = await post(
      '/api/notification-rules',
      { name: 'domains', events: ['domain.alert.opened'], channelIds: [channel.id] },
      spec.api,
      breakerAdmin,
    );
    expect(domainRule.status).toBe(403);
    expect(await domainRule.json()).toMatchObject({ message: 'Requires the domain_management permission to notify about domain events' });
    const breakerRule = await post(
      '/api/notification-rules',
      { name: 'breakers only', events: ['breaker.opened'], channelIds: [channel.id], breakers: ['none-such'] },
      spec.api,
      breakerAdmin,
    );
    expect(breakerRule.status).toBe(201);

    // routing, redirecting or muting domain alerts is reading them: none of it without domain_management
    const domainChannel = await webhookChannel('domain alerts only');
    const routed = await rule({ name: 'domain alerts', events: ['domain.alert.opened'], channelIds: [domainChannel.id] });
    const asBreakerAdmin = (path: string, method: string, body?: unknown) => spec.api.call(path, { method, body, cookie: breakerAdmin });
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
  }>(spec.api.call('/api/docs/openapi.json'));
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
