import { AGENT_FAULT_SILENCE_PERIODS, type AgentFault, type AgentReport, type AgentReportReply } from '@cbh/contracts';
import { EventEmitter, once } from 'node:events';
import CircuitBreaker from 'opossum';
import { OpossumAdapter } from './adapters/opossum';
import { createAgent, type Agent } from './agent';
import { FAULTS_NOT_ALLOWED, isInjectedFault } from './faults';
import { connectToHub, type HubConnection } from './hub-connection';

/** The shortest reporting period a connection takes. */
const PERIOD_MS = 250;

const changes = new EventEmitter();
async function until(check: () => boolean): Promise<void> {
  while (!check()) await once(changes, 'change');
}

const fault = (id: string, breaker: string): AgentFault => ({
  id,
  breaker,
  kind: 'error',
  rate: 1,
  until: new Date(Date.now() + 3_600_000).toISOString(),
});

/**
 * The hub as a fetch of the test's: it answers each report with `reply` (the controls and faults the test sets), or
 * fails as a hub gone would while `away`.
 */
class Hub {
  reply: Record<string, unknown> & Partial<AgentReportReply> = { version: 1, reportEveryMs: PERIOD_MS, controls: [] };
  away = false;
  readonly reports: AgentReport[] = [];
  /** When the last reply left, by Date.now. */
  repliedAt = 0;

  readonly fetch: typeof globalThis.fetch = async (_url, init) => {
    try {
      if (this.away) throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
      this.reports.push(JSON.parse(String(init?.body)) as AgentReport);
      this.repliedAt = Date.now();
      return new Response(JSON.stringify(this.reply), { status: 200, headers: { 'content-type': 'application/json' } });
    } finally {
      setImmediate(() => changes.emit('change'));
    }
  };

  /** Waits for a report that the check accepts, from now on. */
  async reportWhere(check: (report: AgentReport) => boolean): Promise<AgentReport> {
    const from = this.reports.length;
    let found: AgentReport | undefined;
    await until(() => (found = this.reports.slice(from).find(check)) !== undefined);
    return found!;
  }
}

