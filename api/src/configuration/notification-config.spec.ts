import { parse } from 'yaml';
import type { BreakerConfigView, ChannelView, ConfigDocument, ImportResult } from '@cbh/contracts';
import { changed, EVERY_LIST, refusal } from './document.test-kit';
import { auditAdded, LEAK, notificationConfigApiForThisFile, SECRET, withChannel } from './notification-config.test-kit';
import { simpleBreaker } from '../../test/breaker-bodies';

/*
 * Notification channels, rules and maintenance windows exported and imported back, against the real API and a
 * webhook receiver on loopback: a channel's URL and secret leave the hub only as references to CBH_CHANNEL_…
 * variables, come in from a document that gives them, and follow the hub's rules for where a secret may go. What an
 * import refuses, updates and prunes, and who may import, is in notification-config-import.spec.ts.
 */
const { spec, exported, exportedDocument, importing, imported, auditCounts, post, channelNamed, testDelivery, addNotificationItems } =
  notificationConfigApiForThisFile();

it('exports channels, rules and windows by name, a URL and a secret only as references to CBH_CHANNEL_… variables, the same bytes each time', async () => {
  await addNotificationItems();

  const text = (await exported()).text;
  expect((await exported()).text).toBe(text);
  const document = JSON.parse(text) as ConfigDocument;
  expect(Object.keys(document)).toEqual(['version', ...EVERY_LIST]);
  expect(document.channels).toEqual([
    { name: 'On-call mail', type: 'email', recipients: ['oncall@example.com', 'lead@example.com'] },
    { name: 'Ops hook', type: 'webhook', url: '${env:CBH_CHANNEL_OPS_HOOK_URL}', secret: '${env:CBH_CHANNEL_OPS_HOOK_SECRET}' },
    { name: 'Ops-Hook', type: 'slack', url: '${env:CBH_CHANNEL_OPS_HOOK_2_URL}' },
  ]);
  expect(document.notificationRules).toEqual([
    {
      name: 'Breakers open',
      enabled: true,
      events: ['breaker.opened', 'breaker.recovered'],
      channels: ['On-call mail', 'Ops hook'],
      breakers: ['Payment Gateway'],
      breakerTypes: [],
      domains: [],
      severities: [],
      minIntervalMinutes: 10,
      stuckOpenMinutes: 15,
      flappingOpenings: 5,
      flappingMinutes: 10,
    },
  ]);
  expect(document.maintenanceWindows).toEqual([
    {
      name: 'Friday deploys',
      startsAt: '2026-01-02T15:00:00.000Z',
      endsAt: '2026-01-02T17:00:00.000Z',
      repeatWeekly: true,
      breakers: ['Search API'],
      domains: [],
    },
  ]);

  const yaml = (await exported('?format=yaml')).text;
  expect(yaml).toContain('  - name: Ops hook\n    type: webhook\n    url: ${env:CBH_CHANNEL_OPS_HOOK_URL}\n');
  expect(parse(yaml)).toEqual(document);
  for (const written of [text, yaml]) {
    expect(written).not.toContain(LEAK);
    expect(written).not.toContain(SECRET);
    expect(written).not.toContain(`127.0.0.1:${spec.receiver.port}`);
  }
});

it('imports its own export back, JSON or YAML, as every item unchanged: a reference left unfilled keeps the URL and secret the hub has', async () => {
  const before = await auditCounts();
  const changes = await imported((await exported()).text);
  expect(changed(changes)).toEqual([]);
  expect(changes.filter((change) => !['breaker', 'service', 'domain'].includes(change.kind))).toEqual([
    { kind: 'channel', name: 'On-call mail', action: 'unchanged' },
    { kind: 'channel', name: 'Ops hook', action: 'unchanged' },
    { kind: 'channel', name: 'Ops-Hook', action: 'unchanged' },
    { kind: 'notificationRule', name: 'Breakers open', action: 'unchanged' },
    { kind: 'maintenanceWindow', name: 'Friday deploys', action: 'unchanged' },
  ]);
  expect(changed(await imported((await exported('?format=yaml')).text, { type: 'application/yaml' }))).toEqual([]);
  expect(changed(await imported((await exported()).text, { query: '?prune=true' }))).toEqual([]);
  expect(await auditCounts()).toEqual(before);

  // the hub still has the URL and the secret it had
  const delivered = await testDelivery('Ops hook');
  expect(delivered.path).toBe(`/hook?token=${LEAK}`);
  expect(delivered.signatureValid).toBe(true);
});

