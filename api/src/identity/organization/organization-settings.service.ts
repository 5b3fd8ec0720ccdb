import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { OrganizationView } from '@cbh/contracts';
import { PgSessionStore } from '../auth/session-store';
import { newestRead, PeriodicWork, RealtimeBus, type Repeating, seedOnce } from '../../platform';
import { OrganizationEntity, toOrganizationView } from '../users/entities/organization.entity';

/** The settings are read again at least this often, in case a change's message was lost. */
const REFRESH_EVERY_MS = 60_000;
export const DEFAULT_ORGANIZATION_NAME = 'Circuit Breaker Hub';

/**
 * The organisation's settings as every replica applies them: read from the table, kept briefly, and read again at
 * once when any replica announces a change ('organization-changed') or its LISTEN connection comes back. The idle
 * limit is handed to the session store.
 */
@Injectable()
export class OrganizationSettings implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(OrganizationSettings.name);
  private settings: OrganizationView | null = null;
  private readAt = 0;
  private refreshing?: Repeating;

  constructor(
    private readonly work: PeriodicWork,
    private readonly dataSource: DataSource,
    private readonly bus: RealtimeBus,
    private readonly sessions: PgSessionStore,
  ) {}

  async onModuleInit() {
    // one organisation exists from the first start on; replicas starting together create it once
    await seedOnce(this.dataSource, OrganizationEntity, async (manager) => {
      await manager.insert(OrganizationEntity, { name: DEFAULT_ORGANIZATION_NAME });
    });
    await this.refresh();
    this.bus.whenTold(['organization-changed'], () => this.refresh().catch(() => undefined));
    // a failed read keeps the settings held; the next turn tries again
    this.refreshing = this.work.every(REFRESH_EVERY_MS, () => this.refresh());
  }

  onApplicationShutdown() {
    void this.refreshing?.stop();
  }

  /** The organisation's settings, read from the table when the copy here is older than REFRESH_EVERY_MS. */
  async current(): Promise<OrganizationView> {
    if (!this.settings || Date.now() - this.readAt > REFRESH_EVERY_MS) await this.refresh();
    return this.settings!;
  }

  /** Tells every replica, this one included, to read the settings again. */
  async announceChange(): Promise<void> {
    await this.refresh();
    await this.bus.publishInternal('organization-changed', null).catch((error: Error) => {
      this.logger.warn(`organisation change not announced: ${error.message}; other replicas read it within a minute`);
    });
  }

  private async refresh(): Promise<void> {
    try {
      await this.readNewest();
    } catch (error) {
      // keep applying what was read last; current() tries again
      this.logger.warn(`organisation settings not read: ${(error as Error).message}`);
      if (!this.settings) throw error;
    }
  }

  /** The organisation read; kept unless a read started later was kept first. */
  private readonly readNewest = newestRead(
    async () => (await this.dataSource.getRepository(OrganizationEntity).find({ order: { createdAt: 'ASC' }, take: 1 }))[0],
    (organization) => {
      if (!organization) return;
      this.settings = toOrganizationView(organization);
      this.readAt = Date.now();
      this.sessions.setIdleLimit(organization.idleSessionMinutes === null ? null : organization.idleSessionMinutes * 60_000);
    },
  );
}
