import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { BreakerInstanceView, BreakerOverride, BreakerStateName, BreakerStats } from '@cbh/contracts';
import type { BreakerConfigEntity } from '../breakers/entities/breaker-config.entity';
import { repeating, type Repeating } from '../common/repeating';
import { FleetCatalog } from './fleet-catalog.service';
import { FleetRepository } from './fleet.repository';
import { breakerFigures, isStale, type InstanceRow } from './instance-periods';

/** How often the instances' figures are read again: well inside the wall's 2 s update, so a report shows within 3 s. */
export const FIGURES_EVERY_MS = 500;
/** Instances silent this long are still listed, as stale… */
const LISTED_FOR_MS = 10 * 60_000;
/** …and forgotten after this long. */
const FORGOTTEN_AFTER_MS = 60 * 60_000;

interface Computed {
  stats: BreakerStats;
  instances: BreakerInstanceView[];
}

/**
 * The figures of the agent and scraped breakers, from what every instance last reported to any replica
 * (breaker_instances): read every FIGURES_EVERY_MS and merged here, so the wall, GET /api/metrics/latest and the
 * breaker page of every replica show the same sums.
 */
@Injectable()
export class FleetFigures implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(FleetFigures.name);
  private computed = new Map<number, Computed>();
  /** The live instances of each service at the last read, by service. */
  private instancesByService = new Map<string, Set<string>>();
  /** Every agent breaker's instances at the last read, stale ones included. */
  private agentRows: { config: BreakerConfigEntity; rows: InstanceRow[] }[] = [];
  private reading?: Repeating;
  private failures = 0;
  private lastForget = 0;

  constructor(
    private readonly repository: FleetRepository,
    private readonly catalog: FleetCatalog,
  ) {}

  onModuleInit() {
    // refresh() reports its own failures: the first of a run, and the recovery
    this.reading = repeating(FIGURES_EVERY_MS, () => this.refresh());
  }

  onModuleDestroy() {
    void this.reading?.stop();
  }

  /** Reads every instance again and merges each breaker's figures. */
  private async refresh(now = Date.now()): Promise<void> {
    try {
      await this.catalog.ready();
      const rows = await this.repository.instancesSince(now - LISTED_FOR_MS, now);
      const byConfig = new Map<number, InstanceRow[]>();
      for (const row of rows) {
        const list = byConfig.get(row.configId);
        if (list) list.push(row);
        else byConfig.set(row.configId, [row]);
      }
      const computed = new Map<number, Computed>();
      const instancesByService = new Map<string, Set<string>>();
      const agentRows: { config: BreakerConfigEntity; rows: InstanceRow[] }[] = [];
      for (const config of this.catalog.all()) {
        if (config.service !== null) {
          const known = instancesByService.get(config.service) ?? new Set<string>();
          for (const row of byConfig.get(config.id) ?? []) if (!isStale(row, now)) known.add(row.instance);
          instancesByService.set(config.service, known);
        }
        const instances = byConfig.get(config.id) ?? [];
        if (config.source === 'agent' && instances.length > 0) agentRows.push({ config, rows: instances });
        // a scraped breaker's override is the one its service set (the hub sets none)
        const override = config.source === 'scrape' ? (instances[0]?.override ?? 'none') : config.override;
        computed.set(config.id, breakerFigures(config.id, override, instances, now));
      }
      this.computed = computed;
      this.instancesByService = instancesByService;
      this.agentRows = agentRows;
      if (this.failures > 0) this.logger.log(`instance figures read again after ${this.failures} failed reads`);
      this.failures = 0;
      if (now - this.lastForget > 60_000) {
        this.lastForget = now;
        await this.repository.forgetInstances(now - FORGOTTEN_AFTER_MS);
      }
    } catch (error) {
      if (this.failures++ === 0) this.logger.warn(`instance figures not read: ${(error as Error).message}`);
    }
  }

  /** The live instances of a service at the last read (stale ones fell silent: a new instance may take their place). */
  instancesOf(service: string): ReadonlySet<string> {
    return this.instancesByService.get(service) ?? new Set();
  }

  /** Every agent breaker's live instances at the last read (/metrics writes each instance's series). */
  agentInstances(now = Date.now()): { config: BreakerConfigEntity; rows: InstanceRow[] }[] {
    return this.agentRows.flatMap(({ config, rows }) => {
      const live = rows.filter((row) => !isStale(row, now));
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
