import { agentReportSchema, type AgentFault, type BreakerSettings } from '@cbh/contracts';
import CircuitBreaker from 'opossum';
import { CbhAdapter } from './adapters/cbh';
import { OpossumAdapter } from './adapters/opossum';
import { callThrough } from './adapters/test-kit';
import { createAgent, type AgentOptions } from './agent';
import { FAULTS_NOT_ALLOWED, InjectedFault } from './faults';
import { mergeReports } from './merge-reports';

const T0 = Date.UTC(2026, 0, 1);
const SIMPLE: BreakerSettings = { type: 'simple', failureThreshold: 100, timeout: 30_000, recoveryTime: 60_000, successThreshold: 1 };
const UNTIL = new Date(T0 + 3_600_000).toISOString();

const fault = (id: string, breaker: string, more: Partial<AgentFault> = {}): AgentFault => ({
  id,
  breaker,
  kind: 'error',
  rate: 1,
  until: UNTIL,
  ...more,
});

/** An agent on the test's clock with two @cbh/breaker breakers, payments and ledger. */
function setUp(options: Partial<AgentOptions> = {}) {
  const clock = { time: T0 };
  const agent = createAgent({ service: 'checkout', instance: 'checkout-1', now: () => clock.time, allowFaults: true, ...options });
  const payments = new CbhAdapter('payments', SIMPLE);
  const ledger = new CbhAdapter('ledger', SIMPLE);
  const unregister = { payments: agent.register(payments), ledger: agent.register(ledger) };
  return { agent, clock, payments, ledger, unregister };
}

