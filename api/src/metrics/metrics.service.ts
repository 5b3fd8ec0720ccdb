import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { type CallOutcome, RollingMetrics } from '@cbh/breaker';
import type { BreakerStats } from '@cbh/contracts';
import { BreakerRegistry } from '../breakers/breaker-registry.service';
import { InstanceRegistry } from '../replicas/instance-registry.service';
import { RealtimeBus } from '../bus/realtime-bus.service';
import { type MetricBucketCounts, MetricBucketsRepository } from './metric-buckets.repository';

/** Per-breaker figures of this process, from memory; the replica view comes from the stateChange messages. */
const FLUSH_EVERY_MS = 5000;
type Counts = Record<CallOutcome, number>;
const emptyCounts = (): Counts => ({ success: 0, failure: 0, timeout: 0, 'short-circuited': 0, 'bulkhead-rejected': 0 });

@Injectable()
export class MetricsService implements OnModuleInit, OnModuleDestroy {
  private readonly windows = new Map<number, RollingMetrics>();
  /** Calls since this process started, per breaker and outcome (Prometheus counters). */
  readonly totals = new Map<number, Counts>();
  /** Counts not yet written to metric_buckets: "configId:second" → counts. */
  private pending = new Map<string, Counts>();
  private flushTimer?: NodeJS.Timeout;
  /** configId → replica → its last announced state */
  private readonly replicaStates = new Map<number, Map<string, string>>();

  constructor(
    private readonly buckets: MetricBucketsRepository,
    private readonly registry: BreakerRegistry,
    private readonly instances: InstanceRegistry,
    private readonly bus: RealtimeBus,
  ) {}

  async onModuleDestroy() {
    clearInterval(this.flushTimer);
    await this.flush().catch(() => undefined);
  }

  /** Writes the per-second counts gathered since the last flush, one row per breaker, second and replica. */
  async flush() {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const buckets = [...batch.entries()].map(([key, c]): MetricBucketCounts => {
      const [configId, second] = key.split(':').map(Number) as [number, number];
      return {
        configId,
        second: new Date(second * 1000),
        success: c.success,
        failure: c.failure,
        timeout: c.timeout,
        shortCircuited: c['short-circuited'],
        bulkheadRejected: c['bulkhead-rejected'],
      };
    });
    await this.buckets.addCounts(this.instances.id, buckets);
  }

  onModuleInit() {
    this.flushTimer = setInterval(() => void this.flush().catch(() => undefined), FLUSH_EVERY_MS);
    this.flushTimer.unref();
    this.bus.subscribe(({ message }) => {
      if (message.type !== 'stateChange' || message.data.instanceId === null) return;
      const states = this.replicaStates.get(message.data.configId) ?? new Map<string, string>();
      states.set(message.data.instanceId, message.data.to);
      this.replicaStates.set(message.data.configId, states);
    });
  }

  record(configId: number, outcome: CallOutcome, latencyMs: number, now = Date.now()) {
    let window = this.windows.get(configId);
    if (!window) this.windows.set(configId, (window = new RollingMetrics()));
    window.record(outcome, latencyMs, now);
    let totals = this.totals.get(configId);
    if (!totals) this.totals.set(configId, (totals = emptyCounts()));
    totals[outcome]++;
    const key = `${configId}:${Math.floor(now / 1000)}`;
    let pending = this.pending.get(key);
    if (!pending) this.pending.set(key, (pending = emptyCounts()));
    pending[outcome]++;
  }

  latest(now = Date.now()): BreakerStats[] {
    const total = Math.max(1, this.instances.alive);
    return this.registry.entries().map(([configId, breaker]) => {
      const totals = this.windows.get(configId)?.totals(now);
      const counts = totals?.counts;
      const state = breaker.state;
      const peers = [...(this.replicaStates.get(configId) ?? new Map<string, string>()).entries()].filter(
        ([id]) => id !== this.instances.id,
      );
      const open = (state === 'OPEN' ? 1 : 0) + peers.filter(([, peerState]) => peerState === 'OPEN').length;
      const errors = counts ? counts.failure + counts.timeout + counts['short-circuited'] + counts['bulkhead-rejected'] : 0;
      return {
        configId,
        state,
        successCount: counts?.success ?? 0,
        failureCount: counts?.failure ?? 0,
        timeoutCount: counts?.timeout ?? 0,
        shortCircuitedCount: counts?.['short-circuited'] ?? 0,
        bulkheadRejectedCount: counts?.['bulkhead-rejected'] ?? 0,
        errorPercentage: totals?.total ? Math.round((1000 * errors) / totals.total) / 10 : 0,
        requestsPerSecond: totals ? Math.round((10 * totals.total) / 10) / 10 : 0,
        latency: totals?.latency ?? { mean: 0, p50: 0, p90: 0, p99: 0, max: 0 },
        replicas: { open: Math.min(open, total), total },
      };
    });
  }
}
