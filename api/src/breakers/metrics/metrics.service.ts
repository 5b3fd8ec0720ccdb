import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { type CallOutcome, EMPTY_WINDOW, mergeWindows, METRICS_WINDOW_SECONDS, RollingMetrics } from '@cbh/breaker';
import { moreCautious, type BreakerStateName, type BreakerStats } from '@cbh/contracts';
import { BreakerRegistry } from '../breaker-registry.service';
import { FleetFigures } from '../fleet/fleet-figures.service';
import { InstanceRegistry, PeriodicWork, RealtimeBus, type Repeating } from '../../platform';
import { MetricBucketsRepository } from './metric-buckets.repository';
import { BucketBuffer, emptyCounts } from './bucket-buffer';
import { CallCounters } from './call-counters';
import type { OwnBreaker } from './prometheus';
import { type BreakerFigures, PeerFigures, toParts } from './replica-figures';

const FLUSH_EVERY_MS = 5000;
/** Each replica shares its figures this often… */
export const SHARE_EVERY_MS = 1000;
/** …and one silent for this long drops out of the sums (metricsUpdate every 2 s: gone from screens within 5 s). */
export const PEER_STALE_MS = 3000;
type Counts = Record<CallOutcome, number>;

/** One replica's view: its id and its breakers' figures. */
export interface ReplicaView {
  id: string;
  figures: Map<number, BreakerFigures>;
}

/**
 * Every breaker's figures, the way Turbine aggregates Hystrix streams: each replica keeps its own rolling windows
 * in memory, shares them with the others every second over the PostgreSQL fan-out, and reports the sum over the
 * live replicas (itself included), so every replica answers with the same cluster-wide figures.
 */
