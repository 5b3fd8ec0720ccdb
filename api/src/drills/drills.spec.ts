import type { AgentReport, AgentReportReply, BreakerConfigView, DrillDetailView, DrillView } from '@cbh/contracts';
import { agentBreaker, agentReport, sendAgentReport, serviceToken } from '../../test/agent-reports';
import { apiForThisFile, DEMO_PASSWORD, eventually, signIn } from '../../test/test-api';
import { faultedCall } from '../breakers/breaker-faults';
import { instanceChosen } from './drill-plan';
import { simpleBreaker } from '../../test/breaker-bodies';

const spec = apiForThisFile();
const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;
const post = (path: string, body?: unknown, cookie = spec.admin) => spec.api.call(path, { method: 'POST', body, cookie });
const get = <T>(path: string) => json<T>(spec.api.call(path, { cookie: spec.admin }));

/** An instance's report of its payments breaker, saying what it does with faults; the hub's reply. */
async function report(token: string, instance: string, fields: Partial<AgentReport> = {}, breaker = agentBreaker('payments')) {
  const response = await sendAgentReport(spec.api.baseUrl, token, { ...agentReport('checkout', instance, [breaker]), ...fields });
  expect(response.status).toBe(200);
  return (await response.json()) as AgentReportReply;
}

const drill = (seconds: number, expectations: unknown[] = []) => ({
  name: 'db-failover',
  steps: [
    { breaker: { service: 'checkout', name: 'payments' }, fault: { kind: 'error', rate: 0.5 }, instances: 'all', durationSeconds: seconds },
  ],
  expectations,
});

