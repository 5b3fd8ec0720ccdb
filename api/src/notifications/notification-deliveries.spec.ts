import type { ChannelView } from '@cbh/contracts';
import { eventually } from '../../test/test-api';
import { startWebhookReceiver } from '../../test/webhook-receiver';
import { NotificationOutbox } from './notification-outbox.service';
import { json, notificationsApiForThisFile, SECRET } from './notifications.test-kit';

/*
 * What a rule's events become at the receiver: a signed webhook with the contract's headers and body, retries of
 * what may pass later and none of what will not, one flapping event for many openings, stuck-open breakers, muting
 * by a maintenance window, domain alerts, and Slack and e-mail.
 */
const { spec, post, webhookChannel, rule, deliveries, freshBreaker, forceOpen, reset } = notificationsApiForThisFile();

describe('delivery', () => {
  it('delivers a forced opening once, signed, with the contract headers and body, and logs it delivered', async () => {
    const breaker = await freshBreaker('payments-once');
    const channel = await webhookChannel('once');
    await rule({ name: 'opened once', events: ['breaker.opened'], channelIds: [channel.id], breakers: [breaker.name] });
    const before = spec.receiver.received.length;
    expect((await forceOpen(breaker.id)).status).toBe(200);
    await spec.receiver.waitFor(before + 1);
    const got = spec.receiver.received.slice(before);
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
    expect(spec.receiver.received.slice(before)).toHaveLength(1);
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
      expect((await forceOpen(breaker.id, i % 2 ? spec.second : spec.api)).status).toBe(200);
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
    await spec.api.sql(
      `INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, at) VALUES ($1, 'CLOSED', 'OPEN', 'failures', now() - interval '20 minutes')`,
      [breaker.id],
    );
    const outbox = spec.api.app.get(NotificationOutbox);
    await outbox.sweepStuckOpen();
    await spec.second.app.get(NotificationOutbox).sweepStuckOpen();
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
    const [domain] = await spec.api.sql(
      "INSERT INTO domains (domain, verification_token) VALUES ('alerts.example.com', 'token') RETURNING id",
    );
    const [low] = await spec.api.sql(
      "INSERT INTO domain_alerts (domain_id, alert_type, severity, message) VALUES ($1, 'domain_down', 'low', 'slow') RETURNING id",
      [domain.id],
    );
    const [critical] = await spec.api.sql(
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
    const mailsBefore = spec.smtp.mails.length;
    await forceOpen(breaker.id);
    await slack.waitFor(1, 5000);
    const { text, blocks } = slack.received[0]!.body as { text: string; blocks: unknown[] };
    expect(text).toContain('chatty');
    expect(JSON.stringify(blocks)).toContain(`/circuit-breakers/${breaker.id}`);
    expect(await eventually(async () => spec.smtp.mails.length > mailsBefore, 5000)).toBe(true);
    const mail = spec.smtp.mails[spec.smtp.mails.length - 1]!;
    expect(mail.to.sort()).toEqual(['lead@example.com', 'oncall@example.com']);
    expect(mail.raw).toContain('chatty');
    await slack.stop();
  });
});
