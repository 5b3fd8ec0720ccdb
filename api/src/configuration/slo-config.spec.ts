import { parse } from 'yaml';
import type { ConfigDocument, SloItem, SloView } from '@cbh/contracts';
import { agentBreaker, agentReport, sendAgentReport, serviceToken } from '../../test/agent-reports';
import { apiForThisFile } from '../../test/test-api';
import { changed, documentRoutes, refusal } from './document.test-kit';

const spec = apiForThisFile();
const { exportedDocument, importing, imported, auditCounts, roundTrips, callerWith } = documentRoutes(spec);

const hubSlos = async () => (await (await spec.api.call('/api/slos', { cookie: spec.admin })).json()) as SloView[];
const hubSloNames = async () => (await hubSlos()).map((slo) => slo.name).sort((a, b) => a.localeCompare(b));
const breakerId = async (name: string): Promise<number> =>
  (await spec.api.sql('SELECT id FROM circuit_breaker_configs WHERE name = $1', [name]))[0].id;

/** An agent's breaker, which documents name `agent:<service>/<name>`. */
beforeAll(async () => {
  const token = await serviceToken(spec.api, spec.admin, 'ledger');
  const report = agentReport('ledger', 'ledger-1', [agentBreaker('postings', { successes: 1, failures: 0 })]);
  expect((await sendAgentReport(spec.api.baseUrl, token, report)).status).toBe(200);
});

/** The SLOs the specs below keep, as the export writes them: by name, members sorted, description only when set. */
const SLOS: SloItem[] = [
  {
    name: 'Checkout calls',
    description: 'Checkout answers its callers',
    target: 99.9,
    window: '30d',
    indicator: { kind: 'breaker-calls', breakers: ['Ledger', 'Payment Gateway'] },
  },
  { name: 'Checkout latency', target: 99, window: '7d', indicator: { kind: 'breaker-latency', service: 'checkout', thresholdMs: 250 } },
  { name: 'Dashboard loads', target: 99.5, window: '28d', indicator: { kind: 'remote-loads', remote: 'mfe_dashboard' } },
  {
    name: 'Postings latency',
    target: 99.9,
    window: '28d',
    indicator: { kind: 'breaker-latency', breakers: ['agent:ledger/postings'], thresholdMs: 100 },
  },
  { name: 'Shop uptime', target: 99.95, window: '30d', indicator: { kind: 'domain-uptime', domains: ['shop.example.test'] } },
];

it('creates SLOs naming breakers and domains the same document creates, exports them by name, byte for byte again, and is idempotent', async () => {
  const document = await exportedDocument();
  document.breakers.push({ ...document.breakers[0]!, name: 'Ledger' });
  document.domains.push({ name: 'shop.example.test' });
  // members in any order and letter case, a repeat dropped: the export sorts them and writes the hub's names
  document.slos = [
    SLOS[4]!,
    { ...SLOS[0]!, indicator: { kind: 'breaker-calls', breakers: ['payment gateway', 'Ledger', 'Payment Gateway'] } },
    SLOS[2]!,
    SLOS[1]!,
    SLOS[3]!,
  ];
  const before = await auditCounts();
  expect(changed(await imported(document, { query: '?dryRun=true' }))).toHaveLength(7);
  expect(await hubSlos()).toEqual([]);
  expect(changed(await imported(document))).toEqual([
    { kind: 'breaker', name: 'Ledger', action: 'create' },
    { kind: 'domain', name: 'shop.example.test', action: 'create' },
    { kind: 'slo', name: 'Shop uptime', action: 'create' },
    { kind: 'slo', name: 'Checkout calls', action: 'create' },
    { kind: 'slo', name: 'Dashboard loads', action: 'create' },
    { kind: 'slo', name: 'Checkout latency', action: 'create' },
    { kind: 'slo', name: 'Postings latency', action: 'create' },
  ]);
  expect((await auditCounts())['slo.create']).toBe((before['slo.create'] ?? 0) + 5);
  const calls = (await hubSlos()).find((slo) => slo.name === 'Checkout calls')!;
  // in the document's order, the repeat dropped
  expect(calls.indicator).toEqual({ kind: 'breaker-calls', breakers: [await breakerId('Payment Gateway'), await breakerId('Ledger')] });

  const { json, yaml } = await roundTrips();
  expect(JSON.parse(json.text).slos).toEqual(SLOS);
  expect(parse(yaml.text).slos).toEqual(SLOS);
});