it('creates a channel from the URL and secret a document gives, and a rule naming it by name delivers to it, signed; audited once each', async () => {
  const breaker = await post<BreakerConfigView>('/api/circuit-breakers', simpleBreaker('config-hooked'));
  const document = await exportedDocument();
  document.channels!.push({ name: 'Imported hook', type: 'webhook', url: `${spec.receiver.url}?via=import`, secret: SECRET });
  document.notificationRules!.push({
    ...document.notificationRules![0]!,
    name: 'Imported opened',
    events: ['breaker.opened'],
    channels: ['imported HOOK'],
    breakers: ['config-hooked'],
    minIntervalMinutes: 5,
  });
  const expected = [
    { kind: 'channel', name: 'Imported hook', action: 'create' },
    { kind: 'notificationRule', name: 'Imported opened', action: 'create' },
  ];
  expect(changed(await imported(document, { query: '?dryRun=true' }))).toEqual(expected);
  expect(await channelNamed('Imported hook')).toBeUndefined();

  const before = await auditCounts();
  expect(changed(await imported(document))).toEqual(expected);
  expect(auditAdded(before, await auditCounts())).toEqual({ 'notification-channel.create': 1, 'notification-rule.create': 1 });

  const received = spec.receiver.received.length;
  expect((await spec.api.call(`/api/circuit-breakers/${breaker.id}/force-open`, { method: 'POST', cookie: spec.admin })).status).toBe(200);
  const [hook] = (await spec.receiver.waitFor(received + 1)).slice(received);
  expect(hook).toMatchObject({ path: '/hook?via=import', signatureValid: true });
  expect(hook!.headers['x-cbh-event']).toBe('breaker.opened');

  // written back as references; the document's literal URL and secret are the hub's: unchanged
  const text = (await exported()).text;
  expect(text).not.toContain('via=import');
  expect(JSON.parse(text).channels).toContainEqual({
    name: 'Imported hook',
    type: 'webhook',
    url: '${env:CBH_CHANNEL_IMPORTED_HOOK_URL}',
    secret: '${env:CBH_CHANNEL_IMPORTED_HOOK_SECRET}',
  });
  expect(changed(await imported(document))).toEqual([]);
});

it("changes a channel's URL and secret as the document gives them, naming the fields and never the values", async () => {
  const document = withChannel(await exportedDocument(), 'Imported hook', (channel) => {
    channel.url = `${spec.receiver.url}?via=changed-${LEAK}`;
    delete channel.secret;
  });
  const response = await importing(document, { query: '?dryRun=true' });
  const answer = await response.text();
  expect(answer).not.toContain(LEAK);
  expect(changed((JSON.parse(answer) as ImportResult).changes)).toEqual([
    { kind: 'channel', name: 'Imported hook', action: 'update', fields: ['url', 'secret'] },
  ]);
  expect(changed(await imported(document))).toEqual([
    { kind: 'channel', name: 'Imported hook', action: 'update', fields: ['url', 'secret'] },
  ]);
  const delivered = await testDelivery('Imported hook');
  expect(delivered.path).toBe(`/hook?via=changed-${LEAK}`);
  expect(delivered.headers['x-cbh-signature']).toBeUndefined();
  const [audit] = await spec.api.sql(
    "SELECT before, after FROM audit_entries WHERE action = 'notification-channel.update' ORDER BY id DESC LIMIT 1",
  );
  expect(JSON.stringify(audit)).not.toContain(LEAK);
  expect((await exportedDocument()).channels!.find((channel) => channel.name === 'Imported hook')).toEqual({
    name: 'Imported hook',
    type: 'webhook',
    url: '${env:CBH_CHANNEL_IMPORTED_HOOK_URL}',
  });
});

it("refuses a webhook's URL moving to another origin with its secret left as a reference: the secret goes there only when given again", async () => {
  const hook = await post<ChannelView>('/api/notification-channels', {
    name: 'Moving hook',
    type: 'webhook',
    url: `${spec.receiver.url}?via=moving`,
    secret: SECRET,
  });
  const original = (await exported()).text;
  const elsewhere = 'http://127.0.0.1:9/hook';
  const moved = withChannel(JSON.parse(original) as ConfigDocument, 'Moving hook', (channel) => {
    channel.url = elsewhere;
  });
  const index = moved.channels!.findIndex((channel) => channel.name === 'Moving hook');
  expect(moved.channels![index]!.secret).toBe('${env:CBH_CHANNEL_MOVING_HOOK_SECRET}');
  for (const query of ['', '?dryRun=true']) {
    expect(await refusal(await importing(moved, { query }))).toEqual({
      status: 400,
      message: `channels[${index}].secret: \${env:CBH_CHANNEL_MOVING_HOOK_SECRET} is not set where the document was read, and the URL moves to http://127.0.0.1:9: the hub's secret goes to another origin only when given again`,
    });
  }
  expect((await exported()).text).toBe(original);

  // on the same origin the reference keeps the secret
  const samePlace = withChannel(JSON.parse(original) as ConfigDocument, 'Moving hook', (channel) => {
    channel.url = `${spec.receiver.url}?via=same-origin`;
  });
  expect(changed(await imported(samePlace))).toEqual([{ kind: 'channel', name: 'Moving hook', action: 'update', fields: ['url'] }]);
  expect((await testDelivery('Moving hook')).signatureValid).toBe(true);
  // given again, even as the same value, it moves with the URL
  const given = withChannel(JSON.parse(original) as ConfigDocument, 'Moving hook', (channel) => {
    Object.assign(channel, { url: elsewhere, secret: SECRET });
  });
  expect(changed(await imported(given))).toEqual([{ kind: 'channel', name: 'Moving hook', action: 'update', fields: ['url', 'secret'] }]);
  expect(await channelNamed('Moving hook')).toMatchObject({ urlHost: '127.0.0.1:9', secretSet: true });
  expect((await spec.api.call(`/api/notification-channels/${hook.id}`, { method: 'DELETE', cookie: spec.admin })).status).toBe(204);
});
