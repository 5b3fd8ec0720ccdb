import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  AGENT_STALE_PERIODS,
  type BreakerInstanceView,
  type BreakerOverride,
  type BreakerStateName,
  type BreakerStats,
  type ServerMessage,
} from '@cbh/contracts';
import type { BreakerConfigEntity } from '../entities/breaker-config.entity';
import { PeriodicWork, RealtimeBus, type Repeating } from '../../platform';
import { FleetCatalog } from './fleet-catalog.service';
import { FleetRepository } from './fleet.repository';
import { breakerFigures, isStale, spanOf, type InstanceRow } from './instance-periods';

/** How often the instances' figures are read again: well inside the wall's 2 s update, so a report shows within 3 s. */
export const FIGURES_EVERY_MS = 500;
/**
 * Instances silent this long are listed, as stale, then forgotten (their rows deleted): a service that renames its
 * instances at every deploy leaves no rows behind for longer.
 */
const LISTED_FOR_MS = 10 * 60_000;

interface Computed {
  stats: BreakerStats;
  /** Each instance with its own figures, built at the first call. */
  instances: () => BreakerInstanceView[];
}

/**
 * Until when an instance's row still changes its breaker's figures as time passes (its periods leave the window,
 * it turns stale); after that the figures stay as they are until a report or its forgetting changes them.
 */
const movingUntil = (row: InstanceRow) =>
  row.reportedAt + Math.max(spanOf(row.periodMs), AGENT_STALE_PERIODS * row.periodMs) + 2 * FIGURES_EVERY_MS;

/** One breaker's figures as last merged, and what they were merged from. */
interface Merged extends Computed {
  config: BreakerConfigEntity;
  /** The figures must be merged again at each read until then (ms). */
  movingUntil: number;
}

/**
 * The figures of the agent and scraped breakers, from what every instance last reported to any replica
 * (breaker_instances), so the wall, GET /api/metrics/latest and the breaker page of every replica show the same sums.
 * Every FIGURES_EVERY_MS a replica reads only the rows written since its last read (written_by), keeps each
 * instance's row here, and merges again only the breakers whose rows changed, or whose figures still move with time
 * (periods leaving the window, an instance turning stale): a breaker whose instances all fell silent costs nothing.
 */
