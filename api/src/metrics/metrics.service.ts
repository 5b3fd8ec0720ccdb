import { Injectable, type OnModuleInit } from '@nestjs/common';
import { type CallOutcome, RollingMetrics } from '@cbh/breaker';
import type { BreakerStats } from '@cbh/contracts';
import { BreakerRegistry } from '../breakers/breaker-registry.service';
import { InstanceRegistry } from '../health/instance-registry.service';
import { RealtimeBus } from '../realtime/realtime-bus.service';

/** Per-breaker figures of this process, from memory; the replica view comes from the stateChange messages. */
@Injectable()
export class MetricsService implements OnModuleInit {
  private readonly windows = new Map<number, RollingMetrics>();
  /** Calls since this process started, per breaker and outcome (Prometheus counters). */
  readonly totals = new Map<number, Record<CallOutcome, number>>();
  /** configId → replica → its last announced state */
  private readonly replicaStates = new Map<number, Map<string, string>>();

  constructor(
    private readonly registry: BreakerRegistry,
    private readonly instances: InstanceRegistry,
    private readonly bus: RealtimeBus,
  ) {}

  onModuleInit() {
    this.bus.subscribe(({ message }) => {
      if (message.type !== 'stateChange') return;
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
    if (!totals) this.totals.set(configId, (totals = { success: 0, failure: 0, timeout: 0, 'short-circuited': 0, 'bulkhead-rejected': 0 }));
    totals[outcome]++;
  }

  latest(now = Date.now()): BreakerStats[] {
    const total = Math.max(1, this.instances.alive);
    return this.registry.entries().map(([configId, breaker]) => {
      const totals = this.windows.get(configId)?.totals(now);
      const counts = totals?.counts;
      const state = breaker.state;
      const peers = [...(this.replicaStates.get(configId) ?? new Map<string, string>()).entries()].filter(([id]) => id !== this.instances.id);
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
        latency: totals?.latency ?? { p50: 0, p90: 0, p99: 0, max: 0 },
        replicas: { open: Math.min(open, total), total },
      };
    });
  }
}
