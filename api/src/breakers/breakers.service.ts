import { pageOptions } from '../platform';
import { ConflictException, HttpException, Inject, Injectable, NotFoundException, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import type { z } from 'zod';
import {
  manualReason,
  readOnlyBreakerMessage,
  type BreakerConfigView,
  type BreakerListQuery,
  type BreakerStateName,
  type BreakerOverride,
  type createBreakerSchema,
  type JournalPage,
  type journalQuerySchema,
  type ManualAction,
  type updateBreakerSettingsSchema,
  type updateLibrarySettingsSchema,
} from '@cbh/contracts';
import { AuditService } from '../identity';
import { withUniqueName } from '../platform';
import type { AppRequest } from '../identity';
import { APP_CONFIG, type AppConfig } from '../platform';
import { RealtimeBus } from '../platform';
import { BreakerRegistry } from './breaker-registry.service';
import { BreakerConfigEntity } from './entities/breaker-config.entity';
import { BreakerTransitionsRepository } from './breaker-transitions.repository';
import { BreakerConfigsRepository, type BreakerConfigSettings } from './breaker-configs.repository';
import { toJournalEntry } from './entities/breaker-transition.entity';
import { seedOnce } from '../platform';
import { TestSessionEntity } from './load-tests/entities/test-session.entity';
import { FleetCatalog } from './fleet/fleet-catalog.service';
import { FleetFigures } from './fleet/fleet-figures.service';
import { FleetRepository } from './fleet/fleet.repository';

/** What a change may set: PATCH's four settings, and from a configuration document the name, type and type's own settings. */
export type BreakerChanges = z.infer<typeof updateBreakerSettingsSchema> &
  Partial<Pick<BreakerConfigEntity, 'name' | 'type' | 'minimumCalls' | 'slowCallDuration' | 'maxConcurrentCalls' | 'maxQueue'>>;

function pickSettings(config: BreakerConfigEntity): BreakerConfigSettings {
  const {
    id,
    name,
    type,
    failureThreshold,
    timeout,
    recoveryTime,
    successThreshold,
    maxConcurrentCalls,
    maxQueue,
    minimumCalls,
    slowCallDuration,
  } = config;
  return {
    id,
    name,
    type,
    failureThreshold,
    timeout,
    recoveryTime,
    successThreshold,
    maxConcurrentCalls,
    maxQueue,
    minimumCalls,
    slowCallDuration,
  };
}

/** The override each control leaves on the configuration. */
const OVERRIDE_AFTER: Record<ManualAction, BreakerOverride> = {
  'force-open': 'forced-open',
  'force-closed': 'forced-closed',
  disable: 'disabled',
  reset: 'none',
};

/** The demo breakers SEED_DEMO adds, one per type. */
const DEMO_BREAKERS: Partial<BreakerConfigEntity>[] = [
  { name: 'Payment Gateway', type: 'simple', failureThreshold: 5, timeout: 30_000, recoveryTime: 60_000, successThreshold: 3 },
  {
    name: 'Inventory Service',
    type: 'adaptive',
    failureThreshold: 5,
    timeout: 30_000,
    recoveryTime: 60_000,
    successThreshold: 3,
    minimumCalls: 10,
    slowCallDuration: 1000,
  },
  {
    name: 'Search API',
    type: 'bulkhead',
    failureThreshold: 5,
    timeout: 30_000,
    recoveryTime: 60_000,
    successThreshold: 3,
    maxConcurrentCalls: 10,
    maxQueue: 0,
  },
];

/** Where each control leaves an agent's breaker, as the journal records the hub's sending it. */
const STATE_AFTER: Record<ManualAction, BreakerStateName> = {
  'force-open': 'OPEN',
  'force-closed': 'CLOSED',
  disable: 'CLOSED',
  reset: 'CLOSED',
};

/** An agent's breaker's next control revision, from the one sequence of all of them (see the ExternalBreakers migration). */
const NEXT_REVISION = () => "nextval('breaker_control_revision')";

/** A scraped breaker takes no control: the hub cannot push to a scraped service. */
function refuseScraped(config: BreakerConfigEntity): ConflictException | null {
  return config.source === 'scrape' ? new ConflictException(readOnlyBreakerMessage(config.name, config.service ?? '')) : null;
}

/** What a load test running through a breaker forbids, refused naming its session. */
function loadTestConflict(config: BreakerConfigEntity, sessionId: number, doing: string): ConflictException {
  return new ConflictException(`Circuit breaker ${config.name} has a load test running (session ${sessionId}); stop it before ${doing}`);
}

@Injectable()
export class BreakersService implements OnApplicationBootstrap {
  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: BreakerRegistry,
    private readonly audit: AuditService,
    private readonly bus: RealtimeBus,
    private readonly journal: BreakerTransitionsRepository,
    private readonly configs: BreakerConfigsRepository,
    private readonly fleet: FleetCatalog,
    private readonly fleetFigures: FleetFigures,
    private readonly fleetRepository: FleetRepository,
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
        async (manager) => void (await manager.save(BreakerConfigEntity, DEMO_BREAKERS)),
      );
    }
    await this.registry.reload(await this.journal.lastMoveTimes());
  }

  view(config: BreakerConfigEntity): BreakerConfigView {
    const external = config.source !== 'hub';
    const breaker = external ? undefined : (this.registry.get(config.id) ?? this.registry.apply(config));
    return {
      id: config.id,
      name: config.name,
      type: config.type,
      failureThreshold: config.failureThreshold,
      timeout: config.timeout,
      recoveryTime: config.recoveryTime,
      successThreshold: config.successThreshold,
      maxConcurrentCalls: config.maxConcurrentCalls,
      maxQueue: config.maxQueue,
      minimumCalls: config.minimumCalls,
      slowCallDuration: config.slowCallDuration,
      state: external ? this.fleetFigures.stateOf(config.id) : (breaker?.state ?? 'CLOSED'),
      override:
        config.source === 'scrape'
          ? (this.fleetFigures.overrideOf(config.id) ?? 'none')
          : external
            ? config.override
            : (breaker?.override ?? config.override),
      version: config.version,
      source: config.source,
      service: config.service,
      library: config.library,
      libraryType: config.libraryType,
      librarySettings: external ? { ...config.reportedSettings, ...config.librarySettings } : null,
      createdAt: config.createdAt.toISOString(),
      updatedAt: config.updatedAt.toISOString(),
    };
  }

  async list({ source, service, ...page }: BreakerListQuery): Promise<BreakerConfigView[]> {
    const options = pageOptions(page);
    const where = { ...options.where, ...(source ? { source } : {}), ...(service ? { service } : {}) };
    return (await this.repository.find({ ...options, where })).map((config) => this.view(config));
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
        updates.map(({ id, changes }) => ({ ...pickSettings(befores.get(id)!), ...changes })),
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
    if (config.source === 'hub') this.registry.apply(config);
    else this.fleet.keep(config);
    return this.announce(this.view(config));
  }

  async announceRemoval(id: number): Promise<void> {
    this.registry.remove(id);
    this.fleet.forget(id);
    await this.bus.publish({ type: 'configUpdated', data: { configId: id, config: null } });
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

  /**
   * Force open, force closed, disable or reset, on every replica: the override is kept with the configuration (a
   * replica that starts later applies it), audited (the audit entry's actor is the account), journalled once with
   * who did it by name or role, and announced so the other replicas follow at once.
   */
  async manual(req: AppRequest, id: number, action: ManualAction): Promise<BreakerConfigView> {
    const [outcome] = await this.manualMany(req, [id], action);
    if (outcome instanceof HttpException) throw outcome;
    return outcome!;
  }

  /**
   * One manual control on many breakers in one transaction (a few statements however many): each is changed and
   * audited as on its own, and an unknown id is a 404 in its place of the answer (in the order asked). The live
   * messages of all of them leave together, batched into as few NOTIFYs as fit.
   */
  async manualMany(req: AppRequest, ids: readonly number[], action: ManualAction): Promise<(BreakerConfigView | HttpException)[]> {
    const actor = req.user!;
    const reason = manualReason(action, actor);
    const refused = new Map<number, HttpException>();
    const configs = await this.dataSource.transaction(async (manager) => {
      // locked in id order, so that two controls of overlapping breakers cannot wait on each other
      const locked = await manager.find(BreakerConfigEntity, {
        where: { id: In(ids) },
        order: { id: 'ASC' },
        lock: { mode: 'pessimistic_write' },
      });
      const before = locked.filter((config) => {
        const refusal = refuseScraped(config);
        if (refusal) refused.set(config.id, refusal);
        return !refusal;
      });
      if (before.length === 0) return [];
      const found = before.map((config) => config.id);
      await manager.update(BreakerConfigEntity, { id: In(found) }, { override: OVERRIDE_AFTER[action], version: () => 'version + 1' });
      // an agent's breaker: the revision its instances apply controls by, and the Reset they must not miss
      const agents = before.filter((config) => config.source === 'agent').map((config) => config.id);
      if (agents.length > 0) {
        await manager.update(BreakerConfigEntity, { id: In(agents) }, { revision: NEXT_REVISION });
        if (action === 'reset') await manager.update(BreakerConfigEntity, { id: In(agents) }, { resetRevision: () => 'revision' });
      }
      await this.audit.recordMany(
        req,
        before.map((config) => ({
          action: `breaker.${action}`,
          targetType: 'circuit_breaker',
          targetId: String(config.id),
          before: { state: this.stateOf(config), override: config.override },
          after: { override: OVERRIDE_AFTER[action] },
        })),
        manager,
      );
      return manager.find(BreakerConfigEntity, { where: { id: In(found) } });
    });
    const sent = configs.filter((config) => config.source === 'agent');
    // the hub's own breakers journal the move they make; an agent's, that the control was sent to its instances
    await this.fleetRepository.journal(
      sent.map((config) => ({
        configId: config.id,
        from: this.fleetFigures.stateOf(config.id),
        to: STATE_AFTER[action],
        reason: `${reason}: sent to every instance of ${config.service}`,
        at: new Date().toISOString(),
        serviceInstance: null,
      })),
    );
    const views = new Map(
      configs.map((config) => {
        if (config.source === 'hub') this.registry.apply(config, { action, reason, journal: true, actorId: actor.id });
        else this.fleet.keep(config);
        return [config.id, this.view(config)] as const;
      }),
    );
    await Promise.all([...views.values()].map((view) => this.announce(view, { action, reason })));
    return ids.map((id) => views.get(id) ?? refused.get(id) ?? new NotFoundException(`No circuit breaker with id ${id}`));
  }

  /** A breaker's state as this replica sees it: its engine's, or its instances' merged. */
  private stateOf(config: BreakerConfigEntity): BreakerStateName {
    if (config.source !== 'hub') return this.fleetFigures.stateOf(config.id);
    return (this.registry.get(config.id) ?? this.registry.apply(config))?.state ?? 'CLOSED';
  }

  /**
   * New settings for an agent's breaker, in its library's words, kept with the configuration and pushed to every
   * instance with the next reply (the instances say in their next reports which they took). Audited and announced
   * like the hub's own settings.
   */
  async updateLibrarySettings(
    req: AppRequest,
    id: number,
    { librarySettings }: z.infer<typeof updateLibrarySettingsSchema>,
  ): Promise<BreakerConfigView> {
    const updated = await this.dataSource.transaction(async (manager) => {
      const before = await manager.findOne(BreakerConfigEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!before) throw new NotFoundException(`No circuit breaker with id ${id}`);
      const refusal = refuseScraped(before);
      if (refusal) throw refusal;
      if (before.source === 'hub') {
        throw new ConflictException(
          `Circuit breaker ${before.name} runs in the hub: change its failureThreshold, timeout, recoveryTime or successThreshold`,
        );
      }
      const settings = { ...before.librarySettings, ...librarySettings };
      await manager.update(
        BreakerConfigEntity,
        { id },
        { librarySettings: settings, revision: NEXT_REVISION, version: () => 'version + 1' },
      );
      const after = await manager.findOneByOrFail(BreakerConfigEntity, { id });
      await this.audit.recordMany(
        req,
        [
          {
            action: 'breaker.update',
            targetType: 'circuit_breaker',
            targetId: String(id),
            before: { librarySettings: before.librarySettings },
            after: { librarySettings: settings },
          },
        ],
        manager,
      );
      return after;
    });
    return this.announceChange(updated);
  }

  private async announce(view: BreakerConfigView, manual?: { action: ManualAction; reason: string }): Promise<BreakerConfigView> {
    await this.bus.publish({ type: 'configUpdated', data: { configId: view.id, config: view, ...(manual ? { manual } : {}) } });
    return view;
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
