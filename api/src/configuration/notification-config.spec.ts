import { parse } from 'yaml';
import type {
  BreakerConfigView,
  ChannelItem,
  ChannelView,
  ConfigDocument,
  CreatedApiTokenView,
  ImportResult,
  TestDeliveryView,
} from '@cbh/contracts';
import { apiForThisFile } from '../../test/test-api';
import { changed, documentRoutes, EVERY_LIST, refusal, type Caller } from './document.test-kit';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';

/*
 * Notification channels, rules and maintenance windows in the configuration document, against the real API and a
 * webhook receiver on loopback (which ALLOW_PRIVATE_TARGETS lets channels call).
 */
const SECRET = 'whsec-the-receiver-and-the-hub-share';
const LEAK = 'do-not-leak';

const spec = apiForThisFile({ ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' });
const { exported, exportedDocument, importing, imported, auditCounts } = documentRoutes(spec);
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver({ secret: SECRET });
});
afterAll(async () => {
  await receiver?.stop();
});

const bearer = (token: string): Caller => ({ authorization: `Bearer ${token}` });

const post = async <T>(path: string, body: unknown): Promise<T> => {
  const response = await spec.api.call(path, { method: 'POST', body, cookie: spec.admin });
  const answer = await response.json();
  // the answer shown when the status is not a success
  expect({ path, success: response.ok, answer }).toMatchObject({ path, success: true });
  return answer as T;
};

const auditAdded = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(after)
      .filter(([action, n]) => n !== (before[action] ?? 0))
      .map(([action, n]) => [action, n - (before[action] ?? 0)]),
  );

async function channelNamed(name: string): Promise<ChannelView> {
  const channels = (await (await spec.api.call('/api/notification-channels', { cookie: spec.admin })).json()) as ChannelView[];
  return channels.find((channel) => channel.name === name)!;
}

/** "Send test" on a channel, and the request the receiver took. */
async function testDelivery(name: string) {
  const before = receiver.received.length;
  const outcome = await post<TestDeliveryView>(`/api/notification-channels/${(await channelNamed(name)).id}/test`, undefined);
  expect(outcome).toMatchObject({ status: 'delivered', statusCode: 200 });
  const [request] = (await receiver.waitFor(before + 1)).slice(before);
  return request!;
}

async function token(permissions: string[]): Promise<string> {
  const created = await post<CreatedApiTokenView>('/api/tokens', { name: permissions.join(' '), expiresInDays: 1, permissions });
  return created.token;
}

const withChannel = (document: ConfigDocument, name: string, change: (channel: ChannelItem) => void) => {
  change(document.channels!.find((channel) => channel.name === name)!);
  return document;
};

