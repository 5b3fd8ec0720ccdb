import { parse } from 'yaml';
import type { DrillDefinitionView, DrillItem } from '@cbh/contracts';
import { agentBreaker, agentReport, sendAgentReport, serviceToken } from '../../test/agent-reports';
import { apiForThisFile } from '../../test/test-api';
import { changed, documentRoutes, refusal } from './document.test-kit';

const spec = apiForThisFile();
const { exportedDocument, importing, imported, auditCounts, roundTrips, callerWith } = documentRoutes(spec);

const hubDrills = async () =>
  (await (await spec.api.call('/api/drill-definitions', { cookie: spec.admin })).json()) as DrillDefinitionView[];
const hubDrillNames = async () => (await hubDrills()).map((drill) => drill.name);

/** An agent's breaker, which saved drills name { service, name }. */
beforeAll(async () => {
  const token = await serviceToken(spec.api, spec.admin, 'ledger');
  expect((await sendAgentReport(spec.api.baseUrl, token, agentReport('ledger', 'ledger-1', [agentBreaker('postings')]))).status).toBe(200);
});

const step = (breaker: DrillItem['steps'][number]['breaker'], seconds = 60): DrillItem['steps'][number] => ({
  breaker,
  fault: { kind: 'error', rate: 0.5 },
  instances: 'all',
  durationSeconds: seconds,
});

/** The saved drills the specs below keep, as the export writes them: by name, keys in one order, expectations always. */
const DRILLS: DrillItem[] = [
  {
    name: 'Gateway latency',
    steps: [{ breaker: 'Payment Gateway', fault: { kind: 'latency', rate: 0.25, latencyMs: 800 }, instances: 'all', durationSeconds: 120 }],
    expectations: [],
  },
  {
    name: 'Ledger failover',
    steps: [step('Ledger'), step({ service: 'ledger', name: 'postings' }, 30)],
    expectations: [
      { breaker: { service: 'ledger', name: 'postings' }, state: 'OPEN', withinSeconds: 10, after: 'start' },
      { breaker: 'Ledger', state: 'CLOSED', withinSeconds: 60, after: 'end' },
    ],
  },
  { name: 'Search errors', steps: [step('Search API', 10)], expectations: [] },
];

it('creates saved drills naming breakers the same document creates, exports them by name, byte for byte again, and is idempotent', async () => {
  const document = await exportedDocument();
  expect(document.drills).toEqual([]);
  document.breakers.push({ ...document.breakers[0]!, name: 'Ledger' });
  // in another order, keys in another order, expectations left out: the export writes them one way
  const [gateway, ledger, search] = DRILLS as [DrillItem, DrillItem, DrillItem];
  document.drills = [
    search,
    {
      expectations: ledger.expectations.map(({ after, withinSeconds, state, breaker }) => ({ after, withinSeconds, state, breaker })),
      steps: ledger.steps.map(({ durationSeconds, instances, fault, breaker }) => ({ durationSeconds, instances, fault, breaker })),
      name: ledger.name,
    },
    { name: gateway.name, steps: gateway.steps } as DrillItem,
  ];
  const before = await auditCounts();
  expect(changed(await imported(document, { query: '?dryRun=true' }))).toHaveLength(4);
  expect(await hubDrills()).toEqual([]);
  expect(changed(await imported(document))).toEqual([
    { kind: 'breaker', name: 'Ledger', action: 'create' },
    { kind: 'drill', name: 'Search errors', action: 'create' },
    { kind: 'drill', name: 'Ledger failover', action: 'create' },
    { kind: 'drill', name: 'Gateway latency', action: 'create' },
  ]);
  expect((await auditCounts())['drill-definition.create']).toBe((before['drill-definition.create'] ?? 0) + 3);
  // stored by name, never by id: ids differ between hubs
  const [stored] = await spec.api.sql("SELECT steps FROM drill_definitions WHERE name = 'Ledger failover'");
  expect(stored.steps.map((each: { breaker: unknown }) => each.breaker)).toEqual(['Ledger', { service: 'ledger', name: 'postings' }]);

  const { json, yaml } = await roundTrips();
  expect(JSON.parse(json.text).drills).toEqual(DRILLS);
  expect(Object.keys(JSON.parse(json.text).drills[1].steps[0])).toEqual(['breaker', 'fault', 'instances', 'durationSeconds']);
  expect(parse(yaml.text).drills).toEqual(DRILLS);
});

