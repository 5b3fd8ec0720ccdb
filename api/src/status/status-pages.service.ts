import { ConflictException, Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import {
  STATUS_PAGE_LIMITS,
  type CreateStatusPage,
  type StatusComponentInput,
  type StatusPageView,
  type UpdateStatusPage,
} from '@cbh/contracts';
import { AuditService, type AppRequest } from '../identity';
import { RealtimeBus } from '../platform';
import { BreakersService } from '../breakers';
import { DomainsService } from '../domains';
import { StatusComponentChangeEntity, StatusComponentEntity } from './entities/status-component.entity';
import { StatusPageEntity } from './entities/status-page.entity';
import { mayPublishDomains } from './status-access';
import { StatusRepository } from './status.repository';
import { pageView } from './status-views';

/** Status pages and their components: made, changed and deleted by circuit_breaker_admin (domains also need domain_management). */
@Injectable()
export class StatusPagesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    private readonly bus: RealtimeBus,
    private readonly breakers: BreakersService,
    private readonly domains: DomainsService,
    private readonly repository: StatusRepository,
  ) {}

  async list(): Promise<StatusPageView[]> {
    const pages = await this.dataSource
      .getRepository(StatusPageEntity)
      .find({ order: { title: 'ASC' }, take: STATUS_PAGE_LIMITS.pagesPerHub });
    const components = await this.componentsOf(pages.map((page) => page.id));
    return pages.map((page) => pageView(page, components.get(page.id) ?? []));
  }

  async one(id: number): Promise<StatusPageView> {
    const page = await this.find(id);
    return pageView(page, (await this.componentsOf([id])).get(id) ?? []);
  }

  async find(id: number, manager: EntityManager = this.dataSource.manager): Promise<StatusPageEntity> {
    const page = await manager.getRepository(StatusPageEntity).findOneBy({ id });
    if (!page) throw new NotFoundException(`No status page with id ${id}`);
    return page;
  }

  async create(req: AppRequest | null, body: CreateStatusPage): Promise<StatusPageView> {
    const view = await this.dataSource.transaction((manager) => this.createIn(manager, req, body));
    await this.changed([view.id]);
    return view;
  }

  async createIn(manager: EntityManager, req: AppRequest | null, body: CreateStatusPage): Promise<StatusPageView> {
    mayPublishDomains(req, body.components);
    // one page at a time: the count and the slug are judged alike by every replica
    await this.repository.lockPageWrites(manager);
    if ((await manager.getRepository(StatusPageEntity).count()) >= STATUS_PAGE_LIMITS.pagesPerHub) {
      throw new ConflictException(`At most ${STATUS_PAGE_LIMITS.pagesPerHub} status pages`);
    }
    await this.refuseTakenSlug(manager, body.slug);
    await this.refuseUnknownMembers(manager, body.components);
    const page = await manager.getRepository(StatusPageEntity).save(
      manager.getRepository(StatusPageEntity).create({
        slug: body.slug,
        title: body.title,
        description: body.description ?? null,
        public: body.public,
        accentColor: body.accentColor ?? null,
        createdBy: req?.user?.id ?? null,
      }),
    );
    const components = await this.replaceComponents(manager, page.id, body.components);
    const view = pageView(page, components);
    await this.audit.record(
      req,
      { action: 'status-page.create', targetType: 'status_page', targetId: String(page.id), after: view },
      manager,
    );
    return view;
  }

  async update(req: AppRequest | null, id: number, body: UpdateStatusPage): Promise<StatusPageView> {
    const view = await this.dataSource.transaction((manager) => this.updateIn(manager, req, id, body));
    await this.changed([id], body.public !== undefined || body.slug !== undefined);
    return view;
  }

  async updateIn(manager: EntityManager, req: AppRequest | null, id: number, body: UpdateStatusPage): Promise<StatusPageView> {
    await this.repository.lockPageWrites(manager);
    const page = await this.find(id, manager);
    const before = pageView(page, (await this.componentsOf([id], manager)).get(id) ?? []);
    // taking domains off a page also touches what only domain_management may read
    mayPublishDomains(req, [...before.components, ...(body.components ?? [])]);
    if (body.slug !== undefined && body.slug !== page.slug) await this.refuseTakenSlug(manager, body.slug);
    if (body.components) await this.refuseUnknownMembers(manager, body.components);
    Object.assign(page, {
      ...(body.slug !== undefined && { slug: body.slug }),
      ...(body.title !== undefined && { title: body.title }),
      ...(body.description !== undefined && { description: body.description }),
      ...(body.public !== undefined && { public: body.public }),
      ...(body.accentColor !== undefined && { accentColor: body.accentColor }),
      updatedAt: new Date(),
    });
    await manager.getRepository(StatusPageEntity).save(page);
    const components = body.components
      ? await this.replaceComponents(manager, id, body.components)
      : ((await this.componentsOf([id], manager)).get(id) ?? []);
    const view = pageView(page, components);
    await this.audit.record(
      req,
      { action: 'status-page.update', targetType: 'status_page', targetId: String(id), before, after: view },
      manager,
    );
    return view;
  }

  async remove(req: AppRequest | null, id: number): Promise<void> {
    await this.dataSource.transaction((manager) => this.removeIn(manager, req, id));
    await this.changed([id], true);
  }

  async removeIn(manager: EntityManager, req: AppRequest | null, id: number): Promise<void> {
    const page = await this.find(id, manager);
    const before = pageView(page, (await this.componentsOf([id], manager)).get(id) ?? []);
    mayPublishDomains(req, before.components);
    await manager.getRepository(StatusPageEntity).delete({ id });
    await this.audit.record(req, { action: 'status-page.delete', targetType: 'status_page', targetId: String(id), before }, manager);
  }

  /** Every page with its components, for the configuration document. */
  async allIn(manager: EntityManager): Promise<StatusPageView[]> {
    const pages = await manager.getRepository(StatusPageEntity).find({ order: { slug: 'ASC' } });
    const components = await this.componentsOf(
      pages.map((page) => page.id),
      manager,
    );
    return pages.map((page) => pageView(page, components.get(page.id) ?? []));
  }

  /** Every page's components in their order, by page. */
  async componentsOf(pageIds: readonly number[], manager: EntityManager = this.dataSource.manager) {
    const byPage = new Map<number, StatusComponentEntity[]>();
    if (pageIds.length === 0) return byPage;
    const rows = await manager
      .getRepository(StatusComponentEntity)
      .find({ where: { pageId: In([...pageIds]) }, order: { position: 'ASC' } });
    for (const row of rows) byPage.set(row.pageId, [...(byPage.get(row.pageId) ?? []), row]);
    return byPage;
  }

  /** The components that include a breaker, with their pages (to open an incident from the breaker's page). */
  async componentsOfBreaker(breakerId: number) {
    const rows = await this.dataSource
      .getRepository(StatusComponentEntity)
      .createQueryBuilder('c')
      .innerJoin(StatusPageEntity, 'p', 'p.id = c.page_id')
      .select(['c.id AS "componentId"', 'c.name AS "componentName"', 'p.id AS "pageId"', 'p.title AS "pageTitle"'])
      .where(':breaker = ANY(c.breaker_ids)', { breaker: breakerId })
      .orderBy('p.title')
      .addOrderBy('c.position')
      .limit(STATUS_PAGE_LIMITS.pagesPerHub * STATUS_PAGE_LIMITS.componentsPerPage)
      .getRawMany<{ componentId: number; componentName: string; pageId: number; pageTitle: string }>();
    return rows.map(({ pageId, pageTitle, componentId, componentName }) => ({ pageId, pageTitle, componentId, componentName }));
  }

  /**
   * Replaces a page's components by the list: a component sent with its id, or else of the same name, keeps its id,
   * state, history and incidents (so a reorder or a rename loses nothing); a new one starts operational with its
   * first change row.
   */
  private async replaceComponents(manager: EntityManager, pageId: number, inputs: readonly StatusComponentInput[]) {
    const repository = manager.getRepository(StatusComponentEntity);
    const existing = await repository.find({ where: { pageId } });
    const byId = new Map(existing.map((row) => [row.id, row]));
    const byName = new Map(existing.map((row) => [row.name.toLowerCase(), row]));
    const taken = new Set<number>();
    const kept: StatusComponentEntity[] = [];
    for (const [position, input] of inputs.entries()) {
      // by its id (a rename keeps history and incidents), else by its name, else a new one
      const found = (input.id !== undefined ? byId.get(input.id) : undefined) ?? byName.get(input.name.toLowerCase());
      const row = found && !taken.has(found.id) ? found : repository.create({ pageId, state: 'operational' });
      if (row.id !== undefined) taken.add(row.id);
      Object.assign(row, {
        position,
        name: input.name,
        description: input.description ?? null,
        group: input.group ?? null,
        breakerIds: input.breakers,
        domainIds: input.domains,
      });
      const isNew = row.id === undefined;
      const saved = await repository.save(row);
      if (isNew) await manager.getRepository(StatusComponentChangeEntity).insert({ componentId: saved.id, state: saved.state });
      kept.push(saved);
    }
    const gone = existing.filter((row) => !taken.has(row.id)).map((row) => row.id);
    if (gone.length > 0) await repository.delete({ id: In(gone) });
    return repository.find({ where: { pageId }, order: { position: 'ASC' } });
  }

  private async refuseTakenSlug(manager: EntityManager, slug: string) {
    if (await manager.getRepository(StatusPageEntity).existsBy({ slug })) {
      throw new ConflictException(`A status page at /status/${slug} exists already: choose another slug`);
    }
  }

  /** Every breaker and domain a component names must exist (ids only, checked here: the body's schema bounds them). */
  private async refuseUnknownMembers(manager: EntityManager, components: readonly StatusComponentInput[]) {
    const breakerIds = [...new Set(components.flatMap((component) => component.breakers))];
    const domainIds = [...new Set(components.flatMap((component) => component.domains))];
    // read in the transaction: an import may have made them a moment ago
    const knownBreakers = new Set((await this.breakers.refsIn(manager)).map((breaker) => breaker.id));
    const knownDomains = new Set((await this.domains.withCertificatesIn(manager)).domains.map((domain) => domain.id));
    const missing = [
      ...breakerIds.filter((id) => !knownBreakers.has(id)).map((id) => `breaker ${id}`),
      ...domainIds.filter((id) => !knownDomains.has(id)).map((id) => `domain ${id}`),
    ];
    if (missing.length > 0) throw new UnprocessableEntityException(`No such ${missing.join(', ')}`);
  }

  /**
   * Every replica renders these pages anew (and the judge looks again at once); when who may read them changed (made
   * private, renamed, deleted), every replica forgets its renderings, so none is served stale to someone it no longer may.
   */
  async changed(pageIds: readonly number[], access = false) {
    await this.bus.publishInternal('status-changed', { pages: pageIds, access }).catch(() => undefined);
  }
}
