import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from './support/test';
import { siteApi } from './support/site-api';
import { AGENT_INSTANCE, DASHBOARD, DEPLOY, METRICS_TOKEN, prometheusHubForThisFile, SERVICE } from './prometheus.test-kit';

/*
 * A real Prometheus (Debian's) scraping two production replicas with the shipped configuration and alerting rules
 * (deploy/prometheus): the rules and each replica's scrape pass promtool, and the queries of resilience4j's own
 * Grafana dashboard count each closed breaker as its replicas' engines and its service's instances have it, once each,
 * whatever replica an agent reported to; then with breakers forced open, each engine of a hub breaker and each
 * instance of an agent's breaker counted once, the shipped alert pending, and a replica that shuts down handing the
 * agents' breakers to the other. The tests run in order: each starts from the state the one before it left.
 */

const hub = prometheusHubForThisFile('prometheus');
const { replicas, breakers, query, valueOf, byLabels, dashboard, showDashboard } = hub;

test('the shipped rules pass promtool, and their unit tests', () => {
  for (const args of [
    ['check', 'rules', path.join(DEPLOY, 'rules.yml')],
    ['test', 'rules', path.join(DEPLOY, 'rules.test.yml')],
  ]) {
    const run = spawnSync('/usr/bin/promtool', args, { encoding: 'utf8' });
    expect(run.status, `promtool ${args.join(' ')}:\n${run.stdout}${run.stderr}`).toBe(0);
  }
});

