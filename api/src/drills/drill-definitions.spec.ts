import type { BreakerConfigView, DrillDefinitionView, DrillView, ImportResult } from '@cbh/contracts';
import { agentBreaker, agentReport, sendAgentReport, serviceToken } from '../../test/agent-reports';
import { apiForThisFile, DEMO_PASSWORD, signIn } from '../../test/test-api';
import { simpleBreaker } from '../../test/breaker-bodies';

const spec = apiForThisFile();
const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;
const post = (path: string, body?: unknown, cookie = spec.admin) => spec.api.call(path, { method: 'POST', body, cookie });
const get = <T>(path: string) => json<T>(spec.api.call(path, { cookie: spec.admin }));

const breaker = simpleBreaker('Drill Target');

/** A saved drill naming a hub breaker by its name (in another letter case) and an agent's by { service, name }. */
const SAVED = {
  name: 'Payments failover',
  steps: [
    { breaker: 'drill target', fault: { kind: 'latency', rate: 0.25, latencyMs: 800 }, instances: 'all', durationSeconds: 600 },
    { breaker: { service: 'checkout', name: 'payments' }, fault: { kind: 'error', rate: 0.5 }, instances: 50, durationSeconds: 60 },
  ],
  expectations: [{ breaker: { service: 'checkout', name: 'payments' }, state: 'OPEN', withinSeconds: 30, after: 'start' }],
};

let target: BreakerConfigView;
let payments: BreakerConfigView;

beforeAll(async () => {
  const token = await serviceToken(spec.api, spec.admin, 'checkout');
  expect((await sendAgentReport(spec.api.baseUrl, token, agentReport('checkout', 'i-1', [agentBreaker('payments')]))).status).toBe(200);
  // saved drills are kept by the configuration document: the hub breaker and the drill in one import
  const imported = await post('/api/import', { version: 1, breakers: [breaker], services: [], domains: [], drills: [SAVED] });
  expect({ status: imported.status, changes: ((await imported.json()) as ImportResult).changes }).toEqual({
    status: 200,
    changes: [
      { kind: 'breaker', name: 'Drill Target', action: 'create' },
      { kind: 'drill', name: 'Payments failover', action: 'create' },
    ],
  });
  const breakers = await get<BreakerConfigView[]>('/api/circuit-breakers');
  target = breakers.find((each) => each.name === 'Drill Target')!;
  payments = breakers.find((each) => each.name === 'payments')!;
});

it('lists saved drills as stored, breakers by name', async () => {
  const [saved] = await get<DrillDefinitionView[]>('/api/drill-definitions');
  expect(saved).toEqual({ id: expect.any(Number), ...SAVED, updatedAt: expect.any(String) });
});

it('runs a saved drill with its breakers resolved, as POST /api/drills would start it', async () => {
  const [saved] = await get<DrillDefinitionView[]>('/api/drill-definitions');
  const started = await post(`/api/drill-definitions/${saved!.id}/run`);
  expect(started.status).toBe(201);
  const view = (await started.json()) as DrillView;
  expect(view).toMatchObject({ name: 'Payments failover', state: 'running', verdict: 'pending' });
  expect(view.steps.map((step) => step.breaker)).toEqual([
    { id: target.id, name: 'Drill Target', service: null },
    { id: payments.id, name: 'payments', service: 'checkout' },
  ]);
  expect(view.steps[1]).toMatchObject({ fault: { kind: 'error', rate: 0.5 }, instances: 50, durationSeconds: 60 });
  expect(view.expectations).toEqual([
    {
      breaker: { id: payments.id, name: 'payments', service: 'checkout' },
      state: 'OPEN',
      withinSeconds: 30,
      after: 'start',
      result: 'pending',
      tookSeconds: null,
    },
  ]);
  const [audit] = await spec.api.sql(`SELECT after FROM audit_entries WHERE action = 'drill.start' ORDER BY id DESC LIMIT 1`);
  expect(audit.after.name).toBe('Payments failover');
  // the same checks as a drill sent by hand: its breakers are held until it ends
  expect((await post(`/api/drill-definitions/${saved!.id}/run`)).status).toBe(409);
  expect(await json(post(`/api/drills/${view.id}/stop`))).toMatchObject({ state: 'stopped' });
});

it('refuses to run a saved drill whose hub breaker is gone (422 naming it), an unknown one (404) and a viewer (403)', async () => {
  const [saved] = await get<DrillDefinitionView[]>('/api/drill-definitions');
  expect((await spec.api.call(`/api/circuit-breakers/${target.id}`, { method: 'DELETE', cookie: spec.admin })).status).toBe(204);
  const gone = await post(`/api/drill-definitions/${saved!.id}/run`);
  expect(gone.status).toBe(422);
  expect((await gone.json()).message).toBe('steps[0].breaker: no hub breaker named drill target');
  // the drill is kept as it was: it runs again once a breaker of that name is back
  expect((await get<DrillDefinitionView[]>('/api/drill-definitions'))[0]).toEqual(saved);
  expect((await post('/api/drill-definitions/999999/run')).status).toBe(404);

  const viewer = await signIn(spec.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
  expect((await spec.api.call('/api/drill-definitions', { cookie: viewer })).status).toBe(403);
  expect((await post(`/api/drill-definitions/${saved!.id}/run`, undefined, viewer)).status).toBe(403);
  expect(await spec.api.sql("SELECT 1 FROM drills WHERE state = 'running'")).toEqual([]);
});
