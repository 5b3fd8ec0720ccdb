import WebSocket from 'ws';
import { parse } from 'yaml';
import type { ConfigDocument } from '@cbh/contracts';
import { apiForThisFile, DEMO_PASSWORD, signIn } from '../../test/test-api';
import { changed, documentRoutes, EVERY_LIST, refusal } from './document.test-kit';

const spec = apiForThisFile();
const { exported, exportedDocument, importing, imported, auditCounts } = documentRoutes(spec);

type Document = ConfigDocument & Record<string, unknown>;

const breakerNamed = (document: ConfigDocument, name: string) => document.breakers.find((breaker) => breaker.name === name)!;

it('exports every setting a user can set, keyed by name and nothing the hub computes; the same state gives the same bytes, in JSON and YAML', async () => {
  const first = await exported();
  expect(first.type).toBe('application/json; charset=utf-8');
  expect((await exported()).text).toBe(first.text);
  expect(JSON.parse(first.text)).toEqual({
    version: 1,
    breakers: [
      {
        name: 'Inventory Service',
        type: 'adaptive',
        failureThreshold: 5,
        timeout: 30_000,
        recoveryTime: 60_000,
        successThreshold: 3,
        minimumCalls: 10,
        slowCallDuration: 1000,
      },
      { name: 'Payment Gateway', type: 'simple', failureThreshold: 5, timeout: 30_000, recoveryTime: 60_000, successThreshold: 3 },
      {
        name: 'Search API',
        type: 'bulkhead',
        failureThreshold: 5,
        timeout: 30_000,
        recoveryTime: 60_000,
        successThreshold: 3,
        maxConcurrentCalls: 10,
        maxQueue: 0,
      },
    ],
    services: [
      { name: 'Inventory Service', endpoint: 'chaos', failureRate: 20, averageResponseTime: 200, breaker: 'Inventory Service' },
      { name: 'Notification Service', endpoint: 'chaos', failureRate: 2, averageResponseTime: 50, breaker: null },
      { name: 'Payment Service', endpoint: 'chaos', failureRate: 10, averageResponseTime: 120, breaker: 'Payment Gateway' },
      { name: 'Search Service', endpoint: 'chaos', failureRate: 5, averageResponseTime: 80, breaker: 'Search API' },
    ],
    domains: [],
    // the bootstrap admin holds circuit_breaker_admin: the notification lists and scrape targets are written, empty as they are
    channels: [],
    notificationRules: [],
    maintenanceWindows: [],
    scrapeTargets: [],
    schedules: [],
    escalationPolicies: [],
    statusPages: [],
    slos: [],
    drills: [],
  });

  const yaml = await exported('?format=yaml');
  expect(yaml.type).toBe('application/yaml; charset=utf-8');
  expect((await exported('', { accept: 'application/yaml' })).text).toBe(yaml.text);
  expect(yaml.text).toContain('  - name: Payment Gateway\n    type: simple\n    failureThreshold: 5\n');
  expect(parse(yaml.text)).toEqual(JSON.parse(first.text));
  expect((await exported('?format=json', { accept: 'application/yaml' })).text).toBe(first.text);
  expect((await spec.api.call('/api/export?format=xml', { cookie: spec.admin })).status).toBe(400);
});

it('imports its own export back, JSON or YAML, as every item unchanged, changing and auditing nothing', async () => {
  const before = await auditCounts();
  const changes = await imported((await exported()).text);
  expect(changes).toHaveLength(7);
  expect(changed(changes)).toEqual([]);
  expect(changes[0]).toEqual({ kind: 'breaker', name: 'Inventory Service', action: 'unchanged' });
  for (const type of ['application/yaml', 'application/x-yaml', 'text/yaml']) {
    expect(changed(await imported((await exported('?format=yaml')).text, { type }))).toEqual([]);
  }
  expect(await auditCounts()).toEqual(before);
});