describe('connectToHub and the faults in its replies', () => {
  let hub: Hub;
  let agent: Agent;
  let connection: HubConnection | undefined;
  let circuits: CircuitBreaker[];
  let logs: { level: 'info' | 'warn'; message: string; at: number }[];
  const log = (level: 'info' | 'warn') => (message: string) => {
    logs.push({ level, message, at: Date.now() });
    changes.emit('change');
  };
  const warnings = () => logs.filter((entry) => entry.level === 'warn').map((entry) => entry.message);

  const breaker = (name: string) => {
    const circuit = new CircuitBreaker(async () => 'ok', { name, errorThresholdPercentage: 100, resetTimeout: 60_000 });
    circuits.push(circuit);
    const adapter = new OpossumAdapter(circuit);
    agent.register(adapter);
    return { circuit, adapter, fire: () => circuit.fire().catch((error: Error) => error) };
  };
  const connect = () =>
    (connection = connectToHub(agent, {
      hubUrl: 'http://hub.invalid',
      token: 'cbh_sa_checkout_test',
      logger: { info: log('info'), warn: log('warn') },
      fetch: hub.fetch,
      backoff: { initialMs: 50, maxMs: 100 },
      transport: 'http',
    }));

  beforeEach(() => {
    hub = new Hub();
    agent = createAgent({ service: 'checkout', instance: 'checkout-1', allowFaults: true });
    connection = undefined;
    circuits = [];
    logs = [];
  });

  afterEach(async () => {
    await connection?.stop();
    for (const circuit of circuits) circuit.shutdown();
  });

  it('runs the faults a reply sends, reports them, and ends them when a reply leaves them out or has no list', async () => {
    const payments = breaker('payments');
    hub.reply.faults = [fault('drill-1-0', 'payments'), fault('drill-1-1', 'nowhere')];
    connect();
    const running = await hub.reportWhere((report) => report.faults?.active.length === 1);
    expect(running.faults).toEqual({
      allowed: true,
      active: ['drill-1-0'],
      refused: [{ id: 'drill-1-1', reason: 'no breaker named "nowhere" is registered' }],
    });
    expect(isInjectedFault(await payments.fire())).toBe(true);

    delete hub.reply.faults;
    const ended = await hub.reportWhere((report) => report.faults?.active.length === 0);
    expect(ended.faults).toEqual({ allowed: true, active: [] });
    expect(await payments.fire()).toBe('ok');
    expect(warnings()).toEqual([]);
    expect(logs.map((entry) => entry.message)).toEqual([
      expect.stringMatching(/^fault drill-1-0 started: errors on 100% of the calls of "payments" until /),
      'fault drill-1-1 refused: no breaker named "nowhere" is registered',
      'fault drill-1-0 ended',
    ]);
  });

  it(`drops every fault when the hub has been silent for ${AGENT_FAULT_SILENCE_PERIODS} reporting periods, but keeps a forced-open override`, async () => {
    const payments = breaker('payments');
    const inventory = breaker('inventory');
    hub.reply.controls = [{ name: 'inventory', revision: 1, override: 'forced-open', settings: null, resetRevision: 0 }];
    hub.reply.faults = [fault('drill-1-0', 'payments')];
    connect();
    await hub.reportWhere((report) => report.faults?.active[0] === 'drill-1-0');
    expect(inventory.adapter.override).toBe('forced-open');
    expect(isInjectedFault(await payments.fire())).toBe(true);

    hub.away = true;
    const lastReply = hub.repliedAt;
    await until(() => agent.activeFaults().length === 0);
    const dropped = logs.find((entry) => entry.message.startsWith('no reply from the hub'))!;
    expect(dropped.message).toBe(
      `no reply from the hub for ${AGENT_FAULT_SILENCE_PERIODS} reporting periods: faults drill-1-0 dropped (faults fail safe; the breakers keep their settings and overrides)`,
    );
    expect(dropped.at - lastReply).toBeGreaterThanOrEqual(AGENT_FAULT_SILENCE_PERIODS * PERIOD_MS - 5);
    expect(await payments.fire()).toBe('ok');
    expect(inventory.adapter.override).toBe('forced-open');
    expect(inventory.circuit.opened).toBe(true);

    // back, and still sending the step: it runs again
    hub.away = false;
    await hub.reportWhere((report) => report.faults?.active[0] === 'drill-1-0');
    expect(isInjectedFault(await payments.fire())).toBe(true);
  });

  it('an agent that did not opt in changes nothing for a reply with faults, says so in its report, and warns of nothing', async () => {
    agent = createAgent({ service: 'checkout', instance: 'checkout-1' });
    const payments = breaker('payments');
    hub.reply.faults = [fault('drill-1-0', 'payments')];
    connect();
    const refusing = await hub.reportWhere((report) => report.faults?.refused !== undefined);
    expect(refusing.faults).toEqual({ allowed: false, active: [], refused: [{ id: 'drill-1-0', reason: FAULTS_NOT_ALLOWED }] });
    await hub.reportWhere(() => true);
    expect(await payments.fire()).toBe('ok');
    expect(payments.adapter.override).toBe('none');
    expect(warnings()).toEqual([]);
    expect(logs.map((entry) => entry.message)).toEqual([`fault drill-1-0 refused: ${FAULTS_NOT_ALLOWED}`]);
  });

  it('ignores what it does not know of a reply (as an agent from before faults ignores them): nothing changes, nothing is logged', async () => {
    const payments = breaker('payments');
    hub.reply.drills = { running: 1 };
    hub.reply.faultsV2 = [{ id: 'x', breaker: 'payments', kind: 'error', rate: 1 }];
    connect();
    // the second report is made after the first reply was taken
    const [, second] = [await hub.reportWhere(() => true), await hub.reportWhere(() => true)];
    expect(second!.faults).toEqual({ allowed: true, active: [] });
    expect(await payments.fire()).toBe('ok');
    expect(logs).toEqual([]);
  });

  it('stop() ends the faults before the last report', async () => {
    const payments = breaker('payments');
    hub.reply.faults = [fault('drill-1-0', 'payments')];
    connect();
    await hub.reportWhere((report) => report.faults?.active.length === 1);
    await connection!.stop();
    connection = undefined;
    expect(hub.reports.at(-1)!.faults).toEqual({ allowed: true, active: [] });
    expect(await payments.fire()).toBe('ok');
    expect(logs.at(-1)!.message).toBe('faults drill-1-0 dropped: the connection to the hub is stopped');
  });
});
