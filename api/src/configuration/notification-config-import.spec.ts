import type { ChannelView, ConfigDocument, CreatedApiTokenView } from '@cbh/contracts';
import { changed, EVERY_LIST, refusal, type Caller } from './document.test-kit';
import { auditAdded, LEAK, notificationConfigApiForThisFile, withChannel } from './notification-config.test-kit';

/*
 * What an import of notification channels, rules and maintenance windows refuses, updates and prunes, and who may
 * import them, against the real API and a webhook receiver on loopback. Refusals name the place in the document and
 * change nothing.
 */
const { spec, exported, exportedDocument, importing, imported, auditCounts, post, channelNamed, testDelivery, addNotificationItems } =
  notificationConfigApiForThisFile();

/**
 * The hub's items as the export and import round trips of notification-config.spec.ts leave them: besides the
 * exported items, "Imported hook" (a webhook without a secret, its URL carrying LEAK) and the rule "Imported opened"
 * that sends it openings of config-hooked.
 */
beforeAll(async () => {
  await addNotificationItems();
  const hook = await post<ChannelView>('/api/notification-channels', {
    name: 'Imported hook',
    type: 'webhook',
    url: `${spec.receiver.url}?via=changed-${LEAK}`,
  });
  await post('/api/notification-rules', {
    name: 'Imported opened',
    events: ['breaker.opened'],
    channelIds: [hook.id],
    breakers: ['config-hooked'],
    minIntervalMinutes: 5,
  });
});

const bearer = (token: string): Caller => ({ authorization: `Bearer ${token}` });

async function token(permissions: string[]): Promise<string> {
  const created = await post<CreatedApiTokenView>('/api/tokens', { name: permissions.join(' '), expiresInDays: 1, permissions });
  return created.token;
}

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