it('exports channels, rules and windows by name, a URL and a secret only as references to CBH_CHANNEL_… variables, the same bytes each time', async () => {
  const hook = await post<ChannelView>('/api/notification-channels', {
    name: 'Ops hook',
    type: 'webhook',
    url: `${receiver.url}?token=${LEAK}`,
    secret: SECRET,
  });
  // its name comes out as the same variable as Ops hook's: told apart by _2
  await post('/api/notification-channels', { name: 'Ops-Hook', type: 'slack', url: `${receiver.url}?slack=${LEAK}` });
  const mail = await post<ChannelView>('/api/notification-channels', {
    name: 'On-call mail',
    type: 'email',
    recipients: ['oncall@example.com', 'lead@example.com'],
  });
  await post('/api/notification-rules', {
    name: 'Breakers open',
    events: ['breaker.recovered', 'breaker.opened'],
    channelIds: [hook.id, mail.id],
    breakers: ['Payment Gateway'],
    minIntervalMinutes: 10,
  });
  await post('/api/maintenance-windows', {
    name: 'Friday deploys',
    startsAt: '2026-01-02T16:00:00+01:00',
    endsAt: '2026-01-02T18:00:00+01:00',
    repeatWeekly: true,
    breakers: ['Search API'],
  });

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
    expect(written).not.toContain(`127.0.0.1:${receiver.port}`);
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
  const breaker = await post<BreakerConfigView>('/api/circuit-breakers', {
    name: 'config-hooked',
    type: 'simple',
    failureThreshold: 5,
    timeout: 60_000,
    recoveryTime: 30_000,
    successThreshold: 2,
  });
  const document = await exportedDocument();
  document.channels!.push({ name: 'Imported hook', type: 'webhook', url: `${receiver.url}?via=import`, secret: SECRET });
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

  const received = receiver.received.length;
  expect((await spec.api.call(`/api/circuit-breakers/${breaker.id}/force-open`, { method: 'POST', cookie: spec.admin })).status).toBe(200);
  const [hook] = (await receiver.waitFor(received + 1)).slice(received);
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
    channel.url = `${receiver.url}?via=changed-${LEAK}`;
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
    url: `${receiver.url}?via=moving`,
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
    channel.url = `${receiver.url}?via=same-origin`;
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

it('refuses a reference left unfilled where the hub has nothing to keep, and a URL the outbound guard refuses, naming the place; changes nothing', async () => {
  const original = (await exported()).text;
  const document = JSON.parse(original) as ConfigDocument;
  const unfilled = structuredClone(document);
  unfilled.channels!.push({ name: 'Unfilled', type: 'webhook', url: '${env:CBH_CHANNEL_UNFILLED_URL}' });
  unfilled.breakers[0]!.failureThreshold = 9;
  const at = unfilled.channels!.length - 1;
  for (const query of ['', '?dryRun=true']) {
    expect(await refusal(await importing(unfilled, { query }))).toEqual({
      status: 400,
      message: `channels[${at}].url: \${env:CBH_CHANNEL_UNFILLED_URL} is not set where the document was read: set it or give the URL`,
    });
  }
  const noSecret = withChannel(structuredClone(document), 'Imported hook', (channel) => {
    channel.secret = '${env:CBH_CHANNEL_IMPORTED_HOOK_SECRET}';
  });
  const index = noSecret.channels!.findIndex((channel) => channel.name === 'Imported hook');
  expect(await refusal(await importing(noSecret))).toEqual({
    status: 400,
    message: `channels[${index}].secret: \${env:CBH_CHANNEL_IMPORTED_HOOK_SECRET} is not set where the document was read, and the hub's channel has none to keep: set it or give the secret`,
  });
  const guarded = withChannel(structuredClone(document), 'Imported hook', (channel) => {
    channel.url = 'http://169.254.169.254/latest/meta-data';
  });
  for (const query of ['', '?dryRun=true']) {
    expect(await refusal(await importing(guarded, { query }))).toEqual({
      status: 400,
      message: `channels[${index}].url: Refused to call 169.254.169.254 (169.254.169.254): a link-local or metadata address`,
    });
  }
  const retyped = withChannel(structuredClone(document), 'Imported hook', (channel) => {
    channel.type = 'discord';
  });
  expect(await refusal(await importing(retyped))).toEqual({
    status: 400,
    message: `channels[${index}].type: the hub's channel Imported hook is a webhook channel, and a channel's type cannot change (give the discord channel another name)`,
  });
  expect((await exported()).text).toBe(original);
  expect((await testDelivery('Imported hook')).path).toBe(`/hook?via=changed-${LEAK}`);
});

it('refuses a rule naming a channel neither the document nor the hub has, and a bad item, each at its place', async () => {
  const document = await exportedDocument();
  const dangling = structuredClone(document);
  dangling.notificationRules![1]!.channels = ['x'];
  expect(await refusal(await importing(dangling))).toEqual({
    status: 400,
    message: "notificationRules[1].channels[0]: no channel named 'x'",
  });

  // with prune, a channel the document leaves out is deleted: a rule cannot name it
  const pruned = structuredClone(document);
  pruned.channels = pruned.channels!.filter((channel) => channel.name !== 'On-call mail');
  expect(await refusal(await importing(pruned, { query: '?prune=true' }))).toEqual({
    status: 400,
    message: "notificationRules[0].channels[0]: no channel named 'On-call mail'",
  });

  const bad = structuredClone(document);
  const names = bad.channels!.map((channel) => channel.name);
  expect(names).toEqual(['Imported hook', 'On-call mail', 'Ops hook', 'Ops-Hook']);
  Object.assign(bad.channels![1]!, { url: 'https://example.com/hook' });
  Object.assign(bad.channels![3]!, { url: '${env:lower-case}' });
  bad.notificationRules![0]!.events = ['breaker.exploded' as never];
  bad.maintenanceWindows![0]!.endsAt = '2026-01-01T00:00:00Z';
  expect((await refusal(await importing(bad))).message.split('; ')).toEqual([
    'channels[1].url: is for webhook, Slack and Discord channels',
    'channels[3].url: must be a reference ${env:NAME}, NAME of letters, digits and _',
    'notificationRules[0].events[0]: must be one of breaker.opened, breaker.recovered, breaker.stuck_open, breaker.flapping, domain.alert.opened, domain.alert.resolved, release.rolled_back, release.canary_failing, incident.created, incident.updated, incident.resolved, alert_group.acknowledged, alert_group.escalated, alert_group.resolved, slo.burn_rate, slo.budget_exhausted, slo.recovered, drill.started, drill.finished',
    'maintenanceWindows[0].endsAt: must be after the start',
  ]);
  const twice = structuredClone(document);
  twice.channels!.push({ ...twice.channels![2]!, name: 'ops HOOK' });
  expect(await refusal(await importing(twice))).toEqual({ status: 400, message: 'channels[4].name: repeats the name of channels[2]' });
});

it('updates rules and windows field by field, a time in another offset being the same time', async () => {
  const document = await exportedDocument();
  const window = document.maintenanceWindows![0]!;
  window.startsAt = '2026-01-02T10:00:00-05:00';
  expect(changed(await imported(document))).toEqual([]);
  window.endsAt = '2026-01-02T18:00:00Z';
  const rule = document.notificationRules!.find((each) => each.name === 'Breakers open')!;
  Object.assign(rule, { enabled: false, channels: ['ops hook'], events: ['breaker.recovered', 'breaker.opened'], minIntervalMinutes: 0 });
  expect(changed(await imported(document))).toEqual([
    { kind: 'notificationRule', name: 'Breakers open', action: 'update', fields: ['enabled', 'channels', 'minIntervalMinutes'] },
    { kind: 'maintenanceWindow', name: 'Friday deploys', action: 'update', fields: ['endsAt'] },
  ]);
  const now = await exportedDocument();
  expect(now.notificationRules!.find((each) => each.name === 'Breakers open')).toMatchObject({
    enabled: false,
    channels: ['Ops hook'],
    minIntervalMinutes: 0,
  });
  expect(now.maintenanceWindows![0]!.endsAt).toBe('2026-01-02T18:00:00.000Z');
  expect(changed(await imported(document))).toEqual([]);
});

it('prunes the channels, rules and windows a document leaves out, of the lists it has only', async () => {
  const document = await exportedDocument();
  const withoutLists = { version: document.version, breakers: document.breakers, services: document.services, domains: document.domains };
  expect(changed(await imported(withoutLists, { query: '?prune=true' }))).toEqual([]);
  expect((await exportedDocument()).notificationRules).toHaveLength(2);

  const fewer = { ...withoutLists, notificationRules: document.notificationRules!.filter((rule) => rule.name !== 'Imported opened') };
  const deletion = [{ kind: 'notificationRule', name: 'Imported opened', action: 'delete' }];
  expect(changed(await imported(fewer))).toEqual([]);
  expect(changed(await imported(fewer, { query: '?dryRun=true&prune=true' }))).toEqual(deletion);
  expect((await exportedDocument()).notificationRules).toHaveLength(2);
  const before = await auditCounts();
  expect(changed(await imported(fewer, { query: '?prune=true' }))).toEqual(deletion);
  expect(auditAdded(before, await auditCounts())).toEqual({ 'notification-rule.delete': 1 });
  const after = await exportedDocument();
  expect(after.notificationRules!.map((rule) => rule.name)).toEqual(['Breakers open']);
  expect(after.channels).toEqual(document.channels);

  const onlyMail = {
    ...withoutLists,
    channels: document.channels!.filter((channel) => ['On-call mail', 'Ops hook'].includes(channel.name)),
    maintenanceWindows: [],
  };
  expect(changed(await imported(onlyMail, { query: '?prune=true' }))).toEqual([
    { kind: 'channel', name: 'Imported hook', action: 'delete' },
    { kind: 'channel', name: 'Ops-Hook', action: 'delete' },
    { kind: 'maintenanceWindow', name: 'Friday deploys', action: 'delete' },
  ]);
  expect((await exportedDocument()).channels!.map((channel) => channel.name)).toEqual(['On-call mail', 'Ops hook']);
});

it('writes and reads notification items only for holders of circuit_breaker_admin, and rules of domain events only with domain_management', async () => {
  const mail = await channelNamed('On-call mail');
  await post('/api/notification-rules', { name: 'Domain alerts', events: ['domain.alert.opened'], channelIds: [mail.id] });

  const dataOnly = bearer(await token(['export_data', 'import_data']));
  const plain = await exportedDocument(dataOnly);
  expect(Object.keys(plain)).toEqual(['version', 'breakers', 'services', 'domains', 'omitted']);
  expect(plain.omitted).toEqual(EVERY_LIST);
  expect(changed(await imported(plain, { caller: dataOnly, query: '?prune=true' }))).toEqual([]);
  const full = await exportedDocument();
  expect(await refusal(await importing({ ...plain, maintenanceWindows: [] }, { caller: dataOnly }))).toEqual({
    status: 403,
    message: 'Requires the circuit_breaker_admin permission to import notification channels, rules and maintenance windows',
  });

  const breakerAdmin = bearer(await token(['export_data', 'import_data', 'circuit_breaker_admin']));
  const seen = await exportedDocument(breakerAdmin);
  expect(seen.notificationRules!.map((rule) => rule.name)).toEqual(['Breakers open']);
  expect(full.notificationRules!.map((rule) => rule.name)).toEqual(['Breakers open', 'Domain alerts']);
  // a prune leaves alone the rule its caller could not see
  expect(changed(await imported(seen, { caller: breakerAdmin, query: '?prune=true' }))).toEqual([]);
  for (const [name, events] of [
    ['Domain alerts', ['breaker.opened']],
    ['More domain alerts', ['domain.alert.resolved']],
  ] as const) {
    const document = structuredClone(seen);
    document.notificationRules!.push({ ...seen.notificationRules![0]!, name, events: [...events] });
    expect(await refusal(await importing(document, { caller: breakerAdmin, query: '?dryRun=true' }))).toEqual({
      status: 403,
      message: `notificationRules[1] (${name}): Requires the domain_management permission to notify about domain events`,
    });
  }
  expect(await exportedDocument()).toEqual(full);
});

it("describes the notification lists in the import's schema", async () => {
  const openapi = await (await spec.api.call('/api/docs/openapi.json')).json();
  const properties = openapi.paths['/api/import'].post.requestBody.content['application/json'].schema.properties;
  expect(Object.keys(properties.channels.items.properties)).toEqual(['name', 'type', 'url', 'recipients', 'secret']);
  // channels may be left out when the rule names an escalation policy
  expect(properties.notificationRules.items.required).toEqual(['name', 'events']);
  expect(properties.maintenanceWindows.items.required).toEqual(['name', 'startsAt', 'endsAt']);
});
