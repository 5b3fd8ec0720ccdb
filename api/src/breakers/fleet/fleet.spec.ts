import type {
  AgentBreakerReport,
  AgentReport,
  AgentReportReply,
  BreakerConfigView,
  BreakerInstancesPage,
  BreakerStats,
  BreakerTransition,
  JournalPage,
  ServerMessage,
  ServiceAccountView,
} from '@cbh/contracts';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { eventually, twoReplicasForThisFile, withRoomInTheMinute, type TestApi } from '../../../test/test-api';
import { ClusterLeasesRepository } from '../../platform/replicas/cluster-leases.repository';
import { startWebhookReceiver } from '../../../test/webhook-receiver';
import { agentBreaker, agentReport, sendAgentReport } from '../../../test/agent-reports';

// two replicas on one database: a report may reach either, and every replica must show the same
const spec = twoReplicasForThisFile({ TOKEN_RATE_LIMIT: '40', ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' });

const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;
const get = <T>(path: string, replica = spec.api) => json<T>(replica.call(path, { cookie: spec.admin }));
const post = (path: string, body?: unknown, replica = spec.api) => replica.call(path, { method: 'POST', body, cookie: spec.admin });

/** A service account named `service` and one access token of it. */
async function serviceToken(service: string): Promise<string> {
  const account = await json<ServiceAccountView>(post('/api/service-accounts', { name: service }));
  const made = await post(`/api/service-accounts/${account.id}/tokens`, { name: 'agent', expiresInDays: 30 });
  expect(made.status).toBe(201);
  return ((await made.json()) as { token: string }).token;
}

const sendReport = (token: string, report: unknown, replica = spec.api) => sendAgentReport(replica.baseUrl, token, report);
const breaker = agentBreaker;
const report = agentReport;

async function reply(token: string, body: AgentReport, replica = spec.api): Promise<AgentReportReply> {
  const response = await sendReport(token, body, replica);
  expect(response.status).toBe(200);
  return (await response.json()) as AgentReportReply;
}

async function breakerNamed(service: string, name: string, replica = spec.api): Promise<BreakerConfigView> {
  const list = await get<BreakerConfigView[]>(`/api/circuit-breakers?source=agent&service=${service}`, replica);
  return list.find((item) => item.name === name)!;
}

/**
 * What a report changes reaches every replica through the database: its write, the merger's read every 500 ms, the
 * other replica's refresh. These tests check that it gets there and what it says; how fast it gets there is
 * bench:fleet's to measure (the wall's p99), so a busy machine that delays a few cycles does not fail them.
 */
const carried = (check: () => Promise<boolean>) => eventually(check, 8000);

const statsOf = async (configId: number, replica = spec.api) =>
  (await get<{ stats: BreakerStats[] }>('/api/metrics/latest', replica)).stats.find((stats) => stats.configId === configId);

describe("an agent's report", () => {
  it("puts the service's breakers on the wall of every replica, with their source, service and library settings", async () => {
    const token = await serviceToken('checkout');
    const answer = await reply(token, report('checkout', 'checkout-1', [breaker('payments', { successes: 30, failures: 10 })]));
    expect(answer).toEqual({ version: 1, reportEveryMs: 1000, controls: [] });
    await reply(token, report('checkout', 'checkout-2', [breaker('payments', { successes: 20 })]), spec.second);

    const listed = await breakerNamed('checkout', 'payments', spec.second);
    expect(listed).toMatchObject({
      source: 'agent',
      service: 'checkout',
      library: 'opossum',
      libraryType: 'error-percentage',
      type: 'adaptive',
      librarySettings: { errorThresholdPercentage: 50, timeout: 3000, resetTimeout: 30000 },
      state: 'CLOSED',
    });
    // the hub's own breakers are not in the agent's list, and the agent's are not in the hub's
    const hubs = await get<BreakerConfigView[]>('/api/circuit-breakers?source=hub');
    expect(hubs.every((item) => item.source === 'hub')).toBe(true);
    expect(hubs.some((item) => item.id === listed.id)).toBe(false);

    // the two instances' calls are summed, on either replica
    for (const replica of [spec.api, spec.second]) {
      expect(
        await carried(async () => {
          const stats = await statsOf(listed.id, replica);
          return stats?.successCount === 50 && stats.failureCount === 10 && stats.instances?.total === 2;
        }),
      ).toBe(true);
    }
    const stats = (await statsOf(listed.id))!;
    expect(stats.errorPercentage).toBeCloseTo(16.7, 1);
    // each instance's report covered one period of a second: 40 and 20 calls in it
    expect(stats.requestsPerSecond).toBe(60);
    expect(stats.latency.p99).toBeGreaterThan(0);
  });

  it('journals the moves it carries with the instance they happened on, and the wall shows the merged state', async () => {
    const token = await serviceToken('orders');
    const at = new Date(Date.now() - 200).toISOString();
    await reply(
      token,
      report('orders', 'orders-7', [
        breaker(
          'stock',
          { failures: 12 },
          { state: 'OPEN', transitions: [{ from: 'CLOSED', to: 'OPEN', at, reason: 'error rate 100% above 50%' }] },
        ),
      ]),
    );
    await reply(token, report('orders', 'orders-8', [breaker('stock', { successes: 3 })]));
    const stock = await breakerNamed('orders', 'stock');
    const page = await get<JournalPage>(`/api/circuit-breakers/${stock.id}/transitions`);
    expect(page.transitions[0]).toMatchObject({
      from: 'CLOSED',
      to: 'OPEN',
      reason: 'error rate 100% above 50%',
      serviceInstance: 'orders-7',
      at,
    });
    expect(await carried(async () => (await breakerNamed('orders', 'stock')).state === 'OPEN')).toBe(true);
    expect(await carried(async () => (await statsOf(stock.id))?.instances?.open === 1)).toBe(true);
  });

  it('moves the breaker on the wall of every replica at once, as a stateChange, when its merged state moves', async () => {
    const token = await serviceToken('basket');
    await reply(token, report('basket', 'basket-1', [breaker('pricing', { successes: 5 })]));
    const pricing = await breakerNamed('basket', 'pricing');
    expect(await carried(async () => (await statsOf(pricing.id, spec.second))?.instances?.total === 1)).toBe(true);
    // a socket on the replica that did not take the report
    const socket = await new Promise<WebSocket>((resolve, reject) => {
      const opened = new WebSocket(`${spec.second.baseUrl.replace('http', 'ws')}/ws`, { headers: { cookie: spec.admin } });
      opened.once('open', () => resolve(opened)).once('error', reject);
    });
    const moves: BreakerTransition[] = [];
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as ServerMessage;
      if (message.type === 'stateChange' && message.data.configId === pricing.id) moves.push(message.data);
    });
    try {
      await reply(token, report('basket', 'basket-1', [breaker('pricing', { failures: 9 }, { state: 'OPEN' })]));
      // as a stateChange of its own once the figures are read (every 500 ms), not with the next metricsUpdate
      expect(await carried(async () => moves.length > 0)).toBe(true);
      expect(moves[0]).toMatchObject({ configId: pricing.id, from: 'CLOSED', to: 'OPEN' });
      await reply(token, report('basket', 'basket-1', [breaker('pricing', { successes: 4 })]));
      expect(await carried(async () => moves.length > 1)).toBe(true);
      expect(moves[1]).toMatchObject({ from: 'OPEN', to: 'CLOSED' });
      // told once per replica's socket: not once per replica that read the rows
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(moves).toHaveLength(2);
    } finally {
      socket.close();
    }
  });

  it('hears back, on every instance and from either replica, the controls and settings an operator sets', async () => {
    const token = await serviceToken('billing');
    await reply(token, report('billing', 'billing-a', [breaker('ledger')]));
    const ledger = await breakerNamed('billing', 'ledger');

    const opened = await post(`/api/circuit-breakers/${ledger.id}/force-open`);
    expect(opened.status).toBe(200);
    expect(await opened.json()).toMatchObject({ override: 'forced-open', source: 'agent' });
    const [{ revision: forced }] = await spec.api.sql('SELECT revision FROM circuit_breaker_configs WHERE id = $1', [ledger.id]);
    expect(forced).toBeGreaterThan(0);
    for (const [instance, replica] of [
      ['billing-a', spec.api],
      ['billing-b', spec.second],
    ] as const) {
      expect(
        await carried(async () => {
          const { controls } = await reply(token, report('billing', instance, [breaker('ledger')]), replica);
          return controls[0]?.override === 'forced-open' && controls[0].revision === forced;
        }),
      ).toBe(true);
    }
    // the journal says the hub sent it; the audit trail who did
    const page = await get<JournalPage>(`/api/circuit-breakers/${ledger.id}/transitions`);
    expect(page.transitions[0]).toMatchObject({ to: 'OPEN', serviceInstance: null });
    expect(page.transitions[0]!.reason).toMatch(/sent to every instance of billing/);

    const changed = await spec.api.call(`/api/circuit-breakers/${ledger.id}`, {
      method: 'PATCH',
      cookie: spec.admin,
      body: { librarySettings: { errorThresholdPercentage: 25 } },
    });
    expect(changed.status).toBe(200);
    expect((await changed.json()).librarySettings).toMatchObject({ errorThresholdPercentage: 25, resetTimeout: 30000 });
    const reset = await post(`/api/circuit-breakers/${ledger.id}/reset`, undefined, spec.second);
    expect(reset.status).toBe(200);
    // each change takes a newer revision, and the Reset's is the one its instances reset at
    const [{ revision: after }] = await spec.api.sql('SELECT revision FROM circuit_breaker_configs WHERE id = $1', [ledger.id]);
    expect(after).toBeGreaterThan(forced + 1);
    expect(
      await carried(async () => {
        const { controls } = await reply(token, report('billing', 'billing-a', [breaker('ledger')]));
        return controls[0]?.revision === after;
      }),
    ).toBe(true);
    // the control carries the name as the instance reports it, whatever the letter case the hub first saw
    const { controls } = await reply(token, report('billing', 'billing-a', [breaker('Ledger')]));
    expect(controls).toEqual([
      { name: 'Ledger', revision: after, resetRevision: after, override: 'none', settings: { errorThresholdPercentage: 25 } },
    ]);

    // the hub's four settings are not an agent breaker's, nor an agent's settings the hub's own breaker's
    const hubSettings = await spec.api.call(`/api/circuit-breakers/${ledger.id}`, {
      method: 'PATCH',
      cookie: spec.admin,
      body: { failureThreshold: 3 },
    });
    expect(hubSettings.status).toBe(409);
    expect((await hubSettings.json()).message).toMatch(/librarySettings/);
    const own = (await get<BreakerConfigView[]>('/api/circuit-breakers?source=hub'))[0]!;
    const foreign = await spec.api.call(`/api/circuit-breakers/${own.id}`, {
      method: 'PATCH',
      cookie: spec.admin,
      body: { librarySettings: { timeout: 5 } },
    });
    expect(foreign.status).toBe(409);
    // the hub's own test calls go through its own breakers only
    const loadTest = await post('/api/test-sessions', { configId: ledger.id, failureRate: 10, requestRate: 10, duration: 1 });
    expect(loadTest.status).toBe(409);
    expect((await loadTest.json()).message).toBe(
      "Circuit breaker ledger runs in billing: the hub's load tests and services call through its own breakers only",
    );
    const demo = await post('/api/services', {
      name: 'ledger demo',
      endpoint: '/api/chaos/0',
      failureRate: 0,
      averageResponseTime: 1,
      circuitBreakerConfigId: ledger.id,
    });
    expect(demo.status).toBe(409);
    const bad = await spec.api.call(`/api/circuit-breakers/${ledger.id}`, {
      method: 'PATCH',
      cookie: spec.admin,
      body: { librarySettings: { timeout: -1 } },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/librarySettings\.timeout/);

    // deleted and reported again, the breaker starts afresh, and its next control is newer than any its instances applied
    expect((await spec.api.call(`/api/circuit-breakers/${ledger.id}`, { method: 'DELETE', cookie: spec.admin })).status).toBe(204);
    expect((await reply(token, report('billing', 'billing-a', [breaker('ledger')]))).controls).toEqual([]);
    const again = await breakerNamed('billing', 'ledger');
    expect(again.id).not.toBe(ledger.id);
    expect((await post(`/api/circuit-breakers/${again.id}/force-open`)).status).toBe(200);
    const [{ revision: renewed }] = await spec.api.sql('SELECT revision FROM circuit_breaker_configs WHERE id = $1', [again.id]);
    expect(renewed).toBeGreaterThan(after);
  });

  it('marks a single bad instance, and leaves an instance silent for three periods out of the sums', async () => {
    const token = await serviceToken('search');
    await reply(token, report('search', 'search-1', [breaker('index', { successes: 40 })]));
    await reply(token, report('search', 'search-2', [breaker('index', { successes: 38, failures: 2 })]));
    await reply(token, report('search', 'search-3', [breaker('index', { successes: 5, failures: 35 })]));
    const index = await breakerNamed('search', 'index');
    expect(
      await carried(async () => {
        const page = await get<BreakerInstancesPage>(`/api/circuit-breakers/${index.id}/instances`);
        return page.instances.length === 3 && page.merged?.instances?.bad === 'search-3';
      }),
    ).toBe(true);
    // the other replica reads the same instances within its next refresh
    expect(
      await carried(
        async () => (await get<BreakerInstancesPage>(`/api/circuit-breakers/${index.id}/instances`, spec.second)).instances.length === 3,
      ),
    ).toBe(true);
    const page = await get<BreakerInstancesPage>(`/api/circuit-breakers/${index.id}/instances`, spec.second);
    expect(page.instances.map((instance) => [instance.instance, instance.bad, instance.stale])).toEqual([
      ['search-1', false, false],
      ['search-2', false, false],
      ['search-3', true, false],
    ]);
    expect(page.instances[2]).toMatchObject({ failureCount: 35, errorPercentage: 87.5 });

    // search-1 and search-2 keep reporting; search-3 falls silent and leaves the sums
    const deadline = Date.now() + 8000;
    let merged: BreakerStats | null = null;
    while (Date.now() < deadline) {
      await reply(token, report('search', 'search-1', [breaker('index')]));
      await reply(token, report('search', 'search-2', [breaker('index')]));
      ({ merged } = await get<BreakerInstancesPage>(`/api/circuit-breakers/${index.id}/instances`));
      if (merged?.instances?.stale === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(merged?.instances).toEqual({ open: 0, total: 2, stale: 1, bad: null });
    expect(merged?.failureCount).toBe(2);
    const after = await get<BreakerInstancesPage>(`/api/circuit-breakers/${index.id}/instances`);
    expect(after.instances.at(-1)).toMatchObject({ instance: 'search-3', stale: true });
  });
});

describe("an agent's breaker at /metrics", () => {
  const scrape = async (replica: TestApi) => (await replica.call('/metrics', { cookie: spec.admin })).text();
  const sample = (text: string, series: string) => {
    const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  it('is written by one replica only, each live instance once, with the calls of the reports either replica took', async () => {
    const token = await serviceToken('ledger');
    await reply(token, report('ledger', 'ledger-1', [breaker('entries', { successes: 5, failures: 1 })]));
    await reply(token, report('ledger', 'ledger-1', [breaker('entries', { successes: 4 })]), spec.second);
    await reply(token, report('ledger', 'ledger-2', [breaker('entries', {}, { state: 'OPEN' })]), spec.second);
    const one = 'name="entries",service="ledger",instance="ledger-1"';
    const two = 'name="entries",service="ledger",instance="ledger-2"';
    let texts: string[] = [];
    const clusterOpen = 'cbh_cluster_circuitbreaker_state{name="entries",service="ledger",state="open"}';
    // the writer has written both instances, and each replica's view (refreshed on its own timer) has the open instance
    const written = await carried(async () => {
      texts = await Promise.all([scrape(spec.api), scrape(spec.second)]);
      return (
        texts.some((text) => sample(text, `resilience4j_circuitbreaker_state{${two},state="open"}`) === 1) &&
        texts.every((text) => sample(text, clusterOpen) === 1)
      );
    });
    expect(written).toBe(true);
    // summed over the replicas, as Prometheus would: each instance's series once
    const summed = (series: string) => texts.reduce((sum, text) => sum + (sample(text, series) ?? 0), 0);
    const writers = texts.filter((text) => text.includes(`{${one},state="closed"}`));
    expect(writers).toHaveLength(1);
    expect(texts.map((text) => sample(text, 'cbh_agent_series_writer')).sort()).toEqual([0, 1]);
    expect(summed(`resilience4j_circuitbreaker_state{${one},state="closed"}`)).toBe(1);
    expect(summed(`resilience4j_circuitbreaker_state{${two},state="open"}`)).toBe(1);
    expect(summed(`resilience4j_circuitbreaker_calls_seconds_count{${one},kind="successful"}`)).toBe(9);
    expect(summed(`resilience4j_circuitbreaker_calls_seconds_count{${one},kind="failed"}`)).toBe(1);
    expect(summed(`cbh_circuitbreaker_call_duration_seconds_bucket{${one},le="0.01"}`)).toBe(10);
    // the cluster's view of the breaker, merged over its instances, is the same on both
    for (const text of texts) expect(sample(text, clusterOpen)).toBe(1);
  });

  it('has its writer chosen by a lease in the database: one holder at a time, taken over once given up or lapsed', async () => {
    const leases = spec.api.app.get(ClusterLeasesRepository, { strict: false });
    const [a, b] = [randomUUID(), randomUUID()];
    expect(await leases.claim('test.role', a, 10)).toBe(true);
    expect(await leases.claim('test.role', b, 10)).toBe(false);
    expect(await leases.claim('test.role', a, 10)).toBe(true);
    await leases.release('test.role', a);
    expect(await leases.claim('test.role', b, 0.05)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await leases.claim('test.role', a, 10)).toBe(true);
  });
});

describe("an agent's breaker in the notification rules", () => {
  it('raises breaker.opened for a move an instance reports, naming the service and the instance', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const token = await serviceToken('shipping');
      await reply(token, report('shipping', 'shipping-3', [breaker('carrier')]));
      const channel = await (
        await post('/api/notification-channels', { name: 'shipping hook', type: 'webhook', url: receiver.url })
      ).json();
      const rule = await post('/api/notification-rules', {
        name: 'carrier',
        events: ['breaker.opened'],
        channelIds: [channel.id],
        // an agent's breaker is named with its source and service ('carrier' alone names the hub's own)
        breakers: ['agent:shipping/carrier'],
      });
      expect(rule.status).toBe(201);
      const at = new Date().toISOString();
      await reply(
        token,
        report('shipping', 'shipping-3', [
          breaker(
            'carrier',
            { failures: 9 },
            { state: 'OPEN', transitions: [{ from: 'CLOSED', to: 'OPEN', at, reason: 'error rate 100% above 50%' }] },
          ),
        ]),
      );
      // the other instance opens the same breaker a moment later, and a clock an hour ahead says so
      const ahead = new Date(Date.now() + 3_600_000).toISOString();
      await reply(
        token,
        report('shipping', 'shipping-4', [
          breaker(
            'carrier',
            { failures: 9 },
            { state: 'OPEN', transitions: [{ from: 'CLOSED', to: 'OPEN', at: ahead, reason: 'error rate 100% above 50%' }] },
          ),
        ]),
      );
      const [received] = await receiver.waitFor(1, 10_000);
      expect(received!.body).toMatchObject({
        type: 'breaker.opened',
        data: {
          breaker: { name: 'carrier', source: 'agent', service: 'shipping' },
          instance: 'shipping-3',
          from: 'CLOSED',
          to: 'OPEN',
          reason: 'error rate 100% above 50%',
        },
      });
      // both moves journalled, the one from the future at the time it was taken; one event for the two
      const carrier = await breakerNamed('shipping', 'carrier');
      const journal = await get<JournalPage>(`/api/circuit-breakers/${carrier.id}/transitions`);
      expect(journal.transitions.map((entry) => entry.serviceInstance)).toEqual(['shipping-4', 'shipping-3']);
      expect(Date.parse(journal.transitions[0]!.at)).toBeLessThanOrEqual(Date.now());
      const events = await spec.api.sql("SELECT type FROM notification_events WHERE subject_kind = 'breaker' AND subject_id = $1", [
        carrier.id,
      ]);
      expect(events).toEqual([{ type: 'breaker.opened' }]);
    } finally {
      await receiver.stop();
    }
  });
});

describe('who may report, and what', () => {
  it("takes only a service account's token, for its own service", async () => {
    const token = await serviceToken('payments-svc');
    const mine = report('payments-svc', 'p-1', [breaker('card')]);
    expect((await sendReport('not-a-token', mine)).status).toBe(401);
    const otherService = await sendReport(token, report('checkout', 'p-1', [breaker('card')]));
    expect(otherService.status).toBe(403);
    expect((await otherService.json()).message).toBe('This token reports for service payments-svc; it cannot report for checkout');

    const personal = await post('/api/tokens', { name: 'mine', expiresInDays: 1 });
    const personalToken = ((await personal.json()) as { token: string }).token;
    const person = await sendReport(personalToken, mine);
    expect(person.status).toBe(403);
    expect((await person.json()).message).toBe("Only a service account's access token may report breakers");
    const cookie = await spec.api.call('/api/agent/reports', { method: 'POST', cookie: spec.admin, body: mine });
    expect(cookie.status).toBe(403);
  });

  it('refuses an unknown version with a clear error, and reports out of bounds, naming the field', async () => {
    const token = await serviceToken('bounds');
    const newer = await sendReport(token, { ...report('bounds', 'b-1', []), version: 2, somethingNew: true });
    expect(newer.status).toBe(400);
    expect((await newer.json()).message).toBe('Agent protocol version 2 is not supported: this hub speaks version 1');

    // unknown fields are ignored
    expect(
      (await sendReport(token, { ...report('bounds', 'b-1', [{ ...breaker('x'), extra: 1 } as AgentBreakerReport]), hint: 'x' })).status,
    ).toBe(200);

    const tooMany = report(
      'bounds',
      'b-1',
      Array.from({ length: 501 }, (_, i) => breaker(`b${i}`)),
    );
    const refused = await sendReport(token, tooMany);
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toMatch(/^breakers: /);
    const badHistogram = await sendReport(
      token,
      report('bounds', 'b-1', [
        breaker('y', {}, { window: { ...breaker('y').window, latencyHistogram: { boundsMs: [1, 2], counts: [1] } } }),
      ]),
    );
    expect(badHistogram.status).toBe(400);
    expect((await badHistogram.json()).message).toMatch(/counts must have one more entry than boundsMs/);
    const histograms: [AgentBreakerReport['window']['latencyHistogram'], string][] = [
      [{ boundsMs: [1, 2], counts: [1, -1, 0] }, 'counts must be whole numbers from 0 to 1000000000'],
      [{ boundsMs: [1, 2], counts: [1, 0.5, 0] }, 'counts must be whole numbers from 0 to 1000000000'],
      [{ boundsMs: [-1, 2], counts: [1, 1, 0] }, 'boundsMs must be from 0 to 86400000 ms'],
    ];
    for (const [latencyHistogram, message] of histograms) {
      const bad = await sendReport(
        token,
        report('bounds', 'b-1', [
          breaker('z', {}, { window: { ...breaker('z').window, latencyHistogram } } as Partial<AgentBreakerReport>),
        ]),
      );
      expect(bad.status).toBe(400);
      expect((await bad.json()).message).toContain(message);
    }
    const twice = await sendReport(token, report('bounds', 'b-1', [breaker('Card'), breaker('card')]));
    expect(twice.status).toBe(400);
    expect((await twice.json()).message).toBe('breakers: breaker names must be unique within a report, whatever their letter case');
    const move = { from: 'CLOSED', to: 'OPEN', at: new Date().toISOString(), reason: 'x' } as const;
    const moves = await sendReport(
      token,
      report('bounds', 'b-1', [
        breaker('m1', {}, { transitions: Array(60).fill(move) }),
        breaker('m2', {}, { transitions: Array(41).fill(move) }),
      ]),
    );
    expect(moves.status).toBe(400);
    expect((await moves.json()).message).toBe('breakers: at most 100 transitions in all');
    const longName = await sendReport(token, report('bounds', 'x'.repeat(201), []));
    expect(longName.status).toBe(400);
    expect((await longName.json()).message).toMatch(/^instance: /);
  });

  it('bounds what one service may add: breakers on the hub and instances heard within the hour', async () => {
    const token = await serviceToken('crowded');
    for (let batch = 0; batch < 4; batch++) {
      const breakers = Array.from({ length: 500 }, (_, i) => breaker(`dependency-${batch * 500 + i}`));
      expect((await sendReport(token, report('crowded', 'c-1', breakers))).status).toBe(200);
    }
    // the report is taken for the breakers the hub has; the new one is left out, and the reply says so
    const more = await reply(token, report('crowded', 'c-1', [breaker('dependency-0'), breaker('one-too-many')]));
    expect(more.notices).toEqual([
      'service crowded has 2000 breakers on the hub, the most one service may: 1 new breakers left out (one-too-many); delete some on the hub',
    ]);
    expect(await spec.api.sql("SELECT 1 FROM circuit_breaker_configs WHERE service = 'crowded' AND name = 'one-too-many'")).toEqual([]);

    // a thousand instances heard within the hour (written behind the API's back; the silent ones count too), then a new one
    await spec.api.sql(
      `INSERT INTO agent_instances (service, instance, last_seen)
       SELECT 'crowded', 'crowd-' || n, now() - interval '50 minutes' FROM generate_series(1, 999) AS n`,
    );
    const refused = await sendReport(token, report('crowded', 'newcomer', [breaker('dependency-0')]));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect((await refused.json()).message).toBe(
      'Service crowded had 1000 instances reporting within the hour, the most one service may (1000); instance newcomer is not taken',
    );
    expect((await sendReport(token, report('crowded', 'crowd-7', [breaker('dependency-0')]))).status).toBe(200);
    // an instance not heard for an hour leaves the count, and makes room
    await spec.api.sql("UPDATE agent_instances SET last_seen = now() - interval '61 minutes' WHERE instance = 'crowd-8'");
    expect((await sendReport(token, report('crowded', 'newcomer', [breaker('dependency-0')]))).status).toBe(200);
  });

  it("counts each token's reports against its own rate limit", async () => {
    const token = await serviceToken('chatty');
    const other = await serviceToken('quiet');
    const statuses: number[] = [];
    // the limit counts per minute of the clock: 41 reports that straddled a minute would be counted in two
    await withRoomInTheMinute();
    for (let i = 0; i < 41; i++) statuses.push((await sendReport(token, report('chatty', 'c-1', []))).status);
    expect(statuses.slice(0, 40).every((status) => status === 200)).toBe(true);
    expect(statuses[40]).toBe(429);
    const limited = await sendReport(token, report('chatty', 'c-1', []));
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await sendReport(other, report('quiet', 'q-1', []))).status).toBe(200);
  });
});
