import type { BreakerStats } from '@cbh/contracts';
import type { CallOutcome } from '@cbh/breaker';

const escape = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** Prometheus text exposition with resilience4j's metric names. */
export function prometheusText(
  stats: BreakerStats[],
  nameOf: (configId: number) => string,
  totals: Map<number, Record<CallOutcome, number>>,
): string {
  const lines: string[] = [];
  const metric = (name: string, type: string, help: string, samples: [Record<string, string>, number][]) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of samples) {
      const text = Object.entries(labels)
        .map(([k, v]) => `${k}="${escape(v)}"`)
        .join(',');
      lines.push(`${name}{${text}} ${value}`);
    }
  };
  const named = (s: BreakerStats) => ({ name: nameOf(s.configId) });
  const total = (s: BreakerStats, outcome: CallOutcome) => totals.get(s.configId)?.[outcome] ?? 0;

  metric(
    'resilience4j_circuitbreaker_state',
    'gauge',
    'The states of the circuit breaker',
    stats.flatMap((s) =>
      (['closed', 'open', 'half_open'] as const).map((state): [Record<string, string>, number] => [
        { ...named(s), state },
        s.state.toLowerCase() === state ? 1 : 0,
      ]),
    ),
  );
  metric(
    'resilience4j_circuitbreaker_calls_total',
    'counter',
    'Calls that went through the circuit breaker, by outcome',
    stats.flatMap((s) => [
      [{ ...named(s), kind: 'successful' }, total(s, 'success')] as [Record<string, string>, number],
      [{ ...named(s), kind: 'failed' }, total(s, 'failure')],
      [{ ...named(s), kind: 'timeout' }, total(s, 'timeout')],
    ]),
  );
  metric(
    'resilience4j_circuitbreaker_not_permitted_calls_total',
    'counter',
    'Calls refused because the circuit breaker was open',
    stats.map((s) => [named(s), total(s, 'short-circuited')]),
  );
  metric(
    'resilience4j_bulkhead_rejected_calls_total',
    'counter',
    'Calls refused because the bulkhead was full',
    stats.map((s) => [named(s), total(s, 'bulkhead-rejected')]),
  );
  metric(
    'resilience4j_circuitbreaker_failure_rate',
    'gauge',
    'Failure rate over the last 10 s, in percent',
    stats.map((s) => [named(s), s.errorPercentage]),
  );
  metric(
    'resilience4j_circuitbreaker_calls_latency_seconds',
    'gauge',
    'Call latency over the last 10 s',
    stats.flatMap((s) =>
      (
        [
          ['0.5', s.latency.p50],
          ['0.9', s.latency.p90],
          ['0.99', s.latency.p99],
          ['1', s.latency.max],
        ] as const
      ).map(([quantile, ms]): [Record<string, string>, number] => [{ ...named(s), quantile }, ms / 1000]),
    ),
  );
  return `${lines.join('\n')}\n`;
}
