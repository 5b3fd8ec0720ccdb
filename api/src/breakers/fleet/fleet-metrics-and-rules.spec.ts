import type { JournalPage } from '@cbh/contracts';
import { randomUUID } from 'node:crypto';
import type { TestApi } from '../../../test/test-api';
import { startWebhookReceiver } from '../../../test/webhook-receiver';
import { ClusterLeasesRepository } from '../../platform/replicas/cluster-leases.repository';
import { fleetApiForThisFile } from './fleet.test-kit';

// An agent's breaker where the hub hands it on: Prometheus's /metrics, written once for the cluster whichever replica
// took the reports, and the notification rules, which raise one event for the moves its instances report.
const { spec, get, post, serviceToken, reply, breaker, report, breakerNamed, carried } = fleetApiForThisFile();

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
    const claim = async (roles: string[], holder: string, seconds = 10) => [...(await leases.claim(roles, holder, seconds))].sort();
    expect(await claim(['test.role'], a)).toEqual(['test.role']);
    expect(await claim(['test.role'], b)).toEqual([]);
    expect(await claim(['test.role'], a)).toEqual(['test.role']);
    await leases.release('test.role', a);
    expect(await claim(['test.role'], b, 0.05)).toEqual(['test.role']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // every role in one claim: each is won or lost on its own
    expect(await claim(['test.other', 'test.role'], a)).toEqual(['test.other', 'test.role']);
    expect(await claim(['test.other', 'test.third'], b)).toEqual(['test.third']);
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
