import type { AgentBreakerControl, AgentReport } from '@cbh/contracts';
import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import CircuitBreaker from 'opossum';
import { OpossumAdapter } from './adapters/opossum';
import { createAgent, type Agent } from './agent';
import { connectToHub, type HubConnection, type HubConnectionOptions } from './hub-connection';

const TOKEN = 'cbh_sa_checkout_test';
/** The hub's period in these tests: the shortest a connection takes. */
const PERIOD_MS = 250;
const BACKOFF = { initialMs: 100, maxMs: 800 };
/** These tests are of the HTTP transport, against a hub that has no stream; the stream's are against the real hub. */
const HTTP = { backoff: BACKOFF, transport: 'http' } as const;

/** Every event the tests wait for (a report received, a fetch settled, a log line) says so here. */
const changes = new EventEmitter();
async function until(check: () => boolean): Promise<void> {
  while (!check()) await once(changes, 'change');
}

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  report: AgentReport;
  at: number;
}

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A hub that takes the report and never answers. */
const NO_ANSWER: Answer = { status: 0 };

/** The hub's side of the protocol on a loopback port: it answers the reports it is told to, then 200 with its controls. */
class FakeHub {
  readonly received: Received[] = [];
  answers: Answer[] = [];
  controls: AgentBreakerControl[] = [];
  private readonly server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const answer = this.answers.shift() ?? { status: 200, body: { version: 1, reportEveryMs: 100, controls: this.controls } };
      this.received.push({ method: request.method, url: request.url, headers: request.headers, report: JSON.parse(body), at: Date.now() });
      changes.emit('change');
      if (answer === NO_ANSWER) return;
      // a connection per report, so that stop() is a hub gone at once and never a reply cut off
      response.writeHead(answer.status, { 'content-type': 'application/json', connection: 'close', ...answer.headers });
      response.end(JSON.stringify(answer.body ?? {}));
    });
  });
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.server.listen(this.port, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Gone, as a hub that stopped: the port refuses connections, and those open are closed. */
  async stop(): Promise<void> {
    const closed = new Promise((resolve) => this.server.close(resolve));
    this.server.closeAllConnections();
    await closed;
  }

  /** Waits for n more reports than were received so far, and returns the last. */
  async next(n = 1): Promise<Received> {
    const count = this.received.length + n;
    await until(() => this.received.length >= count);
    return this.received[count - 1]!;
  }

  /** Waits for a report from now on that the check accepts. */
  async reportWhere(check: (report: AgentReport) => boolean): Promise<Received> {
    const from = this.received.length;
    let found: Received | undefined;
    await until(() => (found = this.received.slice(from).find((received) => check(received.report))) !== undefined);
    return found!;
  }
}

const failing = (statusCode: number, message: string, headers?: Record<string, string>): Answer => ({
  status: statusCode,
  body: { statusCode, error: 'Error', message },
  headers,
});

