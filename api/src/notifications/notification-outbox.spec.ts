import { eventually } from '../../test/test-api';
import { startWebhookReceiver } from '../../test/webhook-receiver';
import { notificationsApiForThisFile, SECRET } from './notifications.test-kit';

/*
 * The outbox shared by two replicas and under load: each event fanned out and delivered once, whatever order the
 * replicas write them in, thousands of deliveries from one batch, a slow receiver held to a few tries at once, and a
 * delivery whose replica died taken over.
 */
const { spec, post, webhookChannel, rule, deliveries, freshBreaker, forceOpen, reset } = notificationsApiForThisFile();

describe('delivery', () => {
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
      await forceOpen(breaker.id, i % 2 ? spec.second : spec.api);
      await reset(breaker.id, i % 2 ? spec.api : spec.second);
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
      await spec.api.sql(
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
    await spec.api.sql(
      `INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, at)
       SELECT $1, 'CLOSED', 'OPEN', 'failures', now() - make_interval(secs => n) FROM generate_series(1, 200) AS n`,
      [breaker.id],
    );
    const muted = async () =>
      Number((await spec.api.sql("SELECT count(*) AS n FROM notification_deliveries WHERE rule_name = 'wide' AND status = 'muted'"))[0].n);
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
    await spec.api.sql(
      `INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, at)
       SELECT $1, 'CLOSED', 'OPEN', 'failures', now() - make_interval(secs => n) FROM generate_series(1, 60) AS n`,
      [breaker.id],
    );
    await slow.waitFor(32);
    const quickChannel = await webhookChannel('quick', quick.url);
    expect((await post(`/api/notification-channels/${quickChannel.id}/test`, undefined, spec.second)).status).toBe(200);
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
    const [row] = await spec.api.sql(
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
});