it('updates only the fields that changed, keeping the counts unless the indicator changed, and prunes what the document leaves out', async () => {
  const document = await exportedDocument();
  const [{ id }] = await spec.api.sql("SELECT id FROM slos WHERE name = 'Checkout calls'");
  const daysAgo = Math.floor(Date.now() / 86_400_000) - 40;
  await spec.api.sql('INSERT INTO slo_days (slo_id, day, good, total) VALUES ($1, $2, 990, 1000)', [id, daysAgo]);
  const counts = async () => (await spec.api.sql('SELECT count(*)::int AS n FROM slo_days WHERE slo_id = $1', [id]))[0].n;
  const item = (name: string) => document.slos!.find((slo) => slo.name === name)!;

  item('Checkout calls').target = 99.5;
  delete item('Checkout calls').description;
  expect(changed(await imported(document))).toEqual([
    { kind: 'slo', name: 'Checkout calls', action: 'update', fields: ['description', 'target'] },
  ]);
  const [audit] = await spec.api.sql("SELECT after FROM audit_entries WHERE action = 'slo.update' ORDER BY id DESC LIMIT 1");
  expect(audit.after).toEqual({ description: null, target: 99.5 });
  expect(await counts()).toBe(1);

  item('Checkout calls').indicator = { kind: 'breaker-calls', breakers: ['Ledger'] };
  item('Dashboard loads').name = 'dashboard loads';
  expect(changed(await imported(document))).toEqual([
    { kind: 'slo', name: 'Checkout calls', action: 'update', fields: ['indicator'] },
    { kind: 'slo', name: 'dashboard loads', action: 'update', fields: ['name'] },
  ]);
  expect(await counts()).toBe(0);
  expect((await exportedDocument()).slos).toEqual(document.slos!.slice().sort((a, b) => a.name.localeCompare(b.name)));

  const kept = { ...document, slos: document.slos!.filter((slo) => slo.name !== 'Checkout latency') };
  expect(changed(await imported(kept))).toEqual([]);
  expect(changed(await imported(kept, { query: '?prune=true&dryRun=true' }))).toEqual([
    { kind: 'slo', name: 'Checkout latency', action: 'delete' },
  ]);
  expect(changed(await imported(kept, { query: '?prune=true' }))).toEqual([{ kind: 'slo', name: 'Checkout latency', action: 'delete' }]);
  expect(await hubSloNames()).toEqual(['Checkout calls', 'dashboard loads', 'Postings latency', 'Shop uptime']);
  // a document without the list leaves the SLOs alone, even with prune
  const { slos: _left, ...without } = kept;
  expect(changed(await imported(without, { query: '?prune=true' }))).toEqual([]);
  expect(await hubSlos()).toHaveLength(4);
});

it('names a breaker or domain that exists nowhere by its place, in a dry run too, and refuses the bounds the API refuses', async () => {
  const document = await exportedDocument();
  document.slos!.push({ name: 'Ghost', target: 99, window: '7d', indicator: { kind: 'breaker-calls', breakers: ['Ledger', 'nobody'] } });
  for (const query of ['?dryRun=true', '']) {
    expect(await refusal(await importing(document, { query }))).toEqual({
      status: 422,
      message: 'slos[4] (Ghost): slos[4].indicator.breakers: no breaker named nobody',
    });
  }
  document.slos![4] = { name: 'Ghost', target: 99, window: '7d', indicator: { kind: 'domain-uptime', domains: ['ghost.example.test'] } };
  expect(await refusal(await importing(document))).toEqual({
    status: 422,
    message: 'slos[4] (Ghost): slos[4].indicator.domains: no domain named ghost.example.test',
  });

  const bounds = structuredClone(document) as ConfigDocument & Record<string, unknown>;
  bounds.slos![4] = {
    name: 'Ghost',
    target: 100,
    window: '90d',
    indicator: { kind: 'breaker-calls', breakers: ['Ledger'], service: 'checkout' },
  } as never;
  expect(await refusal(await importing(bounds))).toEqual({
    status: 400,
    message:
      'slos[4].target: must be from 50 to 99.999; slos[4].window: must be one of 7d, 28d, 30d; slos[4].indicator.breakers: must name either breakers or a service',
  });
  expect(await hubSloNames()).not.toContain('Ghost');
});

it('keeps SLOs over domains from those without domain_management: left out of their export and prune, refused on import', async () => {
  const full = await exportedDocument();
  const breakerAdmin = await callerWith(['export_data', 'import_data', 'circuit_breaker_view', 'circuit_breaker_admin']);
  const seen = await exportedDocument(breakerAdmin);
  expect(seen.slos!.map((slo) => slo.name)).toEqual(['Checkout calls', 'dashboard loads', 'Postings latency']);
  expect(changed(await imported(seen, { caller: breakerAdmin, query: '?prune=true' }))).toEqual([]);
  expect(await hubSloNames()).toContain('Shop uptime');

  const domainSlo = { ...seen, slos: [...seen.slos!, { ...full.slos!.find((slo) => slo.name === 'Shop uptime')!, name: 'Shop again' }] };
  expect(await refusal(await importing(domainSlo, { caller: breakerAdmin, query: '?dryRun=true' }))).toEqual({
    status: 403,
    message: 'slos[3] (Shop again): Requires the domain_management permission for an SLO over domains',
  });
  const viewer = await callerWith(['export_data', 'import_data', 'circuit_breaker_view']);
  expect((await exportedDocument(viewer)).slos).toBeUndefined();
  expect(await refusal(await importing({ version: 1, breakers: [], services: [], domains: [], slos: [] }, { caller: viewer }))).toEqual({
    status: 403,
    message: 'Requires the circuit_breaker_admin permission to import SLOs',
  });
  expect(await exportedDocument()).toEqual(full);
});