describe('the agent and the hub’s faults', () => {
  it('refuses every fault when the service did not opt in: the calls are untouched, and the report says so once', async () => {
    const { agent, payments } = setUp({ allowFaults: undefined });
    expect(agent.allowFaults).toBe(false);
    const change = agent.applyFaults([fault('drill-1-0', 'payments'), fault('drill-1-1', 'nowhere')]);
    expect(change).toEqual({
      started: [],
      ended: [],
      refused: [
        { id: 'drill-1-0', reason: FAULTS_NOT_ALLOWED },
        { id: 'drill-1-1', reason: FAULTS_NOT_ALLOWED },
      ],
    });
    expect(FAULTS_NOT_ALLOWED).toBe('this service does not take faults: createAgent({ allowFaults: true })');
    expect(await callThrough(payments, true)).toBe('ok');
    agent.applyFaults([fault('drill-1-0', 'payments')]); // the hub sends its list with every reply
    expect(agent.report().faults).toEqual({
      allowed: false,
      active: [],
      refused: [
        { id: 'drill-1-0', reason: FAULTS_NOT_ALLOWED },
        { id: 'drill-1-1', reason: FAULTS_NOT_ALLOWED },
      ],
    });
    expect(agent.report().faults).toEqual({ allowed: false, active: [] });
  });

  it('every report says what it runs; a fault for a breaker not registered, or one it cannot apply, is refused with why', () => {
    const { agent } = setUp();
    expect(agent.report().faults).toEqual({ allowed: true, active: [] });
    const change = agent.applyFaults([
      fault('a', 'payments'),
      fault('b', 'nowhere'),
      fault('c', 'ledger', { kind: 'explode' as AgentFault['kind'] }),
      fault('d', 'ledger', { rate: 2 }),
      fault('e', 'ledger', { until: 'tomorrow' }),
      fault('f', 'ledger', { kind: 'latency' }),
      fault('g', 'ledger', { kind: 'latency', latencyMs: -1 }),
      { breaker: 'ledger', kind: 'error', rate: 1, until: UNTIL },
      'a fault',
      fault('h', 'payments'),
    ]);
    expect(change.started.map((f) => f.id)).toEqual(['a']);
    expect(change.refused).toEqual([
      { id: 'b', reason: 'no breaker named "nowhere" is registered' },
      { id: 'c', reason: 'unknown kind "explode": this agent takes latency, error, timeout' },
      { id: 'd', reason: 'rate must be a number from 0 to 1' },
      { id: 'e', reason: 'until must be an ISO 8601 time' },
      { id: 'f', reason: 'a latency fault needs latencyMs' },
      { id: 'g', reason: 'latencyMs must be a number from 0 to 2147483647' },
      { id: '', reason: 'its id must be 1 to 100 characters' },
      { id: '', reason: 'not a fault' },
      { id: 'h', reason: 'breaker "payments" runs fault a already: one fault per breaker' },
    ]);
    const report = agent.report();
    // each id once, with its latest reason
    const once = [...change.refused.slice(0, 6), { id: '', reason: 'not a fault' }, change.refused[8]];
    expect(report.faults).toEqual({ allowed: true, active: ['a'], refused: once });
    expect(agentReportSchema.safeParse(report).success).toBe(true);
  });

  it('takes each reply as the whole list: a fault left out ends, no list ends them all, a repeated one goes on as it was', async () => {
    const { agent, clock, payments, ledger } = setUp();
    const both = [fault('drill-1-0', 'payments'), fault('drill-2-0', 'ledger')];
    expect(agent.applyFaults(both).started.map((f) => f.id)).toEqual(['drill-1-0', 'drill-2-0']);
    expect(agent.applyFaults(both)).toEqual({ started: [], ended: [], refused: [] });
    expect(await callThrough(payments, true)).toBeInstanceOf(InjectedFault);

    // the same step, its end moved earlier: updated, not started again
    const sooner = fault('drill-1-0', 'payments', { until: new Date(T0 + 1000).toISOString() });
    expect(agent.applyFaults([sooner, both[1]!])).toEqual({ started: [], ended: [], refused: [] });
    clock.time = T0 + 1000;
    expect(await callThrough(payments, true)).toBe('ok');
    expect(agent.activeFaults()).toEqual(['drill-2-0']);

    clock.time = T0;
    expect(agent.applyFaults([both[1]])).toMatchObject({ started: [], ended: [] });
    expect(agent.applyFaults(undefined)).toEqual({ started: [], ended: ['drill-2-0'], refused: [] });
    expect(await callThrough(ledger, true)).toBe('ok');
    expect(agent.report().faults).toEqual({ allowed: true, active: [] });

    // a garbled list is no list: fail safe
    agent.applyFaults(both);
    expect(agent.applyFaults({ faults: both }).ended).toEqual(['drill-1-0', 'drill-2-0']);
    expect(agent.activeFaults()).toEqual([]);
  });

  it('a breaker unregistered takes its fault with it (its opossum action put back); dropFaults() ends them all', async () => {
    const { agent, ledger } = setUp();
    const circuit = new CircuitBreaker(async () => 'ok', { name: 'orders' });
    const action = (circuit as unknown as { action: unknown }).action;
    const unregister = agent.register(new OpossumAdapter(circuit));
    agent.applyFaults([fault('drill-1-0', 'orders'), fault('drill-1-1', 'ledger')]);
    expect((circuit as unknown as { action: unknown }).action).not.toBe(action);
    unregister();
    expect((circuit as unknown as { action: unknown }).action).toBe(action);
    expect(await circuit.fire()).toBe('ok');
    expect(agent.activeFaults()).toEqual(['drill-1-1']);
    expect(agent.dropFaults()).toEqual(['drill-1-1']);
    expect(await callThrough(ledger, true)).toBe('ok');
    circuit.shutdown();
  });

  it('the hub’s schema takes a report with faults and one without (an agent from before them)', () => {
    const { agent } = setUp();
    agent.applyFaults([fault('drill-1-0', 'payments'), fault('drill-1-1', 'nowhere')]);
    const report = agent.report();
    expect(report.faults).toEqual({ allowed: true, active: ['drill-1-0'], refused: [{ id: 'drill-1-1', reason: expect.any(String) }] });
    expect(agentReportSchema.safeParse(report).success).toBe(true);
    const { faults: _faults, ...older } = report;
    expect(agentReportSchema.safeParse(older).success).toBe(true);
  });

  it('mergeReports keeps the newer status with the refusals of both', () => {
    const { agent } = setUp();
    agent.applyFaults([fault('drill-1-0', 'nowhere')]);
    const older = agent.report();
    agent.applyFaults([fault('drill-1-1', 'payments'), fault('drill-1-2', 'nowhere')]);
    const newer = agent.report();
    expect(mergeReports(older, newer).faults).toEqual({
      allowed: true,
      active: ['drill-1-1'],
      refused: [
        { id: 'drill-1-0', reason: 'no breaker named "nowhere" is registered' },
        { id: 'drill-1-2', reason: 'no breaker named "nowhere" is registered' },
      ],
    });
  });
});
