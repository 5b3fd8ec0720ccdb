// Drills' faults injected into real breakers' calls: each library's breaker must see them as its own calls' outcomes.
import { isBreakerRejection } from '@cbh/breaker';
import type { AgentFault, BreakerSettings } from '@cbh/contracts';
import { BrokenCircuitError } from 'cockatiel';
import CircuitBreaker from 'opossum';
import { performance } from 'node:perf_hooks';
import { createAgent, type Agent } from '../agent';
import { InjectedFault, isInjectedFault } from '../faults';
import { CbhAdapter } from './cbh';
import { CockatielAdapter } from './cockatiel';
import { OpossumAdapter } from './opossum';
import { callThrough } from './test-kit';

const T0 = Date.UTC(2026, 0, 1);

/** An agent that takes faults, on a clock and a random of the test's. */
function faultyAgent(random: () => number = () => 0) {
  const clock = { time: T0 };
  const agent = createAgent({ service: 'checkout', instance: 'checkout-1', allowFaults: true, now: () => clock.time, random });
  return { agent, clock };
}

/** A fault for one breaker, for an hour of the agent's clock unless told otherwise. */
const fault = (breaker: string, kind: AgentFault['kind'], more: Partial<AgentFault> = {}): AgentFault => ({
  id: `drill-1-${kind}`,
  breaker,
  kind,
  rate: 1,
  until: new Date(T0 + 3_600_000).toISOString(),
  ...more,
});

/** Runs the fault on the agent and checks that it was taken. */
function inject(agent: Agent, ...faults: AgentFault[]): void {
  const change = agent.applyFaults(faults);
  expect(change.refused).toEqual([]);
  expect(agent.activeFaults()).toEqual(faults.map((f) => f.id));
}

/** A random that answers these values in turn. */
const sequence = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length]!;
};

/** How long a call took, in ms, and what it gave. */
async function timed<T>(call: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await call();
  return { ms: performance.now() - started, value };
}

const windowOf = (agent: Agent, name: string) => agent.report().breakers.find((b) => b.name === name)!.window;

