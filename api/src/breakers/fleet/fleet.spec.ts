import type { BreakerConfigView, BreakerInstancesPage, BreakerStats, BreakerTransition, JournalPage, ServerMessage } from '@cbh/contracts';
import WebSocket from 'ws';
import { fleetApiForThisFile } from './fleet.test-kit';

// What an agent's report does on every replica: the wall, the journal, the socket's stateChange, the controls and
// settings sent back, and each instance's figures. What a report may be, and who may send it, is in
// fleet-report-admission.spec.ts; the breaker at /metrics and in notification rules in fleet-metrics-and-rules.spec.ts.
const { spec, get, post, serviceToken, reply, breaker, report, breakerNamed, carried, statsOf } = fleetApiForThisFile();

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
