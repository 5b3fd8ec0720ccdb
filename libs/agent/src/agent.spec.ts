import { AGENT_PROTOCOL_LIMITS, AGENT_PROTOCOL_VERSION, BREAKER_OVERRIDES, BREAKER_STATES, type AgentReport } from '@cbh/contracts';
import CircuitBreaker from 'opossum';
import { CbhAdapter } from './adapters/cbh';
import { CockatielAdapter } from './adapters/cockatiel';
import { OpossumAdapter } from './adapters/opossum';
import { createAgent } from './agent';

const SIMPLE = { type: 'simple', failureThreshold: 3, timeout: 30_000, recoveryTime: 60_000, successThreshold: 1 } as const;
const cbh = (name: string) => new CbhAdapter(name, SIMPLE);

/** What the hub will check of a report: its version, its shape and the protocol's limits. */
function checkReport(report: AgentReport): void {
  expect(report.version).toBe(AGENT_PROTOCOL_VERSION);
  expect(new Date(report.sentAt).toISOString()).toBe(report.sentAt);
  expect(report.breakers.length).toBeLessThanOrEqual(AGENT_PROTOCOL_LIMITS.breakersPerInstance);
  let transitions = 0;
  for (const breaker of report.breakers) {
    expect(['opossum', 'cockatiel', 'cbh']).toContain(breaker.library);
    expect(BREAKER_STATES).toContain(breaker.state);
    expect(BREAKER_OVERRIDES).toContain(breaker.override);
    const { boundsMs, counts } = breaker.window.latencyHistogram;
    expect(counts).toHaveLength(boundsMs.length + 1);
    expect(counts.length).toBeLessThanOrEqual(AGENT_PROTOCOL_LIMITS.histogramBins);
    expect(breaker.settings).toBeDefined();
    for (const value of Object.values(breaker.settings!)) expect(['number', 'string', 'boolean']).toContain(typeof value);
    for (const t of breaker.transitions) expect(new Date(t.at).toISOString()).toBe(t.at);
    transitions += breaker.transitions.length;
  }
  expect(transitions).toBeLessThanOrEqual(AGENT_PROTOCOL_LIMITS.transitionsPerReport);
  expect(JSON.parse(JSON.stringify(report))).toEqual(report);
}