describe('drills', () => {
  let token: string;
  let payments: BreakerConfigView;

  beforeAll(async () => {
    token = await serviceToken(spec.api, spec.admin, 'checkout');
    await report(token, 'i-1');
    const breakers = await get<BreakerConfigView[]>('/api/circuit-breakers');
    payments = breakers.find((breaker) => breaker.name === 'payments')!;
  });

  it('sends the fault to every instance, notes who applied it, judges the expectation from the journal and tells when it ends', async () => {
    const started = await post('/api/drills', drill(2, [{ breaker: payments.id, state: 'OPEN', withinSeconds: 30, after: 'start' }]));
    expect(started.status).toBe(201);
    const view = (await started.json()) as DrillView;
    expect(view).toMatchObject({ name: 'db-failover', state: 'running', verdict: 'pending', startedBy: expect.any(String) });
    expect(view.steps[0]).toMatchObject({
      breaker: { id: payments.id, name: 'payments', service: 'checkout' },
      fault: { kind: 'error', rate: 0.5 },
    });

    // the next report's reply carries the fault, until the step's end
    const faultId = `drill-${view.id}-0`;
    const reply = await report(token, 'i-1', { faults: { allowed: true, active: [] } });
    expect(reply.faults).toEqual([{ id: faultId, breaker: 'payments', kind: 'error', rate: 0.5, until: view.steps[0]!.endsAt }]);
    // the instance applies it and its breaker opens
    const opened = agentBreaker(
      'payments',
      { failures: 10 },
      {
        state: 'OPEN',
        transitions: [{ from: 'CLOSED', to: 'OPEN', at: new Date().toISOString(), reason: 'InjectedFault: 50 % of calls failed' }],
      },
    );
    await report(token, 'i-1', { faults: { allowed: true, active: [faultId] } }, opened);

    expect(await eventually(async () => (await get<DrillDetailView>(`/api/drills/${view.id}`)).verdict === 'met', 8000)).toBe(true);
    expect(await eventually(async () => (await get<DrillDetailView>(`/api/drills/${view.id}`)).state === 'finished', 8000)).toBe(true);
    const detail = await get<DrillDetailView>(`/api/drills/${view.id}`);
    expect(detail.expectations[0]).toMatchObject({ result: 'met', tookSeconds: expect.any(Number) });
    const kinds = detail.timeline.map((entry) => entry.kind);
    for (const kind of ['started', 'step_started', 'fault_sent', 'fault_applied', 'transition', 'expectation_met', 'finished'] as const) {
      expect(kinds).toContain(kind);
    }
    expect(detail.timeline.find((entry) => entry.kind === 'fault_applied')).toMatchObject({ instance: 'checkout/i-1' });
    // past its end the instance is sent no fault, and drill.started and drill.finished were raised
    expect((await report(token, 'i-1')).faults).toBeUndefined();
    expect(
      await eventually(
        async () =>
          (await spec.api.sql(`SELECT 1 FROM notification_events WHERE type = 'drill.finished' AND subject_id = $1`, [view.id])).length ===
          1,
        5000,
      ),
    ).toBe(true);
    const [started_] = await spec.api.sql(`SELECT data FROM notification_events WHERE type = 'drill.started' AND subject_id = $1`, [
      view.id,
    ]);
    expect(started_.data).toMatchObject({
      drill: { id: view.id, name: 'db-failover' },
      steps: ['errors on 50 % of calls of payments (checkout), all instances, 2 s'],
    });
    // the breaker's journal says what was done to its calls, by which drill, at the state it was in (no move, no event)
    const [note] = await spec.api.sql(
      `SELECT from_state, to_state, reason FROM breaker_transitions WHERE config_id = $1 ORDER BY id LIMIT 1`,
      [payments.id],
    );
    expect(note).toEqual({
      from_state: 'CLOSED',
      to_state: 'CLOSED',
      reason: "errors on 50 % of payments' calls for 2 s, drill 'db-failover'",
    });
    const [audit] = await spec.api.sql(`SELECT after FROM audit_entries WHERE action = 'drill.start' ORDER BY id DESC LIMIT 1`);
    expect(audit.after.steps).toEqual(['errors on 50 % of calls of payments (checkout), all instances, 2 s']);
  });

  it('holds a breaker for one drill at a time, and the kill switch ends every fault at the next report', async () => {
    const first = await json<DrillView>(post('/api/drills', drill(600)));
    const second = await post('/api/drills', drill(60));
    expect(second.status).toBe(409);
    expect((await second.json()).message).toBe(`payments (checkout) is under drill ${first.id} already: one drill per breaker at a time`);
    expect((await report(token, 'i-2')).faults).toHaveLength(1);

    const stopped = await post('/api/drills/stop-all');
    expect(stopped.status).toBe(200);
    expect(await stopped.json()).toEqual({ stopped: 1 });
    expect((await report(token, 'i-2')).faults).toBeUndefined();
    expect(await get<DrillView>(`/api/drills/${first.id}`)).toMatchObject({ state: 'stopped', stoppedBy: expect.any(String) });
    expect((await post(`/api/drills/${first.id}/stop`)).status).toBe(409);
  });

  it('notes a service that did not opt in as refusing the fault', async () => {
    const view = await json<DrillView>(post('/api/drills', drill(600)));
    const sent = await report(token, 'i-3', { faults: { allowed: false, active: [] } });
    expect(sent.faults).toHaveLength(1);
    expect(
      await eventually(
        async () => (await get<DrillDetailView>(`/api/drills/${view.id}`)).timeline.some((entry) => entry.kind === 'fault_refused'),
        5000,
      ),
    ).toBe(true);
    const refused = (await get<DrillDetailView>(`/api/drills/${view.id}`)).timeline.find((entry) => entry.kind === 'fault_refused');
    expect(refused).toMatchObject({
      instance: 'checkout/i-3',
      text: `Fault drill-${view.id}-0 refused by checkout/i-3: this service does not take faults`,
    });
    await post(`/api/drills/${view.id}/stop`);
  });

  it('refuses what it cannot run: an unknown breaker (422), a bad body (400), a viewer (403), an old sign-in (403)', async () => {
    const unknown = await post('/api/drills', {
      ...drill(10),
      steps: [{ ...drill(10).steps[0], breaker: { service: 'checkout', name: 'nope' } }],
    });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).message).toBe('steps[0].breaker: no breaker nope of the service checkout');
    const tooLong = await post('/api/drills', { ...drill(10), steps: [{ ...drill(10).steps[0], durationSeconds: 901 }] });
    expect(tooLong.status).toBe(400);
    const viewer = await signIn(spec.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
    expect((await post('/api/drills', drill(10), viewer)).status).toBe(403);
    expect((await spec.api.call('/api/drills', { cookie: viewer })).status).toBe(403);
    // the admin's sign-in, made older than 10 minutes
    const admin = await signIn(spec.api.baseUrl, 'admin@demo.example.com', DEMO_PASSWORD);
    await spec.api.sql(
      `UPDATE sessions SET signed_in_at = now() - interval '11 minutes' WHERE user_id = (SELECT id FROM users WHERE email = 'admin@demo.example.com')`,
    );
    const stale = await post('/api/drills', drill(10), admin);
    expect(stale.status).toBe(403);
    expect((await stale.json()).message).toBe(
      'Sign in again to start a drill: it hurts real traffic, so it needs a sign-in within the last 10 minutes',
    );
  });
});

