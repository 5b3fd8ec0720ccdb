import { ConflictException, Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  DRILL_LIMITS,
  type CreateDrill,
  type DrillBreakerRef,
  type DrillDefinition,
  type DrillDefinitionBreakerRef,
  type DrillDefinitionView,
  type DrillView,
} from '@cbh/contracts';
import { type AppRequest, AuditService } from '../identity';
import { withUniqueName } from '../platform';
import { DrillBreakerNames, definitionInOrder, namedBreakers, refuseUnknownBreakers } from './drill-definitions.breakers';
import { DrillDefinitionsRepository } from './drill-definitions.repository';
import { DrillsService } from './drills.service';
import { DrillDefinitionEntity } from './entities/drill-definition.entity';

const byName = (a: { name: string }, b: { name: string }) => {
  const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
};

export function definitionView(row: DrillDefinitionEntity): DrillDefinitionView {
  return { id: row.id, name: row.name, ...definitionInOrder(row), updatedAt: row.updatedAt.toISOString() };
}

/**
 * Saved drills: kept by the configuration document (created, changed and deleted only by an import, inside its
 * transaction, audited item by item), listed and run by circuit_breaker_admin. Running one names its breakers to
 * DrillsService.start as ids or { service, name }, so a saved drill passes the same checks as one sent by hand.
 */
@Injectable()
export class DrillDefinitionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: DrillDefinitionsRepository,
    private readonly drills: DrillsService,
    private readonly audit: AuditService,
  ) {}

  /** Every saved drill by name, whatever the database's collation. */
  async list(): Promise<DrillDefinitionView[]> {
    return this.allIn(this.dataSource.manager);
  }

  async allIn(manager: EntityManager): Promise<DrillDefinitionView[]> {
    const rows = await manager.getRepository(DrillDefinitionEntity).find({ order: { id: 'ASC' }, take: DRILL_LIMITS.definitionsListed });
    return rows.sort(byName).map(definitionView);
  }

  /**
   * Starts a saved drill: a hub breaker's name resolved to its id (a 422 naming it when it is gone), a service's
   * { service, name } handed on as it is; the rest — a recent sign-in, the limits, breakers that exist and take
   * faults — is DrillsService.start's.
   */
  async run(req: AppRequest, id: number): Promise<DrillView> {
    const definition = await this.dataSource.getRepository(DrillDefinitionEntity).findOneBy({ id });
    if (!definition) throw new NotFoundException(`No saved drill with id ${id}`);
    const names = new DrillBreakerNames(await this.repository.named(this.dataSource.manager, refsOf(definition)));
    const resolved = (ref: DrillDefinitionBreakerRef, place: string): DrillBreakerRef => {
      if (typeof ref !== 'string') return ref;
      const breaker = names.find(ref);
      if (breaker === undefined || breaker.id === null) throw new UnprocessableEntityException(`${place}: no hub breaker named ${ref}`);
      return breaker.id;
    };
    const body: CreateDrill = {
      name: definition.name,
      steps: definition.steps.map((step, index) => ({ ...step, breaker: resolved(step.breaker, `steps[${index}].breaker`) })),
      expectations: definition.expectations.map((expectation, index) => ({
        ...expectation,
        breaker: resolved(expectation.breaker, `expectations[${index}].breaker`),
      })),
    };
    return this.drills.start(req, body);
  }

  /** Every breaker the drill names must be there and take faults (a 422 naming its place); read in the transaction. */
  private async refuseUnknownIn(manager: EntityManager, definition: Pick<DrillDefinition, 'steps' | 'expectations'>) {
    refuseUnknownBreakers(definition, new DrillBreakerNames(await this.repository.named(manager, refsOf(definition))));
  }

  async createIn(manager: EntityManager, req: AppRequest | null, body: DrillDefinition): Promise<DrillDefinitionView> {
    const repository = manager.getRepository(DrillDefinitionEntity);
    if ((await repository.count()) >= DRILL_LIMITS.definitions) {
      throw new ConflictException(`At most ${DRILL_LIMITS.definitions} saved drills`);
    }
    await this.refuseUnknownIn(manager, body);
    const columns = { name: body.name, ...definitionInOrder(body) };
    const saved = await withUniqueName('saved drill', body.name, () =>
      repository.save(repository.create({ ...columns, createdBy: req?.user?.id ?? null })),
    );
    await this.audit.record(
      req,
      { action: 'drill-definition.create', targetType: 'drill_definition', targetId: String(saved.id), after: columns },
      manager,
    );
    return definitionView(saved);
  }

  /** Changes only what is given; the breakers are checked again only when the steps or expectations change. */
  async updateIn(manager: EntityManager, req: AppRequest | null, id: number, body: Partial<DrillDefinition>): Promise<DrillDefinitionView> {
    const row = await this.find(manager, id);
    const before = { name: row.name, ...definitionInOrder(row) };
    const after = { ...before, ...body };
    if (body.steps || body.expectations) await this.refuseUnknownIn(manager, after);
    Object.assign(row, { name: after.name, ...definitionInOrder(after), updatedAt: new Date() });
    const saved = await withUniqueName('saved drill', body.name ?? null, () => manager.getRepository(DrillDefinitionEntity).save(row));
    await this.audit.record(
      req,
      { action: 'drill-definition.update', targetType: 'drill_definition', targetId: String(id), before, after: body },
      manager,
    );
    return definitionView(saved);
  }

  async removeIn(manager: EntityManager, req: AppRequest | null, id: number): Promise<void> {
    const row = await this.find(manager, id);
    await manager.getRepository(DrillDefinitionEntity).delete({ id });
    await this.audit.record(
      req,
      { action: 'drill-definition.delete', targetType: 'drill_definition', targetId: String(id), before: { name: row.name } },
      manager,
    );
  }

  private async find(manager: EntityManager, id: number): Promise<DrillDefinitionEntity> {
    const row = await manager.getRepository(DrillDefinitionEntity).findOneBy({ id });
    if (!row) throw new NotFoundException(`No saved drill with id ${id}`);
    return row;
  }
}

const refsOf = (definition: Pick<DrillDefinition, 'steps' | 'expectations'>) => namedBreakers(definition).map(({ ref }) => ref);
