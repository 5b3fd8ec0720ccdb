import { useCallback, useState } from 'react';
import { useLiveMessages } from '@cbh/api-client';
import type { BreakerStats, ServerMessage } from '@cbh/contracts';

export interface MetricsSample {
  /** seconds since the epoch */
  at: number;
  stats: BreakerStats[];
}

/** 150 samples of the server's 2-second metricsUpdate: the last five minutes. */
export const HISTORY_LIMIT = 150;

export function appendSample(samples: MetricsSample[], sample: MetricsSample, limit = HISTORY_LIMIT): MetricsSample[] {
  const next = samples.length >= limit ? samples.slice(samples.length - limit + 1) : samples.slice();
  next.push(sample);
  return next;
}

/** Every metricsUpdate received while the component is shown, oldest first. */
export function useMetricsHistory(limit = HISTORY_LIMIT): MetricsSample[] {
  const [samples, setSamples] = useState<MetricsSample[]>([]);
  const onMessage = useCallback(
    (message: ServerMessage) => {
      if (message.type !== 'metricsUpdate') return;
      setSamples((current) => appendSample(current, { at: Date.now() / 1000, stats: message.data.stats }, limit));
    },
    [limit],
  );
  useLiveMessages(onMessage);
  return samples;
}

/** Every call the live window counted; zero means no traffic, whatever the figures derived from it say. */
export const liveCalls = (stats: BreakerStats) =>
  stats.successCount + stats.failureCount + stats.timeoutCount + stats.shortCircuitedCount + stats.bulkheadRejectedCount;

export const STATE_LEVEL = { CLOSED: 0, HALF_OPEN: 1, OPEN: 2 } as const;
const STATE_BY_LEVEL = ['CLOSED', 'HALF_OPEN', 'OPEN'] as const;
/** A state level as the charts label it. */
export const stateLabel = (level: number) => (STATE_BY_LEVEL[Math.round(level)] ?? '').replace('_', '-');

/** One breaker's state, error %, latency percentiles and throughput (calls/s) over the samples, in chart form. */
export function breakerSeries(samples: MetricsSample[], configId: number) {
  const at: number[] = [];
  const state: (number | null)[] = [];
  const errors: (number | null)[] = [];
  const p50: (number | null)[] = [];
  const p90: (number | null)[] = [];
  const p99: (number | null)[] = [];
  const throughput: (number | null)[] = [];
  for (const sample of samples) {
    const entry = sample.stats.find((stats) => stats.configId === configId);
    at.push(sample.at);
    state.push(entry ? STATE_LEVEL[entry.state] : null);
    errors.push(entry ? entry.errorPercentage : null);
    p50.push(entry ? entry.latency.p50 : null);
    p90.push(entry ? entry.latency.p90 : null);
    p99.push(entry ? entry.latency.p99 : null);
    throughput.push(entry ? entry.requestsPerSecond : null);
  }
  return {
    state: [at, state] as [number[], (number | null)[]],
    errors: [at, errors] as [number[], (number | null)[]],
    latency: [at, p50, p90, p99] as [number[], (number | null)[], (number | null)[], (number | null)[]],
    throughput: [at, throughput] as [number[], (number | null)[]],
  };
}