/** A socket of the admin's on /ws, and the first message of a type about a breaker. */
async function liveMessages() {
  const socket = new WebSocket(`${spec.api.baseUrl.replace('http', 'ws')}/ws`, { headers: { cookie: spec.admin } });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const next = (type: string, match: (data: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve) => {
      socket.on('message', (raw: WebSocket.RawData) => {
        const message = JSON.parse(String(raw));
        if (message.type === type && match(message.data)) resolve(message.data);
      });
    });
  return { next, close: () => socket.close() };
}

it('shows exactly the edits in a dry run and changes nothing; applying them shows the same diff, live and audited once each; importing again changes nothing', async () => {
  const original = await exported();
  const document = JSON.parse(original.text) as Document;
  breakerNamed(document, 'Payment Gateway').failureThreshold = 7;
  document.breakers.push({
    name: 'Checkout',
    type: 'bulkhead',
    failureThreshold: 3,
    timeout: 10_000,
    recoveryTime: 20_000,
    successThreshold: 2,
    maxConcurrentCalls: 4,
  });
  document.services.push({ name: 'Checkout', endpoint: 'chaos', failureRate: 15, averageResponseTime: 90, breaker: 'checkout' });
  document.domains.push({ name: 'Shop.Example.test' });
  const expected = [
    { kind: 'breaker', name: 'Payment Gateway', action: 'update', fields: ['failureThreshold'] },
    { kind: 'breaker', name: 'Checkout', action: 'create' },
    { kind: 'service', name: 'Checkout', action: 'create' },
    { kind: 'domain', name: 'shop.example.test', action: 'create' },
  ];

  expect(changed(await imported(document, { query: '?dryRun=true' }))).toEqual(expected);
  expect((await exported()).text).toBe(original.text);

  const before = await auditCounts();
  const live = await liveMessages();
  const gatewayId = (await spec.api.sql("SELECT id FROM circuit_breaker_configs WHERE name = 'Payment Gateway'"))[0].id;
  const updated = live.next('configUpdated', (data) => data.configId === gatewayId);
  const created = live.next('serviceUpdated', (data) => (data.service as { name?: string } | null)?.name === 'Checkout');
  try {
    expect(changed(await imported(document))).toEqual(expected);
    expect(((await updated).config as { failureThreshold: number }).failureThreshold).toBe(7);
    const service = (await created).service as { id: number; endpoint: string; circuitBreakerConfigId: number };
    expect(service.endpoint).toBe(`/api/chaos/${service.id}`);
  } finally {
    live.close();
  }
  const after = await auditCounts();
  const added = Object.fromEntries(
    Object.entries(after)
      .filter(([action, n]) => n !== (before[action] ?? 0))
      .map(([a, n]) => [a, n - (before[a] ?? 0)]),
  );
  expect(added).toEqual({ 'breaker.update': 1, 'breaker.create': 1, 'service.create': 1, 'domain.create': 1 });

  const now = await exportedDocument();
  expect(now.services.find((service) => service.name === 'Checkout')).toEqual({
    name: 'Checkout',
    endpoint: 'chaos',
    failureRate: 15,
    averageResponseTime: 90,
    breaker: 'Checkout',
  });
  expect(now.domains).toEqual([{ name: 'shop.example.test' }]);
  expect(changed(await imported(document))).toEqual([]);
  expect(await auditCounts()).toEqual(after);
});

it('leaves alone what the document leaves out, unless ?prune=true deletes it (shown as delete)', async () => {
  const document = await exportedDocument();
  const kept = {
    ...document,
    breakers: document.breakers.filter((breaker) => breaker.name !== 'Checkout'),
    services: document.services.filter((service) => service.name !== 'Checkout'),
    domains: [],
  };
  const left = await imported(kept);
  expect(changed(left)).toEqual([]);
  expect(left.map((change) => change.name)).not.toContain('Checkout');

  const deletions = [
    { kind: 'breaker', name: 'Checkout', action: 'delete' },
    { kind: 'service', name: 'Checkout', action: 'delete' },
    { kind: 'domain', name: 'shop.example.test', action: 'delete' },
  ];
  expect(changed(await imported(kept, { query: '?dryRun=true&prune=true' }))).toEqual(deletions);
  expect((await exportedDocument()).breakers.map((breaker) => breaker.name)).toContain('Checkout');
  expect(changed(await imported(kept, { query: '?prune=true' }))).toEqual(deletions);
  const after = await exportedDocument();
  expect([after.breakers.length, after.services.length, after.domains.length]).toEqual([3, 4, 0]);
});