describe('a fault on the hub’s own breakers', () => {
  it('reaches a load test’s simulated calls: errors on every call open the breaker, and the drill says met', async () => {
    const made = await post('/api/circuit-breakers', simpleBreaker('Drilled ledger'));
    const ledger = (await made.json()) as BreakerConfigView;
    // a load test that fails nothing by itself
    const session = await post('/api/test-sessions', { configId: ledger.id, failureRate: 0, requestRate: 20, duration: 1 });
    expect(session.status).toBe(201);
    const view = await json<DrillView>(
      post('/api/drills', {
        name: 'ledger-errors',
        steps: [{ breaker: ledger.id, fault: { kind: 'error', rate: 1 }, instances: 'all', durationSeconds: 5 }],
        expectations: [{ breaker: ledger.id, state: 'OPEN', withinSeconds: 5, after: 'start' }],
      }),
    );
    expect(await eventually(async () => (await get<DrillView>(`/api/drills/${view.id}`)).verdict !== 'pending', 8000)).toBe(true);
    expect(await get<DrillView>(`/api/drills/${view.id}`)).toMatchObject({
      verdict: 'met',
      steps: [{ breaker: { name: 'Drilled ledger', service: null } }],
    });
    await post(`/api/test-sessions/${((await session.json()) as { id: number }).id}/stop`);
    await post('/api/drills/stop-all');
  });

  it('fails, slows or times out the share of simulated calls the random picks, and leaves the others', () => {
    const call = { ok: true, latencyMs: 20 };
    expect(faultedCall({ kind: 'error', rate: 0.5 }, call, 5000, () => 0.4)).toEqual({ ok: false, latencyMs: 1 });
    expect(faultedCall({ kind: 'error', rate: 0.5 }, call, 5000, () => 0.6)).toBe(call);
    expect(faultedCall({ kind: 'latency', rate: 1, latencyMs: 800 }, call, 5000, () => 0.1)).toEqual({ ok: true, latencyMs: 820 });
    expect(faultedCall({ kind: 'timeout', rate: 1 }, call, 5000, () => 0.1)).toEqual({ ok: false, latencyMs: 5000 });
    expect(faultedCall(undefined, call, 5000)).toBe(call);
  });

  it('chooses a share of instances the same way every time, and every one for all', () => {
    const chosen = Array.from({ length: 1000 }, (_, i) => instanceChosen('drill-1-0', `svc/i-${i}`, 25)).filter(Boolean).length;
    expect(chosen).toBeGreaterThan(180);
    expect(chosen).toBeLessThan(320);
    expect(instanceChosen('drill-1-0', 'svc/i-7', 25)).toBe(instanceChosen('drill-1-0', 'svc/i-7', 25));
    expect(instanceChosen('drill-1-0', 'svc/i-7', 'all')).toBe(true);
  });
});
