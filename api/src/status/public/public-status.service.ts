import { Inject, Injectable } from '@nestjs/common';
import { DataSource, IsNull, MoreThanOrEqual, Not } from 'typeorm';
import {
  STATUS_PAGE_LIMITS,
  worstState,
  type PublicComponent,
  type PublicIncident,
  type PublicIncidentHistory,
  type PublicMaintenance,
  type PublicStatusSummary,
} from '@cbh/contracts';
import { APP_CONFIG, type AppConfig } from '../../platform';
import { BreakersService } from '../../breakers';
import { DomainsService } from '../../domains';
import { NotificationSettingsService, nextActiveSpan, windowCoversSubject, type CoveredSubject } from '../../notifications';
import { IncidentEntity } from '../entities/incident.entity';
import { StatusComponentEntity } from '../entities/status-component.entity';
import { StatusPageEntity } from '../entities/status-page.entity';
import { IncidentsService } from '../incidents.service';
import { StatusRepository } from '../status.repository';
import { barsStart, dailyBars, uptimeOver } from '../uptime';
import { StatusRenderings } from './status-renderings';

/** Maintenance shown ahead of time. */
const UPCOMING_DAYS = 14;

/**
 * What a status page shows, built from the database: only what the operator published — the page's and components'
 * names and texts, states, incidents and maintenance. Breaker and domain names, ids and figures never leave here
 * (maintenance windows are matched to components by them, and shown under the components' names).
 */
@Injectable()
export class PublicStatusService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly incidents: IncidentsService,
    private readonly repository: StatusRepository,
    private readonly breakers: BreakersService,
    private readonly domains: DomainsService,
    private readonly notifications: NotificationSettingsService,
    private readonly renderings: StatusRenderings,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The page's summary as the JSON and the badges serve it, from this replica's renderings. */
  async rendered(pageSlug: string) {
    return this.renderings.get<{ json: string; public: boolean; summary: PublicStatusSummary }>(`json:${pageSlug}`, async () => {
      const page = await this.pageBySlug(pageSlug);
      if (!page) return null;
      const summary = await this.summary(page);
      const json = JSON.stringify(summary);
      return { value: { json, public: page.public, summary }, pageId: page.id, bytes: json };
    });
  }

  pageBySlug(slug: string): Promise<StatusPageEntity | null> {
    return this.dataSource.getRepository(StatusPageEntity).findOneBy({ slug });
  }

  async summary(page: StatusPageEntity, now = new Date()): Promise<PublicStatusSummary> {
    const components = await this.dataSource
      .getRepository(StatusComponentEntity)
      .find({ where: { pageId: page.id }, order: { position: 'ASC' } });
    const since = barsStart(now);
    const changes = await this.repository.changesSince(
      components.map((component) => component.id),
      since,
    );
    const recent = await this.dataSource.getRepository(IncidentEntity).find({
      where: [
        { pageId: page.id, resolvedAt: IsNull() },
        { pageId: page.id, resolvedAt: MoreThanOrEqual(since) },
      ],
      order: { id: 'DESC' },
      take: 500,
    });
    const dayIncidents = recent.map((incident) => ({ ...incident, componentIds: incident.components.map((entry) => entry.id) }));
    const publicComponents: PublicComponent[] = components.map((component) => {
      const days = dailyBars({
        createdAt: component.createdAt,
        changes: changes.filter((change) => change.componentId === component.id),
        incidents: dayIncidents,
        componentId: component.id,
        now,
      });
      return {
        id: component.id,
        name: component.name,
        description: component.description,
        group: component.group,
        state: component.state,
        days,
        uptime30d: uptimeOver(days, 30),
      };
    });
    const open = recent.filter((incident) => incident.resolvedAt === null);
    return {
      page: {
        slug: page.slug,
        title: page.title,
        description: page.description,
        accentColor: page.accentColor,
        url: `${this.config.PUBLIC_URL}/status/${page.slug}`,
      },
      state: worstState(components.map((component) => component.state)),
      updatedAt: now.toISOString(),
      components: publicComponents,
      incidents: (await this.incidents.views(page.id, open, undefined, false)).map(publicIncident),
      maintenance: await this.maintenance(components, now),
    };
  }

  /** A page of the resolved incidents, newest first (1-based). */
  async history(page: StatusPageEntity, number: number): Promise<PublicIncidentHistory> {
    const per = STATUS_PAGE_LIMITS.incidentsPerPage;
    const [rows, total] = await this.dataSource.getRepository(IncidentEntity).findAndCount({
      where: { pageId: page.id, resolvedAt: Not(IsNull()) },
      order: { id: 'DESC' },
      skip: (number - 1) * per,
      take: per,
    });
    return {
      incidents: (await this.incidents.views(page.id, rows, undefined, false)).map(publicIncident),
      page: number,
      pages: Math.max(1, Math.ceil(total / per)),
    };
  }

  /** The incidents a feed lists: the newest 50, open and resolved. */
  async feedIncidents(page: StatusPageEntity): Promise<PublicIncident[]> {
    const rows = await this.dataSource.getRepository(IncidentEntity).find({ where: { pageId: page.id }, order: { id: 'DESC' }, take: 50 });
    return (await this.incidents.views(page.id, rows, undefined, false)).map(publicIncident);
  }

  /** Windows active now or starting within UPCOMING_DAYS that cover a member of one of the components, by the components' names. */
  async maintenance(components: readonly StatusComponentEntity[], now: Date): Promise<PublicMaintenance[]> {
    const windows = await this.notifications.listWindows(now);
    if (windows.length === 0 || components.length === 0) return [];
    const breakerRefs = new Map(
      (await this.breakers.refsOf([...new Set(components.flatMap((c) => c.breakerIds))])).map((ref) => [ref.id, ref]),
    );
    const domainNames = new Map(
      (await this.domains.health([...new Set(components.flatMap((c) => c.domainIds))])).map((domain) => [domain.id, domain.name]),
    );
    const subjectsOf = (component: StatusComponentEntity): CoveredSubject[] => [
      ...component.breakerIds.flatMap((id) => (breakerRefs.has(id) ? [{ kind: 'breaker' as const, ...breakerRefs.get(id)! }] : [])),
      ...component.domainIds.flatMap((id) => (domainNames.has(id) ? [{ kind: 'domain' as const, name: domainNames.get(id)! }] : [])),
    ];
    const horizon = now.getTime() + UPCOMING_DAYS * 86_400_000;
    const shown: PublicMaintenance[] = [];
    for (const window of windows) {
      const span = nextActiveSpan(
        { startsAt: new Date(window.startsAt), endsAt: new Date(window.endsAt), repeatWeekly: window.repeatWeekly },
        now,
      );
      if (!span || span.startsAt.getTime() > horizon) continue;
      const covered = components.filter((component) => subjectsOf(component).some((subject) => windowCoversSubject(window, subject)));
      if (covered.length === 0) continue;
      shown.push({
        name: window.name,
        startsAt: span.startsAt.toISOString(),
        endsAt: span.endsAt.toISOString(),
        active: span.startsAt <= now,
        components: covered.map((component) => component.name),
      });
    }
    return shown.sort((a, b) => a.startsAt.localeCompare(b.startsAt));
  }
}

function publicIncident({ pageId: _pageId, updates, ...incident }: Awaited<ReturnType<IncidentsService['views']>>[number]): PublicIncident {
  return { ...incident, updates: updates.map(({ author: _author, ...update }) => update) };
}
