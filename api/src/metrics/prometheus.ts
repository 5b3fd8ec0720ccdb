import { mergeWindows, type CallOutcome } from '@cbh/breaker';
import type { BreakerStats } from '@cbh/contracts';
import type { ReplicaView } from './metrics.service';

const escape = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

type Labels = Record<string, string>;
type Sample = [Labels, number];

/** The label of the series that sum every live replica. */
export const CLUSTER_REPLICA = 'cluster';

/** One series source: the cluster's sums or one replica's own figures. */
interface Source {
  replica: string;
  state: (configId: number) => string;
  calls: (configId: number, outcome: CallOutcome) => number;
  window: (configId: number) => ReturnType<typeof mergeWindows>;
  failureRate: (configId: number) => number;
}

function replicaSource(replica: ReplicaView): Source {
  const window = (configId: number) => mergeWindows(replica.figures.has(configId) ? [replica.figures.get(configId)!.window] : []);
  return {
    replica: replica.id,
    state: (configId) => replica.figures.get(configId)?.state ?? 'CLOSED',
    calls: (configId, outcome) => replica.figures.get(configId)?.totals[outcome] ?? 0,
    window,
    failureRate: (configId) => {
      const totals = window(configId);
      const errors = totals.total - totals.counts.success;
      return totals.total ? Math.round((1000 * errors) / totals.total) / 10 : 0;
    },
  };
}

function clusterSource(stats: BreakerStats[], replicas: ReplicaView[]): Source {
  const byId = new Map(stats.map((s) => [s.configId, s]));
  const sources = replicas.map(replicaSource);
  return {
    replica: CLUSTER_REPLICA,
    state: (configId) => byId.get(configId)?.state ?? 'CLOSED',
    calls: (configId, outcome) => sources.reduce((sum, source) => sum + source.calls(configId, outcome), 0),
    window: (configId) => mergeWindows(replicas.flatMap((r) => (r.figures.has(configId) ? [r.figures.get(configId)!.window] : []))),
    failureRate: (configId) => byId.get(configId)?.errorPercentage ?? 0,
  };
}

/**
 * Prometheus text exposition with resilience4j's metric names. Every series carries a `replica` label (the
 * replica's instance id, as GET /api/health names it): one series per live replica, and for the gauges one with
 * replica="cluster" holding the cluster's figures, as GET /api/metrics/latest reports them. The counters (calls
 * since a replica started) have no cluster series: a sum over replicas would fall when one leaves, which rate()
 * reads as a reset; the cluster's calls are the gauge resilience4j_circuitbreaker_buffered_calls (the last 10 s),
 * and PromQL sums the counters over replicas.
 */
export function prometheusText(stats: BreakerStats[], replicas: ReplicaView[], nameOf: (configId: number) => string): string {
  const lines: string[] = [];
  const sources = [clusterSource(stats, replicas), ...replicas.map(replicaSource)];
  const ids = stats.map((s) => s.configId);
  const metric = (name: string, type: 'gauge' | 'counter', help: string, sample: (source: Source, configId: number) => Sample[]) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const source of type === 'counter' ? sources.slice(1) : sources) {
      for (const configId of ids) {
        for (const [labels, value] of sample(source, configId)) {
          const all: Labels = { name: nameOf(configId), ...labels, replica: source.replica };
          const text = Object.entries(all)
            .map(([k, v]) => `${k}="${escape(v)}"`)
            .join(',');
          lines.push(`${name}{${text}} ${value}`);
        }
      }
    }
  };

  metric('resilience4j_circuitbreaker_state', 'gauge', 'The states of the circuit breaker', (source, id) =>
    (['closed', 'open', 'half_open'] as const).map((state): Sample => [{ state }, source.state(id).toLowerCase() === state ? 1 : 0]),
  );
  metric('resilience4j_circuitbreaker_calls_total', 'counter', 'Calls that went through the circuit breaker, by outcome', (source, id) => [
    [{ kind: 'successful' }, source.calls(id, 'success')],
    [{ kind: 'failed' }, source.calls(id, 'failure')],
    [{ kind: 'timeout' }, source.calls(id, 'timeout')],
  ]);
  metric(
    'resilience4j_circuitbreaker_not_permitted_calls_total',
    'counter',
    'Calls refused because the circuit breaker was open',
    (source, id) => [[{}, source.calls(id, 'short-circuited')]],
  );
  metric('resilience4j_bulkhead_rejected_calls_total', 'counter', 'Calls refused because the bulkhead was full', (source, id) => [
    [{}, source.calls(id, 'bulkhead-rejected')],
  ]);
  metric('resilience4j_circuitbreaker_buffered_calls', 'gauge', 'Calls in the last 10 s, by outcome', (source, id) => {
    const { counts } = source.window(id);
    return [
      [{ kind: 'successful' }, counts.success],
      [{ kind: 'failed' }, counts.failure + counts.timeout],
    ];
  });
  metric('resilience4j_circuitbreaker_failure_rate', 'gauge', 'Failure rate over the last 10 s, in percent', (source, id) => [
    [{}, source.failureRate(id)],
  ]);
  metric('resilience4j_circuitbreaker_calls_latency_seconds', 'gauge', 'Call latency over the last 10 s', (source, id) => {
    const latency = source.window(id).latency;
    return (
      [
        ['0.5', latency.p50],
        ['0.9', latency.p90],
        ['0.99', latency.p99],
        ['1', latency.max],
      ] as const
    ).map(([quantile, ms]): Sample => [{ quantile }, ms / 1000]);
  });
  return `${lines.join('\n')}\n`;
}
