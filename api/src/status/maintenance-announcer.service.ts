import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { MaintenanceEventData } from '@cbh/contracts';
import { APP_CONFIG, ClusterLeases, HubEvents, PeriodicWork, type AppConfig, type Repeating } from '../platform';
import { StatusComponentEntity } from './entities/status-component.entity';
import { StatusPageEntity } from './entities/status-page.entity';
import { PublicStatusService } from './public/public-status.service';

/** How often pages are looked over for maintenance to announce. */
const ROUND_MS = 60_000;

/**
 * Tells a page's subscribers of maintenance: a maintenance window that covers one of the page's components and is
 * active now or starts within 14 days (as the page shows it) raises `maintenance.scheduled` once for that page and
 * that span — the event's dedupe key makes it once across replicas and rounds, a weekly window once a week. No rule
 * names the event: it goes to the page's subscribers (status-audience.ts). Run by the holder of status.components.
 */
@Injectable()
export class MaintenanceAnnouncer implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(MaintenanceAnnouncer.name);
  private rounds?: Repeating;

  constructor(
    private readonly dataSource: DataSource,
    private readonly status: PublicStatusService,
    private readonly leases: ClusterLeases,
    private readonly events: HubEvents,
    private readonly work: PeriodicWork,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit() {
    this.rounds = this.work.every(ROUND_MS, () => this.round());
  }

  onApplicationShutdown() {
    void this.rounds?.stop();
  }

  private async round() {
    if (!this.leases.holds('status.components')) return;
    try {
      await this.announce();
    } catch (error) {
      this.logger.warn(`maintenance not announced: ${(error as Error).message}`);
    }
  }

  /** Raises the event for every page and span not announced yet; answers how many it raised (some may have been raised before). */
  async announce(now = new Date()): Promise<number> {
    // a private page's maintenance is not mailed outside
    const pages = await this.dataSource.getRepository(StatusPageEntity).find({ where: { public: true } });
    let raised = 0;
    for (const page of pages) {
      const components = await this.dataSource.getRepository(StatusComponentEntity).find({ where: { pageId: page.id } });
      for (const maintenance of await this.status.maintenance(components, now)) {
        const data: MaintenanceEventData = {
          page: { id: page.id, slug: page.slug, title: page.title },
          maintenance,
          url: `${this.config.PUBLIC_URL}/status/${page.slug}`,
        };
        await this.events.raise({
          type: 'maintenance.scheduled',
          subject: { kind: 'status_page', id: page.id, name: page.slug },
          data,
          dedupeKey: `maintenance:${page.id}:${maintenance.name}:${maintenance.startsAt}`,
        });
        raised++;
      }
    }
    return raised;
  }
}
