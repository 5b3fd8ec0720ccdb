import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DataSource, Not } from 'typeorm';
import type { AgentBreakerControl, BreakerSource } from '@cbh/contracts';
import { RealtimeBus } from '../../platform';
import { BreakerConfigEntity } from '../entities/breaker-config.entity';

const serviceKeyOf = (source: BreakerSource, service: string) => `${source}\u0000${service}`;
const NONE: ReadonlyMap<string, BreakerConfigEntity> = new Map();

/**
 * This replica's copy of the agent and scraped breakers' configurations, so that a report every second per
 * instance costs no read of them: loaded at start, kept in step by the configUpdated every change announces (the
 * changed row is read again, with the revisions the agents go by), and read whole again after the fan-out was lost.
 */
@Injectable()
export class FleetCatalog implements OnModuleInit {
  private readonly logger = new Logger(FleetCatalog.name);
  private readonly byId = new Map<number, BreakerConfigEntity>();
  /**
   * Each service's breakers by their names in lower case: a report looks its service up once and each breaker by
   * name, and counts the service's breakers without going through every breaker of the hub.
   */
  private readonly byService = new Map<string, Map<string, BreakerConfigEntity>>();
  /** Breakers deleted: a read of one that was already on its way must not bring it back. */
  private readonly deleted = new Set<number>();
  private loaded?: Promise<void>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly bus: RealtimeBus,
  ) {}

  onModuleInit() {
    this.bus.subscribe(({ message }) => {
      if (message.type !== 'configUpdated') return;
      const { configId, config } = message.data;
      if (!config) this.forget(configId);
      else if (config.source !== 'hub') void this.reread(configId);
    });
    this.bus.onReconnect(
      () => void this.reload().catch((error: Error) => this.logger.warn(`fleet breakers not re-read: ${error.message}`)),
    );
  }

  /** Every agent and scraped breaker, read once before the first use. */
  ready(): Promise<void> {
    this.loaded ??= this.reload().catch((error: unknown) => {
      this.loaded = undefined;
      throw error;
    });
    return this.loaded;
  }

  async reload(): Promise<void> {
    const rows = await this.dataSource.getRepository(BreakerConfigEntity).find({ where: { source: Not('hub') } });
    this.byId.clear();
    this.byService.clear();
    // a full read is the truth: deleted ids are not in it, and a newer version than one read here is not possible
    for (const row of rows) {
      this.deleted.delete(row.id);
      this.keep(row);
    }
  }

  /**
   * A row as it now is (a change this replica made, or one announced by another). Every change raises the row's
   * version, so a read that finishes after a newer one (two changes announced in quick succession) is ignored.
   */
  keep(config: BreakerConfigEntity) {
    if (this.deleted.has(config.id)) return;
    const previous = this.byId.get(config.id);
    if (previous && previous.version > config.version) return;
    if (previous) this.unlist(previous);
    this.byId.set(config.id, config);
    const key = serviceKeyOf(config.source, config.service ?? '');
    let named = this.byService.get(key);
    if (!named) this.byService.set(key, (named = new Map()));
    named.set(config.name.toLowerCase(), config);
  }

  /** Takes a breaker off its service's names, unless another breaker holds the name now (one renamed, another made). */
  private unlist(config: BreakerConfigEntity) {
    const key = serviceKeyOf(config.source, config.service ?? '');
    const named = this.byService.get(key);
    const name = config.name.toLowerCase();
    if (named?.get(name)?.id !== config.id) return;
    named.delete(name);
    if (named.size === 0) this.byService.delete(key);
  }

  forget(configId: number) {
    this.deleted.add(configId);
    const config = this.byId.get(configId);
    if (!config) return;
    this.byId.delete(configId);
    this.unlist(config);
  }

  get(configId: number): BreakerConfigEntity | undefined {
    return this.byId.get(configId);
  }

  find(source: BreakerSource, service: string, name: string): BreakerConfigEntity | undefined {
    return this.ofService(source, service).get(name.toLowerCase());
  }

  /** A service's breakers by their names in lower case, as they are now (a later change may hold them in a new map). */
  ofService(source: BreakerSource, service: string): ReadonlyMap<string, BreakerConfigEntity> {
    return this.byService.get(serviceKeyOf(source, service)) ?? NONE;
  }

  /** How many agent and scraped breakers the hub has. */
  get size(): number {
    return this.byId.size;
  }

  all(): BreakerConfigEntity[] {
    return [...this.byId.values()];
  }

  private async reread(configId: number) {
    try {
      const row = await this.dataSource.getRepository(BreakerConfigEntity).findOneBy({ id: configId });
      if (row) this.keep(row);
      else this.forget(configId);
    } catch (error) {
      this.logger.warn(`fleet breaker ${configId} not re-read: ${(error as Error).message}`);
    }
  }
}

/**
 * What the hub wants an agent's breaker to be (see AgentBreakerControl), under the name the agent reported it by
 * (the hub keys names whatever their letter case); null while an operator never changed it.
 */
export function controlOf(config: BreakerConfigEntity, reportedName: string): AgentBreakerControl | null {
  if (config.revision === 0) return null;
  return {
    name: reportedName,
    revision: config.revision,
    override: config.override,
    settings: config.librarySettings,
    resetRevision: config.resetRevision,
  };
}
