import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parse, stringify } from 'yaml';
import type { AgentReport, AgentReportReply, BreakerOverride } from '@cbh/contracts';
import { freePort } from '../tools/testing/free-port';
import { ACCOUNTS_ENV, ownDatabase, ROOT, SCRATCH, startSite, type Site } from './support/server';
import { apiSignIn, siteApi } from './support/site-api';

/*
 * A real Prometheus (Debian's) scraping two production replicas with the shipped configuration and alerting rules
 * (deploy/prometheus), read with the queries of resilience4j's own Grafana dashboard: each breaker is counted as its
 * replicas' engines and its service's instances have it, once each, whatever replica an agent reported to.
 */

/** The queries of resilience4j's grafana_dashboard.json (resilience4j/resilience4j, at the root), panel by panel. */
const DASHBOARD = {
  closed: 'sum(resilience4j_circuitbreaker_state{state="closed"})',
  open: 'sum(resilience4j_circuitbreaker_state{state=~"open|forced_open"})',
  halfOpen: 'sum(resilience4j_circuitbreaker_state{state="half_open"})',
  states: 'resilience4j_circuitbreaker_state{instance=~"$instance"}',
  failureRate: 'resilience4j_circuitbreaker_failure_rate{instance=~"$instance",name=~"$circuitbreaker_name"}',
  callRate: 'rate(resilience4j_circuitbreaker_calls_seconds_count{instance=~"$instance",name=~"$circuitbreaker_name"}[1m])',
  bufferedCalls: 'resilience4j_circuitbreaker_buffered_calls{instance=~"$instance",name=~"$circuitbreaker_name"}',
  maxBufferedCalls: 'resilience4j_circuitbreaker_max_buffered_calls{instance=~"$instance",name=~"$circuitbreaker_name"}',
  callDurations:
    'increase(resilience4j_circuitbreaker_calls_seconds_sum{instance=~"$instance",name=~"$circuitbreaker_name"}[1m]) / increase(resilience4j_circuitbreaker_calls_seconds_count{instance=~"$instance",name=~"$circuitbreaker_name"}[1m])',
  totalCallDuration:
    'sum(increase(resilience4j_circuitbreaker_calls_seconds_sum{instance=~"$instance",name=~"$circuitbreaker_name"}[1m])) / sum(increase(resilience4j_circuitbreaker_calls_seconds_count{instance=~"$instance",name=~"$circuitbreaker_name"}[1m]))',
  retryRate: 'rate(resilience4j_retry_calls_total{application=~"$application",name=~"$retry_name",}[1m])',
  bulkheadAvailable: 'resilience4j_bulkhead_available_concurrent_calls{application=~"$application", name=~"$bulkhead_name"}',
  bulkheadMax: 'resilience4j_bulkhead_max_allowed_concurrent_calls{application=~"$application",name=~"$bulkhead_name"}',
};
/** The dashboard's template variables: each the values of a label on a metric (label_values), as Grafana reads them. */
const VARIABLES: Record<string, [metric: string, label: string]> = {
  application: ['jvm_info', 'application'],
  instance: ['resilience4j_circuitbreaker_state', 'instance'],
  circuitbreaker_name: ['resilience4j_circuitbreaker_state', 'name'],
  retry_name: ['resilience4j_retry_calls_total', 'name'],
  bulkhead_name: ['resilience4j_bulkhead_available_concurrent_calls', 'name'],
};

const DATABASE = `prometheus_e2e_${process.pid}`;
const METRICS_TOKEN = 'metrics-token-of-the-prometheus-e2e';
const SERVICE = 'checkout';
const AGENT_INSTANCE = 'checkout-1';
const DEPLOY = path.join(ROOT, 'deploy/prometheus');

let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
let replicas: Site[] = [];
let cookie: string;
let prometheus: { url: string; process: ChildProcess; logs: string[]; dir: string } | undefined;
let reporter: { stop(): Promise<void>; sentTo: Set<string>; onlyTo(site: Site): void } | undefined;
const breakers: Record<string, number> = {};

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