it('applies all or nothing: one refused change (a breaker a load test runs through) rolls everything back with a 409 naming it', async () => {
  const original = await exported();
  const document = JSON.parse(original.text) as Document;
  const gateway = (await spec.api.sql("SELECT id FROM circuit_breaker_configs WHERE name = 'Payment Gateway'"))[0].id;
  const started = await spec.api.call('/api/test-sessions', {
    method: 'POST',
    cookie: spec.admin,
    body: { configId: gateway, failureRate: 0, requestRate: 1, duration: 1 },
  });
  expect(started.status).toBe(201);
  const session = await started.json();
  try {
    breakerNamed(document, 'Search API').failureThreshold = 9;
    Object.assign(breakerNamed(document, 'Payment Gateway'), { type: 'adaptive', minimumCalls: 5 });
    document.domains.push({ name: 'never.example.test' });
    expect(await refusal(await importing(document))).toEqual({
      status: 409,
      message: `breakers: Circuit breaker Payment Gateway has a load test running (session ${session.id}); stop it before changing its type`,
    });
    expect((await exported()).text).toBe(original.text);

    const withoutGateway = JSON.parse(original.text) as Document;
    withoutGateway.breakers = withoutGateway.breakers.filter((breaker) => breaker.name !== 'Payment Gateway');
    withoutGateway.services = withoutGateway.services.map((service) => ({
      ...service,
      breaker: service.breaker === 'Payment Gateway' ? null : service.breaker,
    }));
    expect(await refusal(await importing(withoutGateway, { query: '?prune=true' }))).toEqual({
      status: 409,
      message: `breaker Payment Gateway: Circuit breaker Payment Gateway has a load test running (session ${session.id}); stop it before deleting the breaker`,
    });
    expect((await exported()).text).toBe(original.text);
  } finally {
    await spec.api.call(`/api/test-sessions/${session.id}/stop`, { method: 'POST', cookie: spec.admin });
  }
});

it('refuses a bad document with a 400 naming each place in it, unknown keys included, and changes nothing', async () => {
  const original = await exported();
  const document = JSON.parse(original.text) as Document;
  const tooHigh = structuredClone(document);
  tooHigh.breakers[2]!.failureThreshold = 21;
  expect(await refusal(await importing(tooHigh))).toEqual({ status: 400, message: 'breakers[2].failureThreshold: must be at most 20' });

  const unknown = structuredClone(document) as Document;
  Object.assign(unknown.services[1]!, { colour: 'red' });
  unknown.extra = true;
  expect(await refusal(await importing(unknown))).toEqual({ status: 400, message: 'services[1]: unknown key colour; unknown key extra' });

  const dangling = structuredClone(document);
  dangling.services[0]!.breaker = 'Nope';
  expect(await refusal(await importing(dangling))).toEqual({
    status: 400,
    message: 'services[0].breaker: no breaker named Nope in the document or the hub',
  });
  const pruned = structuredClone(document);
  pruned.breakers = pruned.breakers.filter((breaker) => breaker.name !== 'Search API');
  expect(await refusal(await importing(pruned, { query: '?prune=true' }))).toEqual({
    status: 400,
    message: 'services[3].breaker: no breaker named Search API in the document',
  });

  expect(await refusal(await importing({ ...document, version: 2 }))).toEqual({ status: 400, message: 'version: must be 1' });
  expect((await refusal(await importing('version: 1\nbreakers: [', { type: 'application/yaml' }))).message).toMatch(
    /^The document is not valid YAML: /,
  );
  expect((await refusal(await importing('version: 1\nversion: 1\n', { type: 'application/yaml' }))).message).toMatch(/unique/i);
  expect((await importing('{}', { type: 'text/plain' })).status).toBe(415);
  expect((await importing(document, { query: '?dryRun=yes' })).status).toBe(400);
  expect((await exported()).text).toBe(original.text);
});

