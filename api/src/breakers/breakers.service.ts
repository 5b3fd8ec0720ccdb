import { Inject, Injectable, NotFoundException, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { z } from 'zod';
import type { BreakerConfigView, BreakerTransition, createBreakerSchema, updateBreakerSettingsSchema } from '@cbh/contracts';
import { AuditService } from '../audit/audit.service';
import type { AppRequest } from '../auth/session-user';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { RealtimeBus } from '../bus/realtime-bus.service';
import { BreakerRegistry } from './breaker-registry.service';
import { BreakerConfigEntity } from './entities/breaker-config.entity';
import { BreakerTransitionEntity, toTransition } from './entities/breaker-transition.entity';
import { seedOnce } from '../database/seed-once';

export type ManualAction = 'force-open' | 'force-closed' | 'reset';

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

@Injectable()
export class BreakersService implements OnApplicationBootstrap {
  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: BreakerRegistry,
    private readonly audit: AuditService,
    private readonly bus: RealtimeBus,
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
    for (const config of await this.repository.find()) this.registry.install(config);
  }

  view(config: BreakerConfigEntity): BreakerConfigView {
    const breaker = this.registry.get(config.id) ?? this.registry.install(config);
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
      state: breaker.state,
      override: breaker.override,
      createdAt: config.createdAt.toISOString(),
      updatedAt: config.updatedAt.toISOString(),
    };
  }

  async list(): Promise<BreakerConfigView[]> {
    return (await this.repository.find({ order: { id: 'ASC' } })).map((config) => this.view(config));
  }

  async find(id: number): Promise<BreakerConfigEntity> {
    const config = await this.repository.findOneBy({ id });
    if (!config) throw new NotFoundException(`No circuit breaker with id ${id}`);
    return config;
  }

  async create(req: AppRequest, input: z.infer<typeof createBreakerSchema>): Promise<BreakerConfigView> {
    const created = await this.dataSource.transaction(async (manager) => {
      const config = await manager.save(BreakerConfigEntity, manager.create(BreakerConfigEntity, input));
      await this.audit.record(
        req,
        { action: 'breaker.create', targetType: 'circuit_breaker', targetId: String(config.id), after: config },
        manager,
      );
      return config;
    });
    this.registry.install(created);
    return this.announce(this.view(created));
  }

  async update(req: AppRequest, id: number, settings: z.infer<typeof updateBreakerSettingsSchema>): Promise<BreakerConfigView> {
    const updated = await this.dataSource.transaction(async (manager) => {
      const before = await manager.findOne(BreakerConfigEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!before) throw new NotFoundException(`No circuit breaker with id ${id}`);
      await manager.update(BreakerConfigEntity, { id }, settings);
      const after = await manager.findOneByOrFail(BreakerConfigEntity, { id });
      await this.audit.record(
        req,
        { action: 'breaker.update', targetType: 'circuit_breaker', targetId: String(id), before, after },
        manager,
      );
      return after;
    });
    this.registry.install(updated);
    return this.announce(this.view(updated));
  }

  async remove(req: AppRequest, id: number): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const config = await manager.findOneBy(BreakerConfigEntity, { id });
      if (!config) throw new NotFoundException(`No circuit breaker with id ${id}`);
      await manager.delete(BreakerConfigEntity, { id });
      await this.audit.record(
        req,
        { action: 'breaker.delete', targetType: 'circuit_breaker', targetId: String(id), before: config },
        manager,
      );
    });
    this.registry.remove(id);
    await this.bus.publish({ type: 'configUpdated', data: { configId: id, config: null } });
  }

  async manual(req: AppRequest, id: number, action: ManualAction): Promise<BreakerConfigView> {
    const config = await this.find(id);
    const breaker = this.registry.get(id) ?? this.registry.install(config);
    const before = { state: breaker.state, override: breaker.override };
    if (action === 'force-open') breaker.forceOpen();
    else if (action === 'force-closed') breaker.forceClosed();
    else breaker.reset();
    await this.audit.record(req, {
      action: `breaker.${action}`,
      targetType: 'circuit_breaker',
      targetId: String(id),
      before,
      after: { state: breaker.state, override: breaker.override },
    });
    return this.announce(this.view(config));
  }

  private async announce(view: BreakerConfigView): Promise<BreakerConfigView> {
    await this.bus.publish({ type: 'configUpdated', data: { configId: view.id, config: view } });
    return view;
  }

  /** The journal of one breaker, newest first, the last 200 transitions. */
  async transitions(id: number): Promise<BreakerTransition[]> {
    await this.find(id);
    const rows = await this.dataSource
      .getRepository(BreakerTransitionEntity)
      .find({ where: { configId: id }, order: { at: 'DESC', id: 'DESC' }, take: 200 });
    return rows.map(toTransition);
  }
}
