import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/test';
import { parse, stringify } from 'yaml';
import type { AgentReport, AgentReportReply, BreakerOverride } from '@cbh/contracts';
import { freePort } from '../tools/testing/free-port.mjs';
import { ACCOUNTS_ENV, ownDatabase, ROOT, SCRATCH, startSite, type Site } from './support/server';
import { apiSignIn, siteApi } from './support/site-api';

/*
 * What the Prometheus e2e files share: two production replicas on a database of the file's own, three hub breakers
 * on them, an agent's instance reporting one breaker of its own, and a real Prometheus (Debian's) scraping the
 * replicas with the shipped configuration and alerting rules (deploy/prometheus); and the queries of resilience4j's
 * own Grafana dashboard, with the helpers that ask Prometheus for them.
 */

/** The queries of resilience4j's grafana_dashboard.json (resilience4j/resilience4j, at the root), panel by panel. */
export const DASHBOARD = {
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

export const METRICS_TOKEN = 'metrics-token-of-the-prometheus-e2e';
export const SERVICE = 'checkout';
export const AGENT_INSTANCE = 'checkout-1';
export const DEPLOY = path.join(ROOT, 'deploy/prometheus');

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

type Reporter = ReturnType<typeof startReporter>;
type Prometheus = Awaited<ReturnType<typeof startPrometheus>>;

/** An agent's instance reporting one breaker every 500 ms to the replicas in turn, obeying the hub's controls. */
function startReporter(token: string, replicas: readonly Site[]) {
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
async function startPrometheus(replicas: readonly Site[]) {
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

/**
 * The replicas, breakers, agent and Prometheus of the calling file, started before its first test and stopped after
 * its last (on a database named after `name`), with the helpers that read Prometheus.
 */
export function prometheusHubForThisFile(name: string) {
  let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
  const replicas: Site[] = [];
  let cookie: string;
  let prometheus: Prometheus | undefined;
  let reporter: Reporter | undefined;
  const breakers: Record<string, number> = {};

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    database = await ownDatabase(`${name}_e2e_${process.pid}`);
    const ports = [await freePort(), await freePort()];
    const env = {
      ...ACCOUNTS_ENV,
      SEED_DEMO: 'false',
      DATABASE_URL: database.url,
      PUBLIC_URL: `http://127.0.0.1:${ports[0]}`,
      METRICS_TOKEN,
    };
    // the first replica migrates the database before the second starts
    replicas.push(await startSite({ port: ports[0]!, env }));
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
    reporter = startReporter(((await made.json()) as { token: string }).token, replicas);
    prometheus = await startPrometheus(replicas);
  });

  test.afterAll(async () => {
    await reporter?.stop();
    prometheus?.process.kill('SIGTERM');
    if (prometheus && prometheus.process.exitCode === null) await new Promise((resolve) => prometheus!.process.once('exit', resolve));
    if (prometheus) rmSync(prometheus.dir, { recursive: true, force: true });
    await Promise.all(replicas.map((site) => site.stop()));
    await database?.drop();
  });

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

  return {
    replicas,
    breakers,
    /** The super admin's session on the first replica. */
    get cookie() {
      return cookie;
    },
    get prometheusUrl() {
      return prometheus!.url;
    },
    get reporter() {
      return reporter!;
    },
    query,
    valueOf,
    byLabels,
    dashboard,
    showDashboard,
  };
}
