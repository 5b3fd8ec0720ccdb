import { ConflictException, ForbiddenException, Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import {
  budgetRemainingOf,
  burnRateOf,
  BURN_RATE_WINDOWS,
  hasPermission,
  sliOf,
  SLO_LIMITS,
  SLO_WINDOW_DAYS,
  sloStatusOf,
  type BurnRateWindow,
  type CreateSlo,
  type SloDetailView,
  type SloIndicator,
  type SloListQuery,
  type SloView,
} from '@cbh/contracts';
import { withUniqueName } from '../platform';
import { AuditService, type AppRequest } from '../identity';
import { SloEntity } from './entities/slo.entity';
import { SlosRepository, type SloWindows } from './slos.repository';

const DAY_MS = 86_400_000;

/** An SLO as the API shows it, judged from its windows' counts. */
export function sloView(row: SloEntity, windows: SloWindows | undefined): SloView {
  const counts = windows?.window ?? { good: 0, total: 0 };
  const burnRates = Object.fromEntries(
    BURN_RATE_WINDOWS.map((window) => [window, windows ? burnRateOf(windows.burn[window], row.target) : null]),
  ) as Record<BurnRateWindow, number | null>;
  const errorBudgetRemaining = budgetRemainingOf(counts, row.target);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    target: row.target,
    window: row.window,
    indicator: row.indicator,
    service: row.service,
    sli: sliOf(counts),
    errorBudgetRemaining,
    burnRates,
    status: sloStatusOf(errorBudgetRemaining, burnRates),
    good: counts.good,
    total: counts.total,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Domain SLOs read what only domain_management holders may read: seeing, making or changing one needs it too. */
export const mayUseSlo = (req: AppRequest | null, indicator: SloIndicator) =>
  !req || indicator.kind !== 'domain-uptime' || hasPermission(req.user, 'domain_management');

/** Service level objectives: kept by circuit_breaker_admin (domain SLOs also need domain_management), every change audited. */
@Injectable()
export class SlosService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly figures: SlosRepository,
    private readonly audit: AuditService,
  ) {}

  async list(req: AppRequest | null, query: SloListQuery = {}): Promise<SloView[]> {
    let rows = await this.dataSource.getRepository(SloEntity).find({ order: { name: 'ASC' }, take: SLO_LIMITS.slos });
    rows = rows.filter((row) => mayUseSlo(req, row.indicator));
    if (query.service) rows = rows.filter((row) => row.service === query.service);
    if (query.breaker !== undefined) rows = await this.fedBy(rows, query.breaker);
    if (rows.length === 0) return [];
    const windows = new Map(
      (
        await this.figures.windows(
          new Date(),
          rows.map((row) => row.id),
        )
      ).map((entry) => [entry.sloId, entry]),
    );
    return rows.map((row) => sloView(row, windows.get(row.id)));
  }

  /** The SLOs a breaker feeds: those naming it, and those naming its service. */
  private async fedBy(rows: SloEntity[], breakerId: number): Promise<SloEntity[]> {
    const service = await this.figures.serviceOf(breakerId);
    if (service === undefined) return [];
    return rows.filter((row) => {
      const indicator = row.indicator;
      if (indicator.kind !== 'breaker-calls' && indicator.kind !== 'breaker-latency') return false;
      return indicator.breakers ? indicator.breakers.includes(breakerId) : indicator.service === service;
    });
  }

  async one(req: AppRequest | null, id: number): Promise<SloDetailView> {
    const row = await this.find(req, id);
    const now = new Date();
    const [windows] = await this.figures.windows(now, [id]);
    const view = sloView(row, windows);
    // the window's whole days, today's included (as the SLI counts them)
    const from = new Date((Math.floor(now.getTime() / DAY_MS) - SLO_WINDOW_DAYS[row.window] + 1) * DAY_MS);
    const days = await this.figures.days(id, from, now);
    // the budget is the window's allowance of bad events: each day's point is what the bad events until its end left of it
    const allowance = view.total * (1 - row.target / 100);
    let bad = 0;
    const burnDown = days.map((day) => {
      bad += day.total - day.good;
      const end = new Date(Math.min(day.day.getTime() + DAY_MS, now.getTime()));
      return { at: end.toISOString(), errorBudgetRemaining: allowance > 0 ? 1 - bad / allowance : 1 };
    });
    const topContributors = await this.figures.contributors(row, from);
    return { ...view, burnDown, topContributors };
  }

  async find(req: AppRequest | null, id: number, manager: EntityManager = this.dataSource.manager): Promise<SloEntity> {
    const row = await manager.getRepository(SloEntity).findOneBy({ id });
    // a domain SLO is as unknown to those who may not read domains as one that does not exist
    if (!row || !mayUseSlo(req, row.indicator)) throw new NotFoundException(`No SLO with id ${id}`);
    return row;
  }

  async create(req: AppRequest | null, body: CreateSlo): Promise<SloView> {
    const row = await this.dataSource.transaction((manager) => this.createIn(manager, req, body));
    return sloView(row, undefined);
  }

  async createIn(manager: EntityManager, req: AppRequest | null, body: CreateSlo): Promise<SloEntity> {
    this.refuseForbidden(req, body.indicator);
    const repository = manager.getRepository(SloEntity);
    if ((await repository.count()) >= SLO_LIMITS.slos) throw new ConflictException(`At most ${SLO_LIMITS.slos} SLOs`);
    await this.refuseUnknownMembers(manager, body.indicator);
    const saved = await withUniqueName('SLO', body.name, () =>
      repository.save(repository.create({ ...this.columns(body), createdBy: req?.user?.id ?? null })),
    );
    await this.audit.record(req, { action: 'slo.create', targetType: 'slo', targetId: String(saved.id), after: body }, manager);
    return saved;
  }

  async update(req: AppRequest | null, id: number, body: Partial<CreateSlo>): Promise<SloView> {
    const row = await this.dataSource.transaction((manager) => this.updateIn(manager, req, id, body));
    const [windows] = await this.figures.windows(new Date(), [id]);
    return sloView(row, windows);
  }

  async updateIn(manager: EntityManager, req: AppRequest | null, id: number, body: Partial<CreateSlo>): Promise<SloEntity> {
    const row = await this.find(req, id, manager);
    const before = { name: row.name, description: row.description, target: row.target, window: row.window, indicator: row.indicator };
    if (body.indicator) {
      this.refuseForbidden(req, body.indicator);
      await this.refuseUnknownMembers(manager, body.indicator);
    }
    const changedIndicator = body.indicator && JSON.stringify(body.indicator) !== JSON.stringify(row.indicator);
    Object.assign(row, this.columns({ ...before, ...body }), { updatedAt: new Date() });
    const saved = await withUniqueName('SLO', body.name ?? null, () => manager.getRepository(SloEntity).save(row));
    // counts of another indicator would judge this one by what it no longer counts
    if (changedIndicator) {
      await this.figures.forgetCounts(manager, id);
      row.backfilled = false;
      await manager.getRepository(SloEntity).save(row);
    }
    await this.audit.record(req, { action: 'slo.update', targetType: 'slo', targetId: String(id), before, after: body }, manager);
    return saved;
  }

  /** A service's SLOs the caller may read (see SlosRepository.ofService), by name whatever the database's collation. */
  async ofService(req: AppRequest | null, service: string): Promise<SloEntity[]> {
    const ids = await this.figures.ofService(service);
    if (ids.length === 0) return [];
    const key = (row: SloEntity) => row.name.toLowerCase();
    const rows = await this.dataSource.getRepository(SloEntity).find({ where: { id: In(ids) }, take: SLO_LIMITS.slos });
    return rows.filter((row) => mayUseSlo(req, row.indicator)).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }

  /** Every SLO the caller may read, by name, read in the caller's transaction: what a configuration document holds. */
  async allIn(manager: EntityManager, req: AppRequest | null): Promise<SloEntity[]> {
    const rows = await manager.getRepository(SloEntity).find({ order: { name: 'ASC' }, take: SLO_LIMITS.slos });
    return rows.filter((row) => mayUseSlo(req, row.indicator));
  }

  async remove(req: AppRequest | null, id: number): Promise<void> {
    await this.dataSource.transaction((manager) => this.removeIn(manager, req, id));
  }

  async removeIn(manager: EntityManager, req: AppRequest | null, id: number): Promise<void> {
    const row = await this.find(req, id, manager);
    await manager.getRepository(SloEntity).delete({ id });
    await this.audit.record(req, { action: 'slo.delete', targetType: 'slo', targetId: String(id), before: { name: row.name } }, manager);
  }

  private columns(body: CreateSlo) {
    const indicator = body.indicator;
    return {
      name: body.name,
      description: body.description ?? null,
      target: body.target,
      window: body.window,
      indicator,
      kind: indicator.kind,
      service: 'service' in indicator && indicator.service ? indicator.service : null,
    };
  }

  private refuseForbidden(req: AppRequest | null, indicator: SloIndicator) {
    if (!mayUseSlo(req, indicator)) throw new ForbiddenException('Requires the domain_management permission for an SLO over domains');
  }

  /** Every breaker and domain an indicator names must exist (a service may have no breaker yet: its agents come later). */
  private async refuseUnknownMembers(manager: EntityManager, indicator: SloIndicator) {
    const [what, ids]: ['breaker' | 'domain', number[]] =
      indicator.kind === 'domain-uptime'
        ? ['domain', indicator.domains]
        : ['breaker', 'breakers' in indicator ? (indicator.breakers ?? []) : []];
    if (ids.length === 0) return;
    const found = await this.figures.existing(manager, what, ids);
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw new UnprocessableEntityException(`indicator.${what}s: no ${what} with id ${missing.join(', ')}`);
  }
}