async function query(expr: string): Promise<Sample[]> {
  const response = await fetch(`${prometheus!.url}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = (await response.json()) as { status: string; error?: string; data: { resultType: string; result: Sample[] } };
  expect(body.status, `${expr}: ${body.error}`).toBe('success');
  return body.data.result;
}
/** The one value of an aggregation, or null when it returns nothing. */
const valueOf = async (expr: string): Promise<number | null> => {
  const result = await query(expr);
  return result.length === 0 ? null : Number(result[0]!.value[1]);
};
/** Each series' value by the labels asked for. */
const byLabels = async (expr: string, ...labels: string[]): Promise<Record<string, number>> =>
  Object.fromEntries(
    (await query(expr)).map((sample) => [labels.map((label) => sample.metric[label] ?? '').join('/'), Number(sample.value[1])]),
  );

/** A dashboard query with its variables replaced as Grafana does: a multi-value variable as a regex alternation of its values. */
async function dashboard(expr: string): Promise<string> {
  let substituted = expr;
  for (const [variable, [metric, label]] of Object.entries(VARIABLES)) {
    if (!substituted.includes(`$${variable}`)) continue;
    const response = await fetch(`${prometheus!.url}/api/v1/label/${label}/values?match[]=${encodeURIComponent(metric)}`);
    const values = ((await response.json()) as { data: string[] }).data;
    const regex = values.map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\\\$&')).join('|');
    substituted = substituted.replaceAll(`$${variable}`, values.length > 1 ? `(${regex})` : regex);
  }
  return substituted;
}

/** Every dashboard query as Prometheus answers it now, in the test's output (what an operator's panels show). */
async function showDashboard(when: string) {
  const lines = [`resilience4j's dashboard ${when}:`];
  for (const [panel, expr] of Object.entries(DASHBOARD)) {
    const result = await query(await dashboard(expr));
    const values = result.map(({ metric, value }) => {
      const labels = ['name', 'service', 'instance', 'state', 'kind'].filter((label) => metric[label] !== undefined);
      return `${labels.map((label) => metric[label]).join('/')}${labels.length ? '=' : ''}${value[1]}`;
    });
    const shown = panel === 'states' ? values.filter((value) => value.endsWith('=1')) : values;
    lines.push(
      `  ${panel}: ${shown.length ? shown.join(', ') : '(empty)'}${panel === 'states' ? ` (the series at 1 of ${values.length})` : ''}`,
    );
  }
  console.log(lines.join('\n'));
}

/** An agent's instance reporting one breaker every 500 ms to the replicas in turn, obeying the hub's controls. */
function startReporter(token: string) {
  let override: BreakerOverride = 'none';
  let turn = 0;
  let only: Site | undefined;
  const sentTo = new Set<string>();
  const report = (): AgentReport => ({
    version: 1,
    service: SERVICE,
    instance: AGENT_INSTANCE,
    sentAt: new Date().toISOString(),
    periodMs: 500,
    breakers: [
      {
        name: 'payments',
        library: 'opossum',
        type: 'error-percentage',
        settings: { errorThresholdPercentage: 50, timeout: 3000, resetTimeout: 30000 },
        state: override === 'forced-open' ? 'OPEN' : 'CLOSED',
        override,
        window: {
          successes: 3,
          failures: 1,
          timeouts: 0,
          rejections: override === 'forced-open' ? 2 : 0,
          latencyHistogram: { boundsMs: [10, 100], counts: [3, 1, 0] },
          longestCallMs: 50,
        },
        transitions: [],
      },
    ],
  });
  const send = async () => {
    const site = only ?? replicas[turn++ % replicas.length]!;
    const response = await fetch(`${site.url}/api/agent/reports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(report()),
    }).catch(() => null);
    if (response?.status !== 200) return;
    sentTo.add(site.url);
    const reply = (await response.json()) as AgentReportReply;
    for (const control of reply.controls) if (control.name === 'payments') override = control.override;
  };
  let running = true;
  const loop = (async () => {
    while (running) {
      await send();
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  })();
  return {
    sentTo,
    onlyTo: (site: Site) => void (only = site),
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** Prometheus with the shipped configuration, its targets the two replicas, every second. */
async function startPrometheus(): Promise<NonNullable<typeof prometheus>> {
  const dir = mkdtempSync(path.join(SCRATCH, 'prometheus-'));
  writeFileSync(path.join(dir, 'token'), METRICS_TOKEN);
  const config = parse(readFileSync(path.join(DEPLOY, 'prometheus.yml'), 'utf8'));
  config.global = { ...config.global, scrape_interval: '1s', evaluation_interval: '1s' };
  config.rule_files = [path.join(DEPLOY, 'rules.yml')];
  const [job] = config.scrape_configs;
  job.authorization.credentials_file = path.join(dir, 'token');
  job.static_configs = [{ targets: replicas.map((site) => new URL(site.url).host) }];
  writeFileSync(path.join(dir, 'prometheus.yml'), stringify(config));
  const port = await freePort();
  const logs: string[] = [];
  const child = spawn(
    '/usr/bin/prometheus',
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (chunk) => logs.push(String(chunk)));
  child.stderr!.on('data', (chunk) => logs.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  await expect
    .poll(async () => (await fetch(`${url}/-/ready`).catch(() => null))?.status, { timeout: 30_000, message: logs.join('') })
    .toBe(200);
  return { url, process: child, logs, dir };
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  database = await ownDatabase(DATABASE);
  const ports = [await freePort(), await freePort()];
  const env = {
    ...ACCOUNTS_ENV,
    SEED_DEMO: 'false',
    DATABASE_URL: database.url,
    PUBLIC_URL: `http://127.0.0.1:${ports[0]}`,
    METRICS_TOKEN,
  };
  // the first replica migrates the database before the second starts
  replicas = [await startSite({ port: ports[0]!, env })];
  replicas.push(await startSite({ port: ports[1]!, env }));
  cookie = await apiSignIn(replicas[0]!);
  const create = async (body: Record<string, unknown>) => {
    const response = await siteApi(replicas[0]!, cookie, '/api/circuit-breakers', 'POST', {
      failureThreshold: 5,
      timeout: 30_000,
      recoveryTime: 60_000,
      successThreshold: 2,
      ...body,
    });
    expect(response.status, await response.clone().text()).toBe(201);
    breakers[body.name as string] = ((await response.json()) as { id: number }).id;
  };
  await create({ name: 'Orders', type: 'simple' });
  await create({ name: 'Search', type: 'adaptive', minimumCalls: 4 });
  await create({ name: 'Pool', type: 'bulkhead', maxConcurrentCalls: 4 });

  const account = (await (await siteApi(replicas[0]!, cookie, '/api/service-accounts', 'POST', { name: SERVICE })).json()) as {
    id: string;
  };
  const made = await siteApi(replicas[0]!, cookie, `/api/service-accounts/${account.id}/tokens`, 'POST', {
    name: 'agent',
    expiresInDays: 1,
  });
  reporter = startReporter(((await made.json()) as { token: string }).token);
  prometheus = await startPrometheus();
});

test.afterAll(async () => {
  await reporter?.stop();
  prometheus?.process.kill('SIGTERM');
  if (prometheus && prometheus.process.exitCode === null) await new Promise((resolve) => prometheus!.process.once('exit', resolve));
  if (prometheus) rmSync(prometheus.dir, { recursive: true, force: true });
  await Promise.all(replicas.map((site) => site.stop()));
  await database?.drop();
});

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
        const response = await fetch(`${prometheus!.url}/api/v1/targets`);
        const { data } = (await response.json()) as { data: { activeTargets: { health: string }[] } };
        return data.activeTargets.map((target) => target.health);
      },
      { timeout: 30_000 },
    )
    .toEqual(['up', 'up']);
  await expect.poll(() => reporter!.sentTo.size).toBe(2);
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
    await siteApi(replicas[0]!, cookie, '/api/services', 'POST', {
      name: 'Search backend',
      endpoint: '/api/chaos/1',
      failureRate: 0,
      averageResponseTime: 1,
      circuitBreakerConfigId: breakers.Search,
    })
  ).json()) as { id: number };
  await siteApi(replicas[0]!, cookie, `/api/services/${service.id}`, 'PATCH', { endpoint: `/api/chaos/${service.id}` });
  for (const [site, calls] of [
    [replicas[0]!, 4],
    [replicas[1]!, 2],
  ] as const) {
    for (let i = 0; i < calls; i++) expect((await siteApi(site, cookie, `/api/services/${service.id}/test`, 'POST')).status).toBe(200);
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
  expect((await siteApi(replicas[0]!, cookie, `/api/circuit-breakers/${breakers.Orders}/force-open`, 'POST')).status).toBe(200);
  await expect
    .poll(() => byLabels('sum by (instance) (resilience4j_circuitbreaker_state{name="Orders",state=~"open|forced_open"})', 'instance'), {
      timeout: 20_000,
    })
    .toEqual(Object.fromEntries(replicas.map((site) => [new URL(site.url).host, 1])));
  // the agent's breaker, forced through the second replica: its instance hears it and reports it, counted once
  const payments = (
    (await (await siteApi(replicas[0]!, cookie, `/api/circuit-breakers?source=agent&service=${SERVICE}`)).json()) as {
      id: number;
      name: string;
    }[]
  ).find((breaker) => breaker.name === 'payments')!;
  expect((await siteApi(replicas[1]!, cookie, `/api/circuit-breakers/${payments.id}/force-open`, 'POST')).status).toBe(200);
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
    const { data } = (await (await fetch(`${prometheus!.url}/api/v1/alerts`)).json()) as {
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
  reporter!.onlyTo(staying);
  await leaving.stop();
  await expect
    .poll(() => byLabels('cbh_agent_series_writer == 1', 'instance'), { timeout: 30_000 })
    .toEqual({ [new URL(staying.url).host]: 1 });
  await expect
    .poll(() => valueOf('sum(resilience4j_circuitbreaker_state{service="checkout",state="forced_open"})'), { timeout: 20_000 })
    .toBe(1);
  await expect.poll(() => valueOf('count(up{job="circuit-breaker-hub"} == 0)'), { timeout: 20_000 }).toBe(1);
});