test("each replica's scrape passes promtool check metrics", async () => {
  for (const site of replicas) {
    const response = await fetch(`${site.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.status).toBe(200);
    const run = spawnSync('/usr/bin/promtool', ['check', 'metrics'], { input: await response.text(), encoding: 'utf8' });
    expect(`${run.stdout}${run.stderr}`).toBe('');
    expect(run.status).toBe(0);
  }
});

test("resilience4j's dashboard counts every breaker once per replica engine and once per service instance", async () => {
  test.setTimeout(150_000);
  // both replicas scraped, and the agent's instance reported to both of them
  await expect
    .poll(
      async () => {
        const response = await fetch(`${hub.prometheusUrl}/api/v1/targets`);
        const { data } = (await response.json()) as { data: { activeTargets: { health: string }[] } };
        return data.activeTargets.map((target) => target.health);
      },
      { timeout: 30_000 },
    )
    .toEqual(['up', 'up']);
  await expect.poll(() => hub.reporter.sentTo.size).toBe(2);
  await expect.poll(() => valueOf('count(resilience4j_circuitbreaker_state{service="checkout"})'), { timeout: 20_000 }).toBe(6);

  // three hub breakers on two replicas, and the agent's breaker on its one instance: all closed
  await expect.poll(async () => valueOf(await dashboard(DASHBOARD.closed)), { timeout: 20_000 }).toBe(3 * 2 + 1);
  expect(await valueOf(await dashboard(DASHBOARD.open))).toBe(0);
  expect(await valueOf(await dashboard(DASHBOARD.halfOpen))).toBe(0);
  // six states per breaker and replica (or instance)
  expect(await query(await dashboard(DASHBOARD.states))).toHaveLength((3 * 2 + 1) * 6);
  expect(await byLabels(await dashboard(DASHBOARD.failureRate), 'name', 'service')).toEqual({
    'Orders/': -1,
    'Pool/': -1,
    'Search/': -1,
    'payments/checkout': 25,
  });
  expect(await query(await dashboard(DASHBOARD.failureRate))).toHaveLength(3 * 2 + 1);
  // the agent's breaker is labelled with its service's instance, not the replica's that wrote it
  expect(Object.keys(await byLabels('resilience4j_circuitbreaker_state{service="checkout",state="closed"}', 'instance'))).toEqual([
    AGENT_INSTANCE,
  ]);

  // calls through the adaptive breaker: 4 on the first replica, 2 on the second
  const service = (await (
    await siteApi(replicas[0]!, hub.cookie, '/api/services', 'POST', {
      name: 'Search backend',
      endpoint: '/api/chaos/1',
      failureRate: 0,
      averageResponseTime: 1,
      circuitBreakerConfigId: breakers.Search,
    })
  ).json()) as { id: number };
  await siteApi(replicas[0]!, hub.cookie, `/api/services/${service.id}`, 'PATCH', { endpoint: `/api/chaos/${service.id}` });
  for (const [site, calls] of [
    [replicas[0]!, 4],
    [replicas[1]!, 2],
  ] as const) {
    for (let i = 0; i < calls; i++) expect((await siteApi(site, hub.cookie, `/api/services/${service.id}/test`, 'POST')).status).toBe(200);
  }
  await expect
    .poll(() => byLabels('resilience4j_circuitbreaker_calls_seconds_count{name="Search",kind="successful"}', 'instance'), {
      timeout: 20_000,
    })
    .toEqual({ [new URL(replicas[0]!.url).host]: 4, [new URL(replicas[1]!.url).host]: 2 });
  expect(await valueOf('sum by (name) (resilience4j_circuitbreaker_calls_total{name="Search"})')).toBe(6);
  await expect.poll(async () => valueOf(`sum(${await dashboard(DASHBOARD.callRate)})`), { timeout: 20_000 }).toBeGreaterThan(0);
  const buffered = await query(await dashboard(DASHBOARD.bufferedCalls));
  expect(buffered).toHaveLength((3 * 2 + 1) * 2);
  // the calls the states decide on: the simple and bulkhead breakers' failure threshold, the adaptive one's minimum of calls
  expect(await byLabels(await dashboard(DASHBOARD.maxBufferedCalls), 'name', 'instance')).toEqual(
    Object.fromEntries(
      replicas.flatMap((site) => [
        [`Orders/${new URL(site.url).host}`, 5],
        [`Pool/${new URL(site.url).host}`, 5],
        [`Search/${new URL(site.url).host}`, 4],
      ]),
    ),
  );
  const durations = await byLabels(await dashboard(DASHBOARD.callDurations), 'name', 'kind', 'service');
  expect(durations['Search/successful/']).toBeGreaterThan(0);
  expect(durations['payments/successful/checkout']).toBeGreaterThan(0);
  expect(await valueOf(await dashboard(DASHBOARD.totalCallDuration))).toBeGreaterThan(0);
  // the hub has no retries: the retry panel is empty
  expect(await query(await dashboard(DASHBOARD.retryRate))).toEqual([]);
  expect(await byLabels(await dashboard(DASHBOARD.bulkheadAvailable), 'name')).toEqual({ Pool: 4 });
  expect(await query(await dashboard(DASHBOARD.bulkheadAvailable))).toHaveLength(2);
  expect(await valueOf(`sum(${await dashboard(DASHBOARD.bulkheadMax)})`)).toBe(8);

  // the hub's own figures: requests by route pattern, the agent's reports, the process
  expect(await valueOf('sum(cbh_http_request_duration_seconds_count{route="/api/services/:id/test",status="200"})')).toBe(6);
  expect(await valueOf('sum(cbh_agent_reports_total{outcome="accepted"})')).toBeGreaterThan(1);
  expect(await valueOf('count(process_resident_memory_bytes{job="circuit-breaker-hub"})')).toBe(2);
  expect(await valueOf('sum(cbh_agent_series_writer)')).toBe(1);
  await showDashboard('with every breaker closed, after 6 calls through Search');
});

test('a breaker forced open on one replica: each engine of it counted once, an agent instance once, and the alert pending', async () => {
  test.setTimeout(120_000);
  // the hub's own breaker, forced through the first replica: every replica's engine refuses its calls
  expect((await siteApi(replicas[0]!, hub.cookie, `/api/circuit-breakers/${breakers.Orders}/force-open`, 'POST')).status).toBe(200);
  await expect
    .poll(() => byLabels('sum by (instance) (resilience4j_circuitbreaker_state{name="Orders",state=~"open|forced_open"})', 'instance'), {
      timeout: 20_000,
    })
    .toEqual(Object.fromEntries(replicas.map((site) => [new URL(site.url).host, 1])));
  // the agent's breaker, forced through the second replica: its instance hears it and reports it, counted once
  const payments = (
    (await (await siteApi(replicas[0]!, hub.cookie, `/api/circuit-breakers?source=agent&service=${SERVICE}`)).json()) as {
      id: number;
      name: string;
    }[]
  ).find((breaker) => breaker.name === 'payments')!;
  expect((await siteApi(replicas[1]!, hub.cookie, `/api/circuit-breakers/${payments.id}/force-open`, 'POST')).status).toBe(200);
  await expect
    .poll(() => valueOf('sum(resilience4j_circuitbreaker_state{service="checkout",state="forced_open"})'), { timeout: 20_000 })
    .toBe(1);

  // the dashboard: two engines of Orders and one instance of payments open, the rest closed
  await expect.poll(async () => valueOf(await dashboard(DASHBOARD.open)), { timeout: 20_000 }).toBe(2 + 1);
  expect(await valueOf(await dashboard(DASHBOARD.closed))).toBe(2 * 2);
  expect(await valueOf('count(count by (name, service) (resilience4j_circuitbreaker_state{state=~"open|forced_open"} == 1))')).toBe(2);
  await expect
    .poll(() => valueOf('sum(resilience4j_circuitbreaker_not_permitted_calls_total{service="checkout"})'), { timeout: 20_000 })
    .toBeGreaterThan(0);

  // the shipped alert, by breaker: pending for a minute before it fires
  const alerts = async () => {
    const { data } = (await (await fetch(`${hub.prometheusUrl}/api/v1/alerts`)).json()) as {
      data: { alerts: { labels: Record<string, string>; state: string }[] };
    };
    return data.alerts
      .filter((alert) => alert.labels.alertname === 'CircuitBreakerOpen')
      .map((alert) => `${alert.labels.name}/${alert.labels.service ?? ''}/${alert.labels.state}: ${alert.state}`)
      .sort();
  };
  await expect.poll(alerts, { timeout: 20_000 }).toEqual(['Orders//forced_open: pending', 'payments/checkout/forced_open: pending']);
  expect(await valueOf('count(ALERTS{alertname="CircuitBreakerHubReplicaDown"})')).toBeNull();
  expect(await valueOf('count(ALERTS{alertname="CircuitBreakerHubAgentSeriesUnwritten"})')).toBeNull();
  await showDashboard('with Orders and payments forced open');
});

test("a replica that shuts down hands the agents' breakers to the other, still counted once", async () => {
  test.setTimeout(120_000);
  const writers = await byLabels('cbh_agent_series_writer == 1', 'instance');
  const writer = replicas.findIndex((site) => new URL(site.url).host in writers);
  expect(writer).toBeGreaterThanOrEqual(0);
  const leaving = replicas[writer]!;
  const staying = replicas[1 - writer]!;
  hub.reporter.onlyTo(staying);
  await leaving.stop();
  await expect
    .poll(() => byLabels('cbh_agent_series_writer == 1', 'instance'), { timeout: 30_000 })
    .toEqual({ [new URL(staying.url).host]: 1 });
  await expect
    .poll(() => valueOf('sum(resilience4j_circuitbreaker_state{service="checkout",state="forced_open"})'), { timeout: 20_000 })
    .toBe(1);
  await expect.poll(() => valueOf('count(up{job="circuit-breaker-hub"} == 0)'), { timeout: 20_000 }).toBe(1);
});