describe('connectToHub, against a hub on a loopback port, with real opossum breakers', () => {
  let hub: FakeHub;
  let agent: Agent;
  let connection: HubConnection | undefined;
  let circuits: CircuitBreaker[];
  let logs: { level: 'info' | 'warn'; message: string }[];
  /** Every fetch the connection made: when, and whether it reached the hub. */
  let attempts: { at: number; reached: boolean }[];

  const log = (level: 'info' | 'warn') => (message: string) => {
    logs.push({ level, message });
    changes.emit('change');
  };
  const logger = { info: log('info'), warn: log('warn') };
  const warnings = () => logs.filter((log) => log.level === 'warn').map((log) => log.message);
  const infos = () => logs.filter((log) => log.level === 'info').map((log) => log.message);
  const failedAttempts = () => attempts.filter((attempt) => !attempt.reached);

  const countingFetch: typeof fetch = async (...args) => {
    const at = Date.now();
    try {
      const response = await fetch(...args);
      attempts.push({ at, reached: true });
      return response;
    } catch (error) {
      attempts.push({ at, reached: false });
      throw error;
    } finally {
      changes.emit('change');
    }
  };

  /** A real opossum breaker around a call that succeeds or fails as it is told, registered with the agent. */
  const breaker = (name: string) => {
    const circuit = new CircuitBreaker(async (ok: boolean) => (ok ? 'ok' : Promise.reject(new Error('boom'))), {
      name,
      errorThresholdPercentage: 50,
      volumeThreshold: 2,
      resetTimeout: 60_000,
      timeout: 1000,
    });
    circuits.push(circuit);
    const adapter = new OpossumAdapter(circuit);
    agent.register(adapter);
    const fire = (ok = true) => circuit.fire(ok).catch((error: { code?: string }) => error);
    return { circuit, adapter, fire, options: (circuit as unknown as { options: Record<string, number> }).options };
  };

  const connect = (options: Partial<HubConnectionOptions> = {}) =>
    (connection = connectToHub(agent, { hubUrl: hub.url, token: TOKEN, logger, fetch: countingFetch, ...HTTP, ...options }));
  const control = (override: Partial<AgentBreakerControl> = {}): AgentBreakerControl => ({
    name: 'payments',
    revision: 1,
    override: 'forced-open',
    settings: null,
    resetRevision: 0,
    ...override,
  });
  const breakerIn = (received: Received, name: string) => received.report.breakers.find((b) => b.name === name)!;
  /** Two breakers on a connected agent, payments forced open (with a new timeout) by the hub and reported so. */
  const connectWithPaymentsForcedOpen = async () => {
    const payments = breaker('payments');
    const inventory = breaker('inventory');
    hub.controls = [control({ settings: { timeout: 4321 } })];
    const opened = once(payments.circuit, 'open');
    connect();
    await opened;
    await hub.reportWhere((report) => report.breakers[0]!.override === 'forced-open');
    return { payments, inventory };
  };

  beforeEach(async () => {
    hub = new FakeHub();
    await hub.start();
    agent = createAgent({ service: 'checkout', instance: 'checkout-1' });
    circuits = [];
    logs = [];
    attempts = [];
    connection = undefined;
  });

  afterEach(async () => {
    await connection?.stop();
    await hub.stop().catch(() => undefined);
    for (const circuit of circuits) circuit.shutdown();
  });

  it("reports at once and then every period the hub's reply sets, with the token, and each period's calls", async () => {
    const { fire } = breaker('payments');
    connect();
    const first = await hub.next();
    expect(first).toMatchObject({ method: 'POST', url: '/api/agent/reports' });
    expect(first.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.report).toMatchObject({
      version: 1,
      service: 'checkout',
      instance: 'checkout-1',
      breakers: [{ name: 'payments', library: 'opossum', state: 'CLOSED', override: 'none' }],
    });
    await fire(true);
    await fire(true);
    await fire(false);
    const [second, third] = [await hub.next(), await hub.next()];
    // the reply asked for 100 ms, below the floor the connection keeps
    expect(third.at - second.at).toBeGreaterThanOrEqual(PERIOD_MS - 20);
    expect(third.at - second.at).toBeLessThan(PERIOD_MS * 3);
    const windows = hub.received.map((received) => breakerIn(received, 'payments').window);
    expect(windows.reduce((sum, w) => sum + w.successes, 0)).toBe(2);
    expect(windows.reduce((sum, w) => sum + w.failures, 0)).toBe(1);
    expect(connection!.status()).toMatchObject({ reachable: true, failedReports: 0, lastError: null, reportEveryMs: PERIOD_MS });
    expect(logs).toEqual([]);
  });

  it("applies the reply's controls: forced open opens the real breaker, settings change its options, a newer revision moves it on", async () => {
    const { circuit, adapter, fire, options } = breaker('payments');
    hub.controls = [
      control({ settings: { timeout: 1234, errorThresholdPercentage: 25, volumeThreshold: 9 } }),
      control({ name: 'not-registered', revision: 7, override: 'disabled' }),
    ];
    const started = Date.now();
    const opened = once(circuit, 'open');
    connect();
    await opened;
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await fire(true)).toMatchObject({ code: 'EOPENBREAKER' });
    expect(options).toMatchObject({ timeout: 1234, errorThresholdPercentage: 25 });
    expect(circuit.volumeThreshold).toBe(2); // fixed by opossum at construction: logged, not applied
    const reported = await hub.reportWhere((report) => report.breakers[0]!.override === 'forced-open');
    expect(breakerIn(reported, 'payments')).toMatchObject({ state: 'OPEN', settings: { timeout: 1234, errorThresholdPercentage: 25 } });

    // the same revision again and again changes nothing; a newer one does
    const closed = once(circuit, 'close');
    hub.controls = [control({ revision: 2, override: 'forced-closed', settings: { timeout: 1234, volumeThreshold: 9 } })];
    await closed;
    expect(adapter.override).toBe('forced-closed');
    expect(await fire(true)).toBe('ok');

    hub.controls = [control({ revision: 3, override: 'none' })];
    await hub.reportWhere((report) => report.breakers[0]!.override === 'none');
    expect(adapter.override).toBe('none');

    // tripped by its own failures, then reset by the hub
    await fire(false);
    await fire(false);
    expect(circuit.opened).toBe(true);
    const reset = once(circuit, 'close');
    hub.controls = [control({ revision: 4, override: 'none', resetRevision: 4 })];
    await reset;
    expect(await fire(true)).toBe('ok');

    expect(warnings()).toEqual(['breaker "payments" cannot take the setting "volumeThreshold" at run time']);
  });

  it('fails static while the hub is gone: the breakers keep working as they were, one warning, backoff, then the outage caught up', async () => {
    const { payments, inventory } = await connectWithPaymentsForcedOpen();
    await hub.stop();

    for (let i = 0; i < 5; i++) expect(await inventory.fire(true)).toBe('ok');
    for (let i = 0; i < 3; i++) expect(await payments.fire(true)).toMatchObject({ code: 'EOPENBREAKER' });
    await until(() => failedAttempts().length >= 5);
    expect(payments.adapter.override).toBe('forced-open');
    expect(payments.options.timeout).toBe(4321);
    expect(warnings()).toEqual([expect.stringMatching(/^hub unreachable: ECONNREFUSED/)]);
    expect(connection!.status()).toMatchObject({ reachable: false, lastError: 'hub unreachable: ECONNREFUSED' });
    // 100 ms doubling (less up to a fifth): each wait longer than the one before, not a retry every period
    const gaps = failedAttempts()
      .slice(0, 5)
      .map((attempt, i, all) => (i === 0 ? 0 : attempt.at - all[i - 1]!.at))
      .slice(1);
    expect(gaps[0]).toBeGreaterThanOrEqual(75);
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]).toBeGreaterThan(gaps[i - 1]!);

    await hub.start();
    // the report not delivered comes first, as it was; the next covers every period since
    const [back, after] = [await hub.next(), await hub.next()];
    expect(after.report.id).not.toBe(back.report.id);
    const sum = (name: string, field: 'successes' | 'failures' | 'rejections') =>
      breakerIn(back, name).window[field] + breakerIn(after, name).window[field];
    expect([sum('inventory', 'successes'), sum('inventory', 'failures'), sum('payments', 'rejections')]).toEqual([5, 0, 3]);
    expect(breakerIn(after, 'payments')).toMatchObject({ override: 'forced-open' });
    await until(() => infos().length > 0);
    expect(infos()).toEqual([`hub reachable again after ${failedAttempts().length} failed reports`]);
    expect(warnings()).toHaveLength(1);
    expect(connection!.status()).toMatchObject({ reachable: true, failedReports: 0, lastError: null });
  });

  it.each([
    [503, 'down for maintenance', /^hub answered 503: down for maintenance/],
    [401, 'token revoked', /^hub refused the token \(401\): token revoked/],
    [403, 'the report is not of this service account', /^hub refused the token \(403\): the report is not of this service account/],
  ])(
    'fails static when the hub answers %i, logging it once, and catches up when it accepts reports again',
    async (status, message, logged) => {
      const { payments, inventory } = await connectWithPaymentsForcedOpen();
      const refused = hub.received.length;
      hub.answers = Array.from({ length: 4 }, () => failing(status, message));

      for (let i = 0; i < 4; i++) expect(await inventory.fire(true)).toBe('ok');
      expect(await inventory.fire(false)).toMatchObject({ message: 'boom' });
      await until(() => hub.received.length >= refused + 6); // four refused, the same report accepted, then the next
      // one report sent five times with its id (the hub counts it once), then one with the calls since
      const tries = hub.received.slice(refused, refused + 5).map((received) => received.report.id);
      expect(new Set(tries).size).toBe(1);
      expect(tries[0]).toEqual(expect.any(String));
      const [back, next] = [hub.received[refused + 4]!, hub.received[refused + 5]!];
      expect(next.report.id).not.toBe(tries[0]);
      const windows = [back, next].map((received) => breakerIn(received, 'inventory').window);
      expect([windows[0]!.successes + windows[1]!.successes, windows[0]!.failures + windows[1]!.failures]).toEqual([4, 1]);
      expect(breakerIn(next, 'payments')).toMatchObject({ override: 'forced-open', settings: { timeout: 4321 } });
      expect(payments.circuit.opened).toBe(true);
      expect(hub.received[refused + 3]!.at - hub.received[refused]!.at).toBeGreaterThanOrEqual(0.8 * (100 + 200 + 400) - 20);
      expect(warnings()).toEqual([expect.stringMatching(logged)]);
      await until(() => infos().length > 0);
      expect(infos()).toEqual(['hub reachable again after 4 failed reports']);
    },
  );

  it.each([
    [429, 'Too many reports', /^hub is limiting the reports \(429\): Too many reports/],
    [503, 'Database unavailable', /^hub answered 503: Database unavailable/],
  ])('waits as long as the Retry-After of a %i says', async (status, message, logged) => {
    breaker('payments');
    connect();
    await hub.next();
    hub.answers = [failing(status, message, { 'retry-after': '1' })];
    const limited = await hub.next();
    const after = await hub.next();
    expect(after.at - limited.at).toBeGreaterThanOrEqual(980); // not the 100 ms of the backoff
    expect(after.at - limited.at).toBeLessThan(1800);
    await until(() => infos().length > 0);
    expect(warnings()).toEqual([expect.stringMatching(logged)]);
    expect(infos()).toEqual(['hub reachable again after 1 failed report']);
  });

  it('drops a report not delivered within AGENT_REPORT_RESEND_MS of its sentAt instead of sending it again, and says so', async () => {
    // the first report is sent 11 minutes late as the clocks read: its id may be forgotten by the hub
    let behindMs = 11 * 60_000;
    agent = createAgent({ service: 'checkout', instance: 'checkout-1', now: () => Date.now() - behindMs });
    breaker('payments');
    hub.answers = [failing(503, 'down for maintenance')];
    connect();
    const failed = await hub.next();
    behindMs = 0;
    const next = await hub.next();
    expect(next.report.id).not.toBe(failed.report.id);
    expect(Date.now() - Date.parse(next.report.sentAt)).toBeLessThan(60_000);
    expect(hub.received.filter((received) => received.report.id === failed.report.id)).toHaveLength(1);
    expect(warnings()).toEqual([
      expect.stringMatching(/^hub answered 503: down for maintenance/),
      `report of ${failed.report.sentAt} not delivered within 10 minutes: dropped, not sent again (the hub may have forgotten its id and would count it twice)`,
    ]);
    expect(connection!.status()).toMatchObject({ expiredReports: 1 });
  });

  it('takes a hub that does not answer within timeoutMs for one that is away', async () => {
    breaker('payments');
    connect({ timeoutMs: 200 });
    await hub.next();
    hub.answers = [NO_ANSWER];
    await until(() => infos().length > 0);
    expect(warnings()).toEqual([expect.stringMatching(/^hub unreachable: no answer within 200 ms/)]);
    expect(infos()).toEqual(['hub reachable again after 1 failed report']);
  });

  it('drops a report the hub refuses as invalid (400) instead of sending it again, and logs each message once', async () => {
    const { fire } = breaker('payments');
    connect();
    await hub.next();
    hub.answers = [
      failing(400, 'breakers.0.window.successes must be a number'),
      failing(400, 'breakers.0.window.successes must be a number'),
    ];
    await fire(true);
    await fire(true);
    const [firstRefused, secondRefused] = [await hub.next(), await hub.next()];
    expect(breakerIn(firstRefused, 'payments').window.successes).toBe(2);
    expect(breakerIn(secondRefused, 'payments').window.successes).toBe(0); // not the refused period again
    const accepted = await hub.next();
    expect(breakerIn(accepted, 'payments').window.successes).toBe(0);
    expect(secondRefused.at - firstRefused.at).toBeGreaterThanOrEqual(PERIOD_MS - 20); // the period, not a backoff
    expect(warnings()).toEqual(['hub refused a report (400): breakers.0.window.successes must be a number; its period is dropped']);
    expect(infos()).toEqual([]);
  });

  it('sends the last period when stopped, and nothing after', async () => {
    const { fire } = breaker('payments');
    const stopping = connect();
    await hub.next();
    await fire(true);
    await stopping.stop();
    connection = undefined;
    const count = hub.received.length;
    expect(hub.received.reduce((sum, received) => sum + breakerIn(received, 'payments').window.successes, 0)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, PERIOD_MS * 3)); // nothing to wait for: nothing must come
    expect(hub.received).toHaveLength(count);
  });
});