it('reads a document larger than other bodies may be, and refuses one over 1 MB with a 413', async () => {
  const text = (await exported()).text;
  expect(changed(await imported(text + ' '.repeat(400_000)))).toEqual([]);
  expect(await refusal(await importing(text + ' '.repeat(1_048_576)))).toEqual({
    status: 413,
    message: 'The request body is larger than 1024 KB',
  });
  expect((await refusal(await importing(`version: 1${' '.repeat(1_048_576)}`, { type: 'application/yaml' }))).status).toBe(413);
});

it('lets only holders of export_data export and of import_data import', async () => {
  const adminRole = await signIn(spec.api.baseUrl, 'admin@demo.example.com', DEMO_PASSWORD);
  expect((await fetch(`${spec.api.baseUrl}/api/export`, { headers: { cookie: adminRole } })).status).toBe(403);
  expect((await importing(await exportedDocument(), { caller: { cookie: adminRole } })).status).toBe(403);
  expect((await importing(await exportedDocument(), { caller: { cookie: '' } })).status).toBe(401);
});

it("describes both routes in the API docs, with the document's schema and who may call them", async () => {
  const document = await (await spec.api.call('/api/docs/openapi.json')).json();
  expect(document.paths['/api/export'].get.description).toContain('export_data');
  const post = document.paths['/api/import'].post;
  expect(post.description).toContain('import_data');
  expect(Object.keys(post.requestBody.content['application/json'].schema.properties)).toEqual(['version', ...EVERY_LIST, 'omitted']);
  expect(post.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(['dryRun', 'prune']);
});

it("updates a service's settings and the breaker it uses by name, keeping its own chaos target, and a certificate's autoRenew", async () => {
  const document = await exportedDocument();
  const domain = await spec.api.call('/api/domains', { method: 'POST', cookie: spec.admin, body: { domain: 'renew.example.test' } });
  const { id: domainId } = await domain.json();
  // a certificate as a check would have read it, its autoRenew still inferred
  await spec.api.sql(`INSERT INTO ssl_certificates (domain_id, status) VALUES ($1, 'active') ON CONFLICT (domain_id) DO NOTHING`, [
    domainId,
  ]);
  const payment = document.services.find((service) => service.name === 'Payment Service')!;
  Object.assign(payment, { name: 'payment service', failureRate: 40, breaker: 'Search API' });
  document.services.find((service) => service.name === 'Search Service')!.breaker = null;
  document.domains = [{ name: 'renew.example.test', autoRenew: true }];
  const before = await auditCounts();

  expect(changed(await imported(document))).toEqual([
    { kind: 'service', name: 'payment service', action: 'update', fields: ['name', 'failureRate', 'breaker'] },
    { kind: 'service', name: 'Search Service', action: 'update', fields: ['breaker'] },
    { kind: 'domain', name: 'renew.example.test', action: 'update', fields: ['autoRenew'] },
  ]);
  const services = await (await spec.api.call('/api/services', { cookie: spec.admin })).json();
  const searchApi = (await spec.api.sql("SELECT id FROM circuit_breaker_configs WHERE name = 'Search API'"))[0].id;
  const updated = services.find((service: { name: string }) => service.name === 'payment service');
  expect(updated).toMatchObject({ failureRate: 40, circuitBreakerConfigId: searchApi, endpoint: `/api/chaos/${updated.id}` });
  expect(services.find((service: { name: string }) => service.name === 'Search Service').circuitBreakerConfigId).toBeNull();
  const certificate = (
    await spec.api.sql('SELECT auto_renew, auto_renew_overridden FROM ssl_certificates WHERE domain_id = $1', [domainId])
  )[0];
  expect(certificate).toEqual({ auto_renew: true, auto_renew_overridden: true });
  const after = await auditCounts();
  expect(after['service.update']! - (before['service.update'] ?? 0)).toBe(2);
  expect(after['ssl-certificate.update']! - (before['ssl-certificate.update'] ?? 0)).toBe(1);

  expect((await exportedDocument()).domains).toEqual([{ name: 'renew.example.test', autoRenew: true }]);
  expect(changed(await imported(document))).toEqual([]);
});