it('updates only the fields that changed and prunes what the document leaves out', async () => {
  const document = await exportedDocument();
  const item = (name: string) => document.drills!.find((drill: DrillItem) => drill.name === name)!;

  item('Ledger failover').steps[1]!.durationSeconds = 45;
  item('Search errors').name = 'search errors';
  expect(changed(await imported(document))).toEqual([
    { kind: 'drill', name: 'Ledger failover', action: 'update', fields: ['steps'] },
    { kind: 'drill', name: 'search errors', action: 'update', fields: ['name'] },
  ]);
  const [audit] = await spec.api.sql(
    "SELECT before, after FROM audit_entries WHERE action = 'drill-definition.update' ORDER BY id LIMIT 1",
  );
  expect(audit.before.steps[1].durationSeconds).toBe(30);
  expect(Object.keys(audit.after)).toEqual(['steps']);
  expect((await exportedDocument()).drills).toEqual(document.drills);

  const kept = { ...document, drills: document.drills!.filter((drill: DrillItem) => drill.name !== 'Gateway latency') };
  expect(changed(await imported(kept))).toEqual([]);
  expect(changed(await imported(kept, { query: '?prune=true&dryRun=true' }))).toEqual([
    { kind: 'drill', name: 'Gateway latency', action: 'delete' },
  ]);
  expect(await hubDrillNames()).toContain('Gateway latency');
  expect(changed(await imported(kept, { query: '?prune=true' }))).toEqual([{ kind: 'drill', name: 'Gateway latency', action: 'delete' }]);
  expect(await hubDrillNames()).toEqual(['Ledger failover', 'search errors']);
  // a document without the list leaves the saved drills alone, even with prune
  const { drills: _left, ...without } = kept;
  expect(changed(await imported(without, { query: '?prune=true' }))).toEqual([]);
  expect(await hubDrills()).toHaveLength(2);
});

it('names a breaker that exists nowhere by its place, in a dry run too, and refuses the bounds the API refuses', async () => {
  const document = await exportedDocument();
  document.drills!.push({ name: 'Ghost', steps: [step('Ledger'), step('nobody')], expectations: [] });
  for (const query of ['?dryRun=true', '']) {
    expect(await refusal(await importing(document, { query }))).toEqual({
      status: 422,
      message: 'drills[2] (Ghost): drills[2].steps[1].breaker: no hub breaker named nobody',
    });
  }
  document.drills![2] = {
    name: 'Ghost',
    steps: [step('Ledger')],
    expectations: [{ breaker: { service: 'ledger', name: 'nope' }, state: 'OPEN', withinSeconds: 10, after: 'start' }],
  };
  expect(await refusal(await importing(document))).toEqual({
    status: 422,
    message: 'drills[2] (Ghost): drills[2].expectations[0].breaker: no breaker nope of the service ledger',
  });
  // a breaker scraped from resilience4j's endpoints exists, but cannot take faults: refused as POST /api/drills refuses it
  await spec.api.sql(
    `INSERT INTO circuit_breaker_configs (name, type, failure_threshold, timeout_ms, recovery_time_ms, success_threshold, source, service)
     VALUES ('orders', 'simple', 5, 30000, 60000, 3, 'scrape', 'shop')`,
  );
  document.drills![2] = { name: 'Ghost', steps: [step({ service: 'Shop', name: 'Orders' })], expectations: [] };
  expect(await refusal(await importing(document, { query: '?dryRun=true' }))).toEqual({
    status: 422,
    message:
      "drills[2] (Ghost): drills[2].steps[0].breaker: orders (shop) is scraped from resilience4j's endpoints: the hub cannot inject faults into its calls (run the agent)",
  });
  // a breaker the same import deletes is found missing when the drill is applied
  const pruned = { ...document, breakers: document.breakers.filter((item) => item.name !== 'Ledger') };
  pruned.drills![2] = { name: 'Ghost', steps: [step('Ledger')], expectations: [] };
  expect(await refusal(await importing(pruned, { query: '?prune=true' }))).toEqual({
    status: 422,
    message: 'drills[2] (Ghost): steps[0].breaker: no hub breaker named Ledger',
  });

  const bounds = structuredClone(document);
  bounds.drills![2] = { name: 'Ghost', steps: [{ ...step(12 as never), durationSeconds: 901 }], expectations: [] };
  expect(await refusal(await importing(bounds))).toEqual({
    status: 400,
    message:
      "drills[2].steps[0].breaker: must be the name of one of the hub's breakers, or { service, name }; drills[2].steps[0].durationSeconds: must be at most 900",
  });
  expect(await hubDrillNames()).not.toContain('Ghost');
  expect(await hubDrillNames()).toHaveLength(2);
});

it('keeps saved drills to holders of circuit_breaker_admin: left out of the export for others, a 403 on import', async () => {
  const full = await exportedDocument();
  const breakerAdmin = await callerWith(['export_data', 'import_data', 'circuit_breaker_view', 'circuit_breaker_admin']);
  expect((await exportedDocument(breakerAdmin)).drills).toEqual(full.drills);
  const viewer = await callerWith(['export_data', 'import_data', 'circuit_breaker_view']);
  const seen = await exportedDocument(viewer);
  expect(seen.drills).toBeUndefined();
  expect(seen.omitted).toContain('drills');
  expect(await refusal(await importing({ version: 1, breakers: [], services: [], domains: [], drills: [] }, { caller: viewer }))).toEqual({
    status: 403,
    message: 'Requires the circuit_breaker_admin permission to import saved drills',
  });
  // the viewer's own export, applied with prune, leaves the saved drills alone
  expect(changed(await imported(seen, { caller: viewer, query: '?prune=true' }))).toEqual([]);
  expect(await exportedDocument()).toEqual(full);
});
