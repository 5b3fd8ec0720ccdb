import { ConflictException, HttpException, Inject, Injectable, NotFoundException, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import type { z } from 'zod';
import type {
  BreakerConfigView,
  BreakerSource,
  BreakerListQuery,
  createBreakerSchema,
  JournalPage,
  journalQuerySchema,
  updateBreakerSettingsSchema,
} from '@cbh/contracts';
import { AuditService, type AppRequest } from '../identity';
import { APP_CONFIG, pageOptions, seedOnce, withUniqueName, type AppConfig } from '../platform';
import { BreakerAnnouncer } from './breaker-announcer.service';
import { BreakerConfigsRepository, settingsOf } from './breaker-configs.repository';
import { loadTestConflict, refuseScraped } from './breaker-refusals';
import { BreakerRegistry } from './breaker-registry.service';
import { BreakerTransitionsRepository } from './breaker-transitions.repository';
import { DEMO_BREAKERS } from './demo-breakers';
import { toJournalEntry } from './entities/breaker-transition.entity';
import { BreakerConfigEntity } from './entities/breaker-config.entity';
import { TestSessionEntity } from './load-tests/entities/test-session.entity';

/** What a change may set: PATCH's four settings, and from a configuration document the name, type and type's own settings. */
export type BreakerChanges = z.infer<typeof updateBreakerSettingsSchema> &
  Partial<Pick<BreakerConfigEntity, 'name' | 'type' | 'minimumCalls' | 'slowCallDuration' | 'maxConcurrentCalls' | 'maxQueue'>>;

/** Breakers' configurations: reading them, and creating, changing and deleting them (manual control: BreakerControl). */
@Injectable()
export class BreakersService implements OnApplicationBootstrap {
  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: BreakerRegistry,
    private readonly audit: AuditService,
    private readonly announcer: BreakerAnnouncer,
    private readonly journal: BreakerTransitionsRepository,
    private readonly configs: BreakerConfigsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get repository() {
    return this.dataSource.getRepository(BreakerConfigEntity);
  }

  async onApplicationBootstrap() {
    if (this.config.SEED_DEMO) {
      await seedOnce(
        this.dataSource,
        BreakerConfigEntity,
        // copies: save() writes the ids and dates it assigns into the objects it is given, and the list is shared by every app of a process
        async (manager) =>
          void (await manager.save(
            BreakerConfigEntity,
            DEMO_BREAKERS.map((breaker) => ({ ...breaker })),
          )),
      );
    }
    await this.registry.reload(await this.journal.lastMoveTimes());
  }

  async list({ source, service, ...page }: BreakerListQuery): Promise<BreakerConfigView[]> {
    const options = pageOptions(page);
    const where = { ...options.where, ...(source ? { source } : {}), ...(service ? { service } : {}) };
    return (await this.repository.find({ ...options, where })).map((config) => this.announcer.view(config));
  }

  /** The hub's own breakers in id order, read in the caller's transaction: what a configuration document holds (an agent's or scraped breaker is its service's). */
  hubConfigsIn(manager: EntityManager): Promise<BreakerConfigEntity[]> {
    return manager.find(BreakerConfigEntity, { where: { source: 'hub' }, order: { id: 'ASC' } });
  }

  /** Every breaker's name as rules and windows name it (source, service, name): a document's status pages name them so. */
  refsIn(manager: EntityManager): Promise<{ id: number; name: string; source: BreakerSource; service: string | null }[]> {
    return manager
      .getRepository(BreakerConfigEntity)
      .find({ select: { id: true, name: true, source: true, service: true }, order: { id: 'ASC' } });
  }

  /** Some breakers' names as rules and windows name them (source, service, name); unknown ids are left out. */
  async refsOf(ids: readonly number[]): Promise<{ id: number; name: string; source: BreakerSource; service: string | null }[]> {
    if (ids.length === 0) return [];
    return this.repository.find({ where: { id: In([...ids]) }, select: { id: true, name: true, source: true, service: true } });
  }

  async find(id: number): Promise<BreakerConfigEntity> {
    const config = await this.repository.findOneBy({ id });
    if (!config) throw new NotFoundException(`No circuit breaker with id ${id}`);
    return config;
  }

  async create(req: AppRequest, input: z.infer<typeof createBreakerSchema>): Promise<BreakerConfigView> {
    const created = await this.dataSource.transaction((manager) => this.createIn(manager, req, input));
    return this.announceChange(created);
  }

  /** Creates and audits a configuration inside the caller's transaction; announceChange tells the replicas once it commits. */
  async createIn(manager: EntityManager, req: AppRequest, input: z.infer<typeof createBreakerSchema>): Promise<BreakerConfigEntity> {
    const [config] = await this.createManyIn(manager, req, [input], input.name);
    return config!;
  }

  /** Many configurations in one statement (an import's), each audited. */
  async createManyIn(
    manager: EntityManager,
    req: AppRequest,
    inputs: z.infer<typeof createBreakerSchema>[],
    name: string | null = null,
  ): Promise<BreakerConfigEntity[]> {
    const configs = inputs.map((input) => manager.create(BreakerConfigEntity, input));
    // the insert fills in each row's id, defaults and dates
    await withUniqueName('circuit breaker', name, () => manager.insert(BreakerConfigEntity, configs));
    await this.audit.recordMany(
      req,
      configs.map((config) => ({ action: 'breaker.create', targetType: 'circuit_breaker', targetId: String(config.id), after: config })),
      manager,
    );
    return configs;
  }

  async update(req: AppRequest, id: number, settings: z.infer<typeof updateBreakerSettingsSchema>): Promise<BreakerConfigView> {
    const updated = await this.dataSource.transaction((manager) => this.updateIn(manager, req, id, settings));
    return this.announceChange(updated);
  }

  /**
   * Changes and audits a configuration inside the caller's transaction. A configuration document may also rename
   * it or change its type; the type stays while a load test runs through the breaker, which was built for it.
   */
  async updateIn(manager: EntityManager, req: AppRequest, id: number, changes: BreakerChanges): Promise<BreakerConfigEntity> {
    const [updated] = await this.updateManyIn(manager, req, [{ id, changes }]);
    return updated!;
  }

  /** Many configurations' changes in one statement (an import's), each audited. */
  async updateManyIn(
    manager: EntityManager,
    req: AppRequest,
    updates: { id: number; changes: BreakerChanges }[],
  ): Promise<BreakerConfigEntity[]> {
    const ids = updates.map((update) => update.id);
    const befores = new Map(
      (await manager.find(BreakerConfigEntity, { where: { id: In(ids) }, lock: { mode: 'pessimistic_write' }, order: { id: 'ASC' } })).map(
        (config) => [config.id, config],
      ),
    );
    const missing = ids.find((id) => !befores.has(id));
    if (missing !== undefined) throw new NotFoundException(`No circuit breaker with id ${missing}`);
    const outside = [...befores.values()].find((config) => config.source !== 'hub');
    if (outside) {
      throw (
        refuseScraped(outside) ??
        new ConflictException(
          `Circuit breaker ${outside.name} runs in ${outside.service}: change its settings in its library's words (librarySettings)`,
        )
      );
    }
    const retyped = updates.filter(({ id, changes }) => changes.type !== undefined && changes.type !== befores.get(id)!.type);
    if (retyped.length > 0)
      await this.refuseWhileLoadTested(
        manager,
        retyped.map(({ id }) => befores.get(id)!),
        'changing its type',
      );
    const afters = await withUniqueName('circuit breaker', updates.length === 1 ? (updates[0]!.changes.name ?? null) : null, () =>
      this.configs.updateSettings(
        manager,
        updates.map(({ id, changes }) => ({ ...settingsOf(befores.get(id)!), ...changes })),
      ),
    );
    await this.audit.recordMany(
      req,
      afters.map((after) => ({
        action: 'breaker.update',
        targetType: 'circuit_breaker',
        targetId: String(after.id),
        before: befores.get(after.id)!,
        after,
      })),
      manager,
    );
    return afters;
  }

  /** Deletes a configuration with its journal and load tests; refused while a load test runs through it. */
  async remove(req: AppRequest, id: number): Promise<void> {
    await this.dataSource.transaction((manager) => this.removeIn(manager, req, id));
    await this.announceRemoval(id);
  }

  /** Deletes and audits inside the caller's transaction; announceRemoval tells the replicas once it commits. */
  async removeIn(manager: EntityManager, req: AppRequest, id: number): Promise<void> {
    const [outcome] = await this.removeEachIn(manager, req, [id]);
    if (outcome instanceof HttpException) throw outcome;
  }

  /**
   * Deletes many configurations in one transaction, each on its own terms: an unknown id is a 404 and a breaker a
   * load test runs through a 409 in its place of the answer (in the order asked); the others are deleted, audited
   * one by one and announced.
   */
  async removeMany(req: AppRequest, ids: readonly number[]): Promise<(true | HttpException)[]> {
    const outcomes = await this.dataSource.transaction((manager) => this.removeEachIn(manager, req, ids));
    await Promise.all(ids.filter((_, index) => outcomes[index] === true).map((id) => this.announceRemoval(id)));
    return outcomes;
  }

  /** Deletes and audits, in a few statements however many, each configuration that may go; the others' refusals. */
  private async removeEachIn(manager: EntityManager, req: AppRequest, ids: readonly number[]): Promise<(true | HttpException)[]> {
    // Locked first, in id order so that two deletions cannot wait on each other: a load test starting now
    // references the row and waits for this decision.
    const configs = await manager.find(BreakerConfigEntity, {
      where: { id: In(ids) },
      order: { id: 'ASC' },
      lock: { mode: 'pessimistic_write' },
    });
    const sessions = await this.runningLoadTests(
      manager,
      configs.map((config) => config.id),
    );
    const refused = new Map<number, HttpException>();
    const free = configs.filter((config) => {
      const session = sessions.get(config.id);
      if (session !== undefined) refused.set(config.id, loadTestConflict(config, session, 'deleting the breaker'));
      return session === undefined;
    });
    if (free.length > 0) {
      await manager.delete(BreakerConfigEntity, { id: In(free.map((config) => config.id)) });
      await this.audit.recordMany(
        req,
        free.map((config) => ({ action: 'breaker.delete', targetType: 'circuit_breaker', targetId: String(config.id), before: config })),
        manager,
      );
    }
    const gone = new Set(free.map((config) => config.id));
    return ids.map((id) => (gone.has(id) ? true : (refused.get(id) ?? new NotFoundException(`No circuit breaker with id ${id}`))));
  }

  /** Applies a committed configuration on this replica and tells the others and the screens. */
  announceChange(config: BreakerConfigEntity): Promise<BreakerConfigView> {
    return this.announcer.announceChange(config);
  }

  announceRemoval(id: number): Promise<void> {
    return this.announcer.announceRemoval(id);
  }

  /** Refuses, naming the first, when a load test runs through any of these breakers. */
  private async refuseWhileLoadTested(manager: EntityManager, configs: readonly BreakerConfigEntity[], doing: string): Promise<void> {
    const sessions = await this.runningLoadTests(
      manager,
      configs.map((config) => config.id),
    );
    const busy = configs.find((config) => sessions.has(config.id));
    if (busy) throw loadTestConflict(busy, sessions.get(busy.id)!, doing);
  }

  /** The load test running through each of these breakers (one at most each), by breaker id. */
  private async runningLoadTests(manager: EntityManager, configIds: readonly number[]): Promise<Map<number, number>> {
    const running = await manager.find(TestSessionEntity, {
      where: { configId: In(configIds), status: 'running' },
      select: { id: true, configId: true },
    });
    return new Map(running.map((session) => [session.configId, session.id]));
  }

  /** One page of a breaker's journal, newest first; `before` continues below the previous page's last row. */
  async transitions(id: number, { limit, before }: z.infer<typeof journalQuerySchema>): Promise<JournalPage> {
    await this.find(id);
    // one row more than asked tells whether an older page exists
    const rows = await this.journal.newestOf(id, limit + 1, before);
    const page = rows.slice(0, limit).map(toJournalEntry);
    return { transitions: page, nextBefore: rows.length > limit ? page[page.length - 1]!.id : null };
  }
}