@Injectable()
export class FleetFigures implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(FleetFigures.name);
  private computed = new Map<number, Merged>();
  /** Each breaker's instances as last read, stale ones included, by breaker and instance. */
  private readonly rows = new Map<number, Map<string, InstanceRow>>();
  /** The horizon of the last read (see FleetRepository.instancesWrittenSince). */
  private horizon = '0';
  private reading?: Repeating;
  private failures = 0;
  private lastForget = 0;

  constructor(
    private readonly work: PeriodicWork,
    private readonly repository: FleetRepository,
    private readonly catalog: FleetCatalog,
    private readonly bus: RealtimeBus,
  ) {}

  onModuleInit() {
    // refresh() reports its own failures: the first of a run, and the recovery
    this.reading = this.work.every(FIGURES_EVERY_MS, () => this.refresh());
  }

  onModuleDestroy() {
    void this.reading?.stop();
  }

  /** Reads the rows written since the last read, and merges again the figures that changed. */
  private async refresh(now = Date.now()): Promise<void> {
    try {
      await this.catalog.ready();
      const read = await this.repository.instancesWrittenSince(this.horizon, now);
      this.horizon = read.horizon;
      const changed = new Set<number>();
      for (const row of read.rows) {
        let instances = this.rows.get(row.configId);
        if (!instances) this.rows.set(row.configId, (instances = new Map()));
        instances.set(row.instance, row);
        changed.add(row.configId);
      }
      // an instance silent past LISTED_FOR_MS leaves the list here as its row leaves the table
      for (const [configId, instances] of this.rows) {
        for (const [instance, row] of instances) {
          if (now - row.reportedAt <= LISTED_FOR_MS) continue;
          instances.delete(instance);
          changed.add(configId);
        }
        if (instances.size === 0) this.rows.delete(configId);
      }
      const computed = new Map<number, Merged>();
      for (const config of this.catalog.all()) {
        const previous = this.computed.get(config.id);
        if (previous && previous.config === config && !changed.has(config.id) && previous.movingUntil < now) {
          computed.set(config.id, previous);
          continue;
        }
        const instances = [...(this.rows.get(config.id)?.values() ?? [])];
        // a scraped breaker's override is the one its service set (the hub sets none)
        const override = config.source === 'scrape' ? (instances[0]?.override ?? 'none') : config.override;
        const until = Math.max(0, ...instances.map(movingUntil));
        computed.set(config.id, { config, movingUntil: until, ...breakerFigures(config.id, override, instances, now) });
      }
      // rows of a breaker deleted meanwhile went with it
      for (const configId of this.rows.keys()) if (!this.catalog.get(configId)) this.rows.delete(configId);
      this.announceMoves(this.computed, computed, now);
      this.computed = computed;
      if (this.failures > 0) this.logger.log(`instance figures read again after ${this.failures} failed reads`);
      this.failures = 0;
      if (now - this.lastForget > 60_000) {
        this.lastForget = now;
        await this.repository.forgetInstances(now - LISTED_FOR_MS);
      }
    } catch (error) {
      if (this.failures++ === 0) this.logger.warn(`instance figures not read: ${(error as Error).message}`);
    }
  }

  /**
   * A breaker whose merged state moved goes to this replica's sockets as a stateChange at once, rather than with the
   * next metricsUpdate up to METRICS_UPDATE_INTERVAL_MS later: the wall shows a fleet's breaker opening within a read
   * of the report that said so. Every replica reads the same rows and tells its own sockets (no NOTIFY), so the state a
   * socket hears agrees with the metricsUpdate figures of the same replica.
   */
  private announceMoves(before: ReadonlyMap<number, Merged>, after: ReadonlyMap<number, Merged>, now: number) {
    const moves: ServerMessage[] = [];
    for (const [configId, merged] of after) {
      const previous = before.get(configId);
      if (!previous || previous.stats.state === merged.stats.state) continue;
      moves.push({
        type: 'stateChange',
        data: {
          configId,
          from: previous.stats.state,
          to: merged.stats.state,
          reason: 'Merged state of its service instances',
          at: merged.stats.lastTransitionAt ?? new Date(now).toISOString(),
          instanceId: this.bus.instanceId,
          override: merged.stats.override,
        },
      });
    }
    this.bus.publishHere(...moves);
  }

  /** Every agent breaker's live instances at the last read (/metrics writes each instance's series). */
  agentInstances(now = Date.now()): { config: BreakerConfigEntity; rows: InstanceRow[] }[] {
    return this.catalog.all().flatMap((config) => {
      if (config.source !== 'agent') return [];
      const live = [...(this.rows.get(config.id)?.values() ?? [])].filter((row) => !isStale(row, now));
      return live.length > 0 ? [{ config, rows: live }] : [];
    });
  }

  /** Every agent and scraped breaker's merged figures. */
  stats(): BreakerStats[] {
    return [...this.computed.values()].map((entry) => entry.stats);
  }

  /** One breaker's instances and merged figures, or null when it is not an agent's or scraped breaker. */
  of(configId: number): Computed | null {
    return this.computed.get(configId) ?? null;
  }

  /** The breaker's state over its live instances (CLOSED while none reports). */
  stateOf(configId: number): BreakerStateName {
    return this.computed.get(configId)?.stats.state ?? 'CLOSED';
  }

  /** The override its figures carry: the hub's for an agent's breaker, the service's own for a scraped one. */
  overrideOf(configId: number): BreakerOverride | undefined {
    return this.computed.get(configId)?.stats.override;
  }
}