describe('faults in a real opossum breaker', () => {
  let circuit: CircuitBreaker<[], string>;
  let calls: number;
  const make = (options: CircuitBreaker.Options = {}) => {
    calls = 0;
    circuit = new CircuitBreaker(
      async () => {
        calls++;
        return 'ok';
      },
      { name: 'payments', errorThresholdPercentage: 50, volumeThreshold: 2, resetTimeout: 60_000, timeout: 1000, ...options },
    );
    return new OpossumAdapter(circuit);
  };
  const fire = () => circuit.fire().catch((error: Error) => error);
  afterEach(() => circuit.shutdown());

  it('an error fault at rate 1 fails every call with InjectedFault, the call not made, and opossum opens', async () => {
    const { agent } = faultyAgent();
    agent.register(make());
    inject(agent, fault('payments', 'error'));
    const first = await fire();
    expect(first).toBeInstanceOf(InjectedFault);
    expect(first).toMatchObject({ name: 'InjectedFault', faultId: 'drill-1-error', kind: 'error', breaker: 'payments' });
    expect(isInjectedFault(first)).toBe(true);
    await fire();
    expect(circuit.opened).toBe(true);
    expect(await fire()).toMatchObject({ code: 'EOPENBREAKER' });
    expect(calls).toBe(0);
    expect(windowOf(agent, 'payments')).toMatchObject({ failures: 2, rejections: 1 });
  });

  it('a latency fault delays the call by latencyMs, then makes it; opossum times the longer call', async () => {
    const { agent } = faultyAgent();
    agent.register(make());
    inject(agent, fault('payments', 'latency', { latencyMs: 60 }));
    const { ms, value } = await timed(fire);
    expect(value).toBe('ok');
    expect(ms).toBeGreaterThanOrEqual(59);
    expect(calls).toBe(1);
    expect(windowOf(agent, 'payments')).toMatchObject({ successes: 1, longestCallMs: expect.any(Number) });
  });

  it('a timeout fault makes opossum time the call out (past its own timeout when latencyMs is left out), the call not made', async () => {
    const { agent } = faultyAgent();
    agent.register(make({ timeout: 30, volumeThreshold: 1 }));
    inject(agent, fault('payments', 'timeout'));
    const { ms, value } = await timed(fire);
    expect(value).toMatchObject({ code: 'ETIMEDOUT' });
    expect(ms).toBeGreaterThanOrEqual(29);
    expect(circuit.opened).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 80)); // the fault's own wait ends: its late rejection goes nowhere
    expect(calls).toBe(0);
    expect(windowOf(agent, 'payments')).toMatchObject({ timeouts: 1, failures: 0 });
  });

  it('rate 0.5 hits exactly the calls the random says, and the service action keeps its arguments and this', async () => {
    const { agent } = faultyAgent(sequence(0.2, 0.7, 0.4, 0.9));
    const adapter = make({ errorThresholdPercentage: 100 });
    agent.register(adapter);
    inject(agent, fault('payments', 'error', { rate: 0.5 }));
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push(await fire());
    expect(outcomes.map((outcome) => (isInjectedFault(outcome) ? 'fault' : outcome))).toEqual(['fault', 'ok', 'fault', 'ok']);
    expect(calls).toBe(2);

    const seen: unknown[] = [];
    const own = new CircuitBreaker(function (this: unknown, a: number) {
      seen.push(this, a);
      return Promise.resolve(a);
    });
    const ownAgent = faultyAgent(() => 0.99).agent;
    ownAgent.register(new OpossumAdapter(own, 'own'));
    const action = (own as unknown as { action: unknown }).action;
    inject(ownAgent, fault('own', 'error', { rate: 0.5 }));
    const context = { mine: true };
    expect(await own.call(context, 7)).toBe(7);
    expect(await own.fire(8)).toBe(8);
    expect(seen).toEqual([context, 7, action, 8]); // fire() gives the action itself as this, as without a fault
    own.shutdown();
  });

  it("ends at its until by the agent's clock: the calls run plain again and the service's own action is back", async () => {
    const { agent, clock } = faultyAgent();
    agent.register(make({ errorThresholdPercentage: 100 }));
    const action = (circuit as unknown as { action: unknown }).action;
    inject(agent, fault('payments', 'error', { until: new Date(T0 + 1000).toISOString() }));
    expect((circuit as unknown as { action: unknown }).action).not.toBe(action);
    expect(await fire()).toBeInstanceOf(InjectedFault);
    clock.time = T0 + 1000;
    expect(await fire()).toBe('ok');
    expect((circuit as unknown as { action: unknown }).action).toBe(action);
    expect(agent.activeFaults()).toEqual([]);

    // a fault whose until has passed already is not started
    expect(agent.applyFaults([fault('payments', 'error', { until: new Date(T0).toISOString() })])).toEqual({
      started: [],
      ended: [],
      refused: [],
    });
    expect(await fire()).toBe('ok');
  });
});

describe('faults in a real cockatiel breaker, through CockatielAdapter', () => {
  const make = () => new CockatielAdapter('inventory', { type: 'consecutive', halfOpenAfter: 60_000, threshold: 2 });

  it('an error fault at rate 1 makes cockatiel see failures and open', async () => {
    const { agent } = faultyAgent();
    const adapter = make();
    agent.register(adapter);
    inject(agent, fault('inventory', 'error'));
    expect(await callThrough(adapter, true)).toBeInstanceOf(InjectedFault);
    expect(await callThrough(adapter, true)).toBeInstanceOf(InjectedFault);
    expect(adapter.state()).toBe('OPEN');
    expect(await callThrough(adapter, true)).toBeInstanceOf(BrokenCircuitError);
    expect(windowOf(agent, 'inventory')).toMatchObject({ failures: 2, rejections: 1 });
  });

  it('a latency fault delays the call by latencyMs; a timeout fault is a slow call (no timeout of its own), and needs latencyMs', async () => {
    const { agent } = faultyAgent();
    const adapter = make();
    agent.register(adapter);
    inject(agent, fault('inventory', 'latency', { latencyMs: 60 }));
    const slow = await timed(() => callThrough(adapter, true));
    expect(slow.value).toBe('ok');
    expect(slow.ms).toBeGreaterThanOrEqual(59);

    expect(agent.applyFaults([fault('inventory', 'timeout')]).refused).toEqual([
      { id: 'drill-1-timeout', reason: 'breaker "inventory" (cockatiel) has no timeout of its own: a timeout fault on it needs latencyMs' },
    ]);
    inject(agent, fault('inventory', 'timeout', { latencyMs: 40 }));
    const late = await timed(() => callThrough(adapter, true));
    expect(late.value).toBe('ok');
    expect(late.ms).toBeGreaterThanOrEqual(39);
    expect(windowOf(agent, 'inventory')).toMatchObject({ successes: 2, failures: 0 });
  });

  it('rate 0.5 hits exactly the calls the random says; until past ends it', async () => {
    const { agent, clock } = faultyAgent(sequence(0.9, 0.1, 0.6, 0.3));
    const adapter = new CockatielAdapter('inventory', { type: 'consecutive', halfOpenAfter: 60_000, threshold: 10 });
    agent.register(adapter);
    inject(agent, fault('inventory', 'error', { rate: 0.5 }));
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push(await callThrough(adapter, true));
    expect(outcomes.map((outcome) => (isInjectedFault(outcome) ? 'fault' : outcome))).toEqual(['ok', 'fault', 'ok', 'fault']);
    clock.time = T0 + 3_600_000;
    for (let i = 0; i < 4; i++) expect(await callThrough(adapter, true)).toBe('ok');
    expect(agent.activeFaults()).toEqual([]);
  });
});

