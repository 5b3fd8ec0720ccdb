import { ConflictException, Inject, Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { DataSource, In, LessThan, type EntityManager } from 'typeorm';
import {
  STATUS_PAGE_LIMITS,
  type CreateIncident,
  type IncidentEventData,
  type IncidentEventType,
  type IncidentListQuery,
  type IncidentUpdateInput,
  type IncidentView,
} from '@cbh/contracts';
import { AuditService, type AppRequest } from '../identity';
import { APP_CONFIG, HubEvents, type AppConfig } from '../platform';
import { IncidentEntity, IncidentUpdateEntity } from './entities/incident.entity';
import { StatusComponentEntity } from './entities/status-component.entity';
import { StatusPageEntity } from './entities/status-page.entity';
import { StatusPagesService } from './status-pages.service';
import { incidentView } from './status-views';

/** Who wrote an update: the person's e-mail, or the token's name. */
const authorOf = (req: AppRequest | null) => req?.user?.email ?? 'the hub';

/**
 * Incidents on a page, for circuit_breaker_operate: opened with the states they set on components by hand (which win
 * until the incident is resolved), then updated through investigating, identified, monitoring and resolved. Each
 * step raises incident.created, incident.updated or incident.resolved for notification rules and the page's
 * subscribers (the outbox delivers each once across replicas).
 */
@Injectable()
export class IncidentsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pages: StatusPagesService,
    private readonly audit: AuditService,
    private readonly events: HubEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(pageId: number, query: IncidentListQuery): Promise<IncidentView[]> {
    await this.pages.find(pageId);
    const where = {
      pageId,
      ...(query.before !== undefined && { id: LessThan(query.before) }),
    };
    const builder = this.dataSource
      .getRepository(IncidentEntity)
      .createQueryBuilder('i')
      .where(where)
      .orderBy('i.id', 'DESC')
      .take(query.limit);
    if (query.state === 'open') builder.andWhere('i.resolved_at IS NULL');
    if (query.state === 'resolved') builder.andWhere('i.resolved_at IS NOT NULL');
    return this.views(pageId, await builder.getMany());
  }

  async create(req: AppRequest | null, pageId: number, body: CreateIncident): Promise<IncidentView> {
    const view = await this.dataSource.transaction(async (manager) => {
      const page = await this.pages.find(pageId, manager);
      const known = new Set(
        (await manager.getRepository(StatusComponentEntity).find({ where: { pageId }, select: { id: true } })).map((c) => c.id),
      );
      const unknown = body.components.filter((entry) => !known.has(entry.id)).map((entry) => entry.id);
      if (unknown.length > 0) throw new UnprocessableEntityException(`components: no component ${unknown.join(', ')} on this page`);
      const incident = await manager.getRepository(IncidentEntity).save(
        manager.getRepository(IncidentEntity).create({
          pageId,
          title: body.title,
          impact: body.impact,
          status: 'investigating',
          components: body.components,
        }),
      );
      await manager
        .getRepository(IncidentUpdateEntity)
        .insert({ incidentId: incident.id, status: 'investigating', message: body.message, author: authorOf(req) });
      const view = (await this.views(pageId, [incident], manager))[0]!;
      await this.audit.record(
        req,
        { action: 'incident.create', targetType: 'status_incident', targetId: String(incident.id), after: view },
        manager,
      );
      await this.raise(manager, 'incident.created', page, view);
      return view;
    });
    await this.pages.changed([pageId]);
    return view;
  }

  async addUpdate(req: AppRequest | null, pageId: number, incidentId: number, body: IncidentUpdateInput): Promise<IncidentView> {
    const view = await this.dataSource.transaction(async (manager) => {
      const page = await this.pages.find(pageId, manager);
      // one writer per incident at a time: the update count and the resolved check hold
      const incident = await manager
        .getRepository(IncidentEntity)
        .createQueryBuilder('i')
        .setLock('pessimistic_write')
        .where({ id: incidentId, pageId })
        .getOne();
      if (!incident) throw new NotFoundException(`No incident ${incidentId} on status page ${pageId}`);
      if (incident.resolvedAt) throw new ConflictException('This incident is resolved: open a new one');
      const count = await manager.getRepository(IncidentUpdateEntity).countBy({ incidentId });
      if (count >= STATUS_PAGE_LIMITS.updatesPerIncident) {
        throw new ConflictException(`At most ${STATUS_PAGE_LIMITS.updatesPerIncident} updates on an incident: resolve it and open another`);
      }
      await manager
        .getRepository(IncidentUpdateEntity)
        .insert({ incidentId, status: body.status, message: body.message, author: authorOf(req) });
      incident.status = body.status;
      if (body.status === 'resolved') incident.resolvedAt = new Date();
      await manager.getRepository(IncidentEntity).save(incident);
      const view = (await this.views(pageId, [incident], manager))[0]!;
      await this.audit.record(
        req,
        { action: 'incident.update', targetType: 'status_incident', targetId: String(incidentId), after: view },
        manager,
      );
      await this.raise(manager, body.status === 'resolved' ? 'incident.resolved' : 'incident.updated', page, view);
      return view;
    });
    await this.pages.changed([pageId]);
    return view;
  }

  /** Incidents with their updates (oldest first) and their components' names. */
  async views(pageId: number, incidents: readonly IncidentEntity[], manager: EntityManager = this.dataSource.manager, withAuthor = true) {
    if (incidents.length === 0) return [];
    const updates = await manager
      .getRepository(IncidentUpdateEntity)
      .find({ where: { incidentId: In(incidents.map((incident) => incident.id)) }, order: { id: 'ASC' } });
    const components = await manager.getRepository(StatusComponentEntity).find({ where: { pageId }, select: { id: true, name: true } });
    const names = new Map(components.map((component) => [component.id, component.name]));
    return incidents.map((incident) =>
      incidentView(
        incident,
        updates.filter((update) => update.incidentId === incident.id),
        names,
        withAuthor,
      ),
    );
  }

  /** The event, in the incident's transaction: raised exactly when the incident's step is stored. */
  private async raise(manager: EntityManager, type: IncidentEventType, page: StatusPageEntity, view: IncidentView) {
    const last = view.updates.at(-1)!;
    const data: IncidentEventData = {
      page: { id: page.id, slug: page.slug, title: page.title },
      incident: {
        id: view.id,
        title: view.title,
        impact: view.impact,
        status: view.status,
        components: view.components,
        message: last.message,
      },
      url: `${this.config.PUBLIC_URL}/status/${page.slug}#incident-${view.id}`,
    };
    await this.events.raiseIn(manager, {
      type,
      subject: { kind: 'status_page', id: page.id, name: page.slug },
      data,
      dedupeKey: `incident-update:${last.id}`,
    });
  }
}