@Injectable()
export class MetricsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(MetricsService.name);
  private readonly windows = new Map<number, RollingMetrics>();
  /** Calls since this process started, per breaker and outcome (Prometheus counters). */
  private readonly totals = new Map<number, Counts>();
  /** The same calls in resilience4j's kinds, with their latencies (/metrics' counters). */
  private readonly counters = new Map<number, CallCounters>();
  /** Per-second counts until metric_buckets has them (kept through a database outage). */
  private readonly pending = new BucketBuffer();
  private reportedDrops = 0;
  private flushing?: Repeating;
  private sharing?: Repeating;
  private round = 0;
  private readonly peers = new PeerFigures();

  constructor(
    private readonly work: PeriodicWork,
    private readonly buckets: MetricBucketsRepository,
    private readonly registry: BreakerRegistry,
    private readonly instances: InstanceRegistry,
    private readonly bus: RealtimeBus,
    private readonly fleet: FleetFigures,
  ) {}

  async onModuleDestroy() {
    void this.sharing?.stop();
    await this.flushing?.stop();
    await this.flush().catch(() => undefined);
  }

  /**
   * Writes the per-second counts gathered since the last flush, one row per breaker, second and replica. While the
   * database is away the counts stay here and go in with the first flush after it is back.
   */
  private async flush(now = Date.now()) {
    try {
      await this.pending.flush((buckets) => this.buckets.writeCounts(this.instances.id, buckets), now);
    } finally {
      if (this.pending.dropped > this.reportedDrops) {
        this.logger.error(`${this.pending.dropped - this.reportedDrops} per-second buckets dropped: the database was away too long`);
        this.reportedDrops = this.pending.dropped;
      }
    }
  }

  onModuleInit() {
    this.flushing = this.work.every(
      FLUSH_EVERY_MS,
      () => this.flush(),
      (error) => this.logger.warn(`${this.pending.size} per-second buckets wait for the database: ${error.message}`),
    );
    // a round still being sent (a slow database) is not cut short by the next: peers take only complete rounds.
    // share() reports its own failures, one round in 30.
    this.sharing = this.work.every(SHARE_EVERY_MS, () => this.share());
    this.bus.subscribeInternal('figures', ({ origin, data }) => {
      if (origin !== this.instances.id) this.peers.receive(origin, data, Date.now());
    });
  }

  /** Sends this replica's figures to the others, in as many NOTIFY-sized parts as they need. */
  private async share(now = Date.now()) {
    const round = this.round++;
    try {
      for (const part of toParts(round, [...this.ownFigures(now).values()])) await this.bus.publishInternal('figures', part);
    } catch (error) {
      // the database is away: peers drop this replica from their sums until it is back
      if (round % 30 === 0) this.logger.warn(`figures not shared: ${(error as Error).message}`);
    }
  }

  /** This replica's breakers that have anything to tell: calls, a state other than CLOSED, an override or a move. */
  private ownFigures(now: number): Map<number, BreakerFigures> {
    const figures = new Map<number, BreakerFigures>();
    for (const [configId, breaker] of this.registry.entries()) {
      const window = this.windows.get(configId)?.snapshot(now) ?? EMPTY_WINDOW;
      const totals = this.totals.get(configId);
      const entry: BreakerFigures = {
        configId,
        state: breaker.state,
        override: breaker.override,
        lastTransitionAt: breaker.lastTransitionAt,
        window,
        totals: totals ?? emptyCounts(),
      };
      if (totals || entry.state !== 'CLOSED' || entry.override !== 'none' || entry.lastTransitionAt !== null) figures.set(configId, entry);
    }
    return figures;
  }

  /** This replica and every live peer, this replica first. */
  replicas(now = Date.now()): ReplicaView[] {
    return [{ id: this.instances.id, figures: this.ownFigures(now) }, ...this.peers.live(now, PEER_STALE_MS)];
  }

  record(configId: number, outcome: CallOutcome, latencyMs: number, now = Date.now()) {
    let window = this.windows.get(configId);
    if (!window) this.windows.set(configId, (window = new RollingMetrics()));
    window.record(outcome, latencyMs, now);
    let totals = this.totals.get(configId);
    if (!totals) this.totals.set(configId, (totals = emptyCounts()));
    totals[outcome]++;
    let counters = this.counters.get(configId);
    if (!counters) this.counters.set(configId, (counters = new CallCounters()));
    counters.record(outcome, latencyMs, now);
    this.pending.count(configId, outcome, now);
  }

  /** This replica's own engine of every hub breaker, with its window and counters here (/metrics). */
  ownBreakers(now = Date.now()): OwnBreaker[] {
    return this.registry.entries().map(([configId, breaker]) => ({
      name: this.registry.nameOf(configId),
      settings: breaker.settings,
      state: breaker.state,
      override: breaker.override,
      callsInFlight: breaker.callsInFlight,
      window: this.windows.get(configId)?.snapshot(now) ?? EMPTY_WINDOW,
      counters: this.counters.get(configId),
    }));
  }

  /** Every breaker's figures: the hub's own summed over the live replicas, then the agents' and scraped ones over their instances. */
  everyBreaker(now = Date.now()): BreakerStats[] {
    return [...this.latest(now), ...this.fleet.stats()];
  }

  /** The hub's own breakers' figures summed over the live replicas; a breaker a replica does not mention is idle and CLOSED there. */
  latest(now = Date.now(), replicas = this.replicas(now)): BreakerStats[] {
    return this.registry.entries().map(([configId, breaker]) => {
      const seen = replicas.map((replica) => replica.figures.get(configId)).filter((entry) => entry !== undefined);
      const totals = mergeWindows(seen.map((entry) => entry.window));
      const counts = totals.counts;
      // the most cautious state wins the cluster's view
      const state = seen.reduce<BreakerStateName>((worst, entry) => moreCautious(worst, entry.state), 'CLOSED');
      const changed = Math.max(...seen.map((entry) => entry.lastTransitionAt ?? 0), 0);
      const errors = counts.failure + counts.timeout + counts['short-circuited'] + counts['bulkhead-rejected'];
      return {
        configId,
        state,
        override: breaker.override,
        lastTransitionAt: changed > 0 ? new Date(changed).toISOString() : null,
        successCount: counts.success,
        failureCount: counts.failure,
        timeoutCount: counts.timeout,
        shortCircuitedCount: counts['short-circuited'],
        bulkheadRejectedCount: counts['bulkhead-rejected'],
        errorPercentage: totals.total ? Math.round((1000 * errors) / totals.total) / 10 : 0,
        requestsPerSecond: Math.round((10 * totals.total) / METRICS_WINDOW_SECONDS) / 10,
        latency: totals.latency,
        replicas: { open: seen.filter((entry) => entry.state === 'OPEN').length, total: replicas.length },
      };
    });
  }
}