describe('faults in a real @cbh/breaker, through CbhAdapter', () => {
  const SIMPLE: BreakerSettings = { type: 'simple', failureThreshold: 2, timeout: 30_000, recoveryTime: 60_000, successThreshold: 1 };

  it('an error fault at rate 1 makes the breaker see failures and open', async () => {
    const { agent } = faultyAgent();
    const adapter = new CbhAdapter('ledger', SIMPLE);
    agent.register(adapter);
    inject(agent, fault('ledger', 'error'));
    expect(await callThrough(adapter, true)).toBeInstanceOf(InjectedFault);
    expect(await callThrough(adapter, true)).toBeInstanceOf(InjectedFault);
    expect(adapter.state()).toBe('OPEN');
    expect(isBreakerRejection(await callThrough(adapter, true))).toBe(true);
    expect(windowOf(agent, 'ledger')).toMatchObject({ failures: 2, rejections: 1 });
  });

  it('a latency fault delays the call by latencyMs; rate 0.5 hits the calls the random says; until past ends it', async () => {
    const { agent, clock } = faultyAgent(sequence(0.49, 0.5));
    const adapter = new CbhAdapter('ledger', { ...SIMPLE, failureThreshold: 10 });
    agent.register(adapter);
    inject(agent, fault('ledger', 'latency', { latencyMs: 60 }));
    const slow = await timed(() => callThrough(adapter, true));
    expect(slow.value).toBe('ok');
    expect(slow.ms).toBeGreaterThanOrEqual(59);

    inject(agent, fault('ledger', 'error', { rate: 0.5 }));
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push(await callThrough(adapter, true));
    expect(outcomes.map((outcome) => (isInjectedFault(outcome) ? 'fault' : outcome))).toEqual(['ok', 'fault', 'ok', 'fault']);
    clock.time = T0 + 3_600_000;
    expect(await callThrough(adapter, true)).toBe('ok');
    expect(agent.activeFaults()).toEqual([]);
  });

  it("a timeout fault makes an adaptive breaker's call slower than its slow-call duration, so it counts as failed and opens", async () => {
    const { agent } = faultyAgent();
    const adaptive: BreakerSettings = { ...SIMPLE, type: 'adaptive', failureThreshold: 10, minimumCalls: 1, slowCallDuration: 20 };
    const adapter = new CbhAdapter('ledger', adaptive);
    agent.register(adapter);
    expect(adapter.callLimit()).toEqual({ ms: 20, cuts: false });
    inject(agent, fault('ledger', 'timeout'));
    const late = await timed(() => callThrough(adapter, true));
    expect(late.value).toBe('ok'); // the breaker does not cut a call short: it judges it once it ends
    expect(late.ms).toBeGreaterThanOrEqual(39); // 20 ms and a little more
    expect(adapter.state()).toBe('OPEN');
    expect(windowOf(agent, 'ledger')).toMatchObject({ slowCalls: 1 });

    // the simple type has no limit on a call: a timeout fault needs latencyMs there
    const simple = new CbhAdapter('simple', SIMPLE);
    agent.register(simple);
    expect(agent.applyFaults([fault('simple', 'timeout')]).refused[0]!.reason).toMatch(/has no timeout of its own/);
  });
});