describe('createAgent', () => {
  let circuit: CircuitBreaker<[boolean], string> | undefined;
  afterEach(() => circuit?.shutdown());

  it('reports every registered breaker of the three libraries with its period and transitions, then starts afresh', async () => {
    const agent = createAgent({ service: 'checkout', instance: 'checkout-1', now: () => Date.UTC(2026, 0, 1) });
    circuit = new CircuitBreaker(async (ok: boolean) => (ok ? 'ok' : Promise.reject(new Error('boom'))), {
      errorThresholdPercentage: 50,
      volumeThreshold: 2,
    });
    const opossum = new OpossumAdapter(circuit, 'payments');
    const cockatiel = new CockatielAdapter('inventory', { type: 'consecutive', halfOpenAfter: 60_000, threshold: 2 });
    const ledger = cbh('ledger');
    agent.register(opossum);
    agent.register(cockatiel);
    agent.register(ledger);
    await circuit.fire(true);
    await circuit.fire(false).catch(() => undefined);
    await circuit.fire(false).catch(() => undefined);
    await cockatiel.execute(() => 'ok');
    await ledger.execute(async () => 'ok');

    const report = agent.report();
    checkReport(report);
    expect(report).toMatchObject({ version: 1, service: 'checkout', instance: 'checkout-1', sentAt: '2026-01-01T00:00:00.000Z' });
    expect(report.breakers.map((b) => [b.name, b.library, b.type, b.state])).toEqual([
      ['payments', 'opossum', 'error-percentage', 'OPEN'],
      ['inventory', 'cockatiel', 'consecutive', 'CLOSED'],
      ['ledger', 'cbh', 'simple', 'CLOSED'],
    ]);
    expect(report.breakers[0]).toMatchObject({
      override: 'none',
      window: { successes: 1, failures: 2 },
      transitions: [{ from: 'CLOSED', to: 'OPEN', reason: 'error rate above 50%' }],
    });
    expect(report.breakers[1]!.window.successes).toBe(1);
    expect(report.breakers[2]!.settings).toEqual(SIMPLE);

    const next = agent.report();
    checkReport(next);
    expect(next.breakers.every((b) => b.transitions.length === 0 && b.window.successes + b.window.failures === 0)).toBe(true);
  });

  it('refuses a breaker beyond the limit, a second one of a name, and names that are empty or too long', () => {
    const agent = createAgent({ service: 'checkout', instance: 'checkout-1' });
    for (let i = 0; i < AGENT_PROTOCOL_LIMITS.breakersPerInstance; i++) agent.register(cbh(`b${i}`));
    expect(() => agent.register(cbh('one-too-many'))).toThrow('an instance reports at most 500 breakers');
    expect(() => agent.register(cbh('b1'))).toThrow('already registered');
    checkReport(agent.report());
    const other = createAgent({ service: 'checkout', instance: 'checkout-2' });
    expect(() => other.register(cbh(''))).toThrow(RangeError);
    expect(() => other.register(cbh('x'.repeat(201)))).toThrow(RangeError);
    expect(() => createAgent({ service: ' ', instance: 'i' })).toThrow(RangeError);
  });

  it('unregisters a breaker, and then reports it no more', () => {
    const agent = createAgent({ service: 'checkout', instance: 'checkout-1' });
    const stop = agent.register(cbh('ledger'));
    agent.register(cbh('orders'));
    stop();
    expect(agent.names()).toEqual(['orders']);
    expect(agent.report().breakers.map((b) => b.name)).toEqual(['orders']);
    agent.register(cbh('ledger'));
  });

  it('keeps the newest transitions up to the limit of a report', () => {
    const agent = createAgent({ service: 'checkout', instance: 'checkout-1' });
    const ledger = cbh('ledger');
    agent.register(ledger);
    for (let i = 0; i < 60; i++) {
      ledger.forceOpen(`open ${i}`);
      ledger.reset(`reset ${i}`);
    }
    const report = agent.report();
    checkReport(report);
    const transitions = report.breakers[0]!.transitions;
    expect(transitions).toHaveLength(AGENT_PROTOCOL_LIMITS.transitionsPerReport);
    expect(transitions[0]!.reason).toBe('open 10');
    expect(transitions.at(-1)!.reason).toBe('reset 59');
  });

  it("applies the hub's commands and settings to the named breaker", async () => {
    const agent = createAgent({ service: 'checkout', instance: 'checkout-1' });
    const ledger = cbh('ledger');
    agent.register(ledger);
    agent.command({ name: 'ledger', action: 'force-open' });
    await expect(ledger.execute(async () => 'ok')).rejects.toThrow('Circuit breaker is OPEN');
    expect(agent.report().breakers[0]).toMatchObject({
      state: 'OPEN',
      override: 'forced-open',
      window: { rejections: 1 },
      transitions: [{ from: 'CLOSED', to: 'OPEN', reason: 'forced open' }],
    });
    agent.command({ name: 'ledger', action: 'reset' });
    agent.command({ name: 'ledger', action: 'disable' });
    expect(ledger.override).toBe('disabled');
    agent.command({ name: 'ledger', action: 'force-closed' });
    expect(ledger.override).toBe('forced-closed');
    expect(agent.changeSettings({ name: 'ledger', settings: { failureThreshold: 7 } })).toMatchObject({ applied: ['failureThreshold'] });
    expect(agent.report().breakers[0]!.settings).toMatchObject({ failureThreshold: 7 });
    expect(() => agent.command({ name: 'nope', action: 'reset' })).toThrow('no breaker named "nope"');
  });

  it("applies the hub's control of a breaker once per revision: a reset first, then its settings, then its override", () => {
    const agent = createAgent({ service: 'checkout', instance: 'checkout-1' });
    const ledger = cbh('ledger');
    agent.register(ledger);
    const control = {
      name: 'ledger',
      revision: 1,
      override: 'forced-open',
      settings: { failureThreshold: 4, nope: 1 },
      resetRevision: 0,
    } as const;
    expect(agent.applyControl(control)).toEqual({
      settings: { applied: ['failureThreshold'], unsupported: ['nope'], rebuilt: true },
      refused: null,
    });
    expect(ledger.override).toBe('forced-open');
    expect(ledger.breaker.settings.failureThreshold).toBe(4);

    // a revision applied already is not applied again, whatever became of the breaker since
    agent.command({ name: 'ledger', action: 'reset' });
    expect(agent.applyControl(control)).toBeNull();
    expect(ledger.override).toBe('none');
    agent.report();

    agent.applyControl({ ...control, revision: 3, resetRevision: 2, settings: null });
    expect(ledger.override).toBe('forced-open');
    agent.applyControl({ ...control, revision: 4, resetRevision: 4, settings: null });
    expect(agent.report().breakers[0]!.transitions.map((t) => [t.to, t.reason])).toEqual([
      ['OPEN', 'forced open'],
      ['CLOSED', 'reset'],
      ['OPEN', 'forced open'],
    ]);

    agent.applyControl({ ...control, revision: 5, override: 'none', settings: null });
    expect([ledger.override, ledger.state()]).toEqual(['none', 'CLOSED']);
    expect(agent.applyControl({ ...control, revision: 6, override: 'forced-closed', settings: { failureThreshold: -1 } })).toEqual({
      settings: null,
      refused: 'failureThreshold must be a whole number of at least 0',
    });
    expect(ledger.override).toBe('forced-closed');
    expect(agent.applyControl({ ...control, name: 'nope', revision: 9 })).toBeNull();
  });

  it("lifts with the hub's none only an override the hub put on: a settings change leaves the service's own alone", () => {
    const agent = createAgent({ service: 'checkout', instance: 'checkout-1' });
    const ledger = cbh('ledger');
    agent.register(ledger);
    // the service forced it open itself; the hub then changes a setting only
    agent.command({ name: 'ledger', action: 'force-open' });
    agent.applyControl({ name: 'ledger', revision: 10, override: 'none', settings: { failureThreshold: 3 }, resetRevision: 0 });
    expect([ledger.override, ledger.breaker.settings.failureThreshold]).toEqual(['forced-open', 3]);
    // an override of the hub's, lifted by the hub's none
    agent.applyControl({ name: 'ledger', revision: 11, override: 'disabled', settings: null, resetRevision: 0 });
    expect(ledger.override).toBe('disabled');
    agent.applyControl({ name: 'ledger', revision: 12, override: 'none', settings: null, resetRevision: 0 });
    expect(ledger.override).toBe('none');
  });

  it('says how long each report covers', () => {
    let clock = 1_000;
    const agent = createAgent({ service: 'checkout', instance: 'checkout-1', now: () => clock });
    clock += 1_250;
    expect(agent.report().periodMs).toBe(1_250);
    clock += 980;
    expect(agent.report().periodMs).toBe(980);
  });

  it('hands the report to the send function its caller gives', async () => {
    const agent = createAgent({ service: 'checkout', instance: 'checkout-1' });
    agent.register(cbh('ledger'));
    const sent: AgentReport[] = [];
    await agent.flush((report) => {
      sent.push(report);
    });
    expect(sent).toHaveLength(1);
    checkReport(sent[0]!);
  });
});
