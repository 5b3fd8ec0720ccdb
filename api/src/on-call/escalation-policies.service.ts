import { ConflictException, Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import { ON_CALL_LIMITS, type CreateEscalationPolicy, type EscalationPolicyView } from '@cbh/contracts';
import { AuditService, UserEntity, type AppRequest } from '../identity';
import { NotificationSettingsService, rulesNamingPolicy } from '../notifications';
import { EscalationPolicyEntity } from './entities/escalation-policy.entity';
import { ScheduleEntity } from './entities/schedule.entity';

const view = (row: EscalationPolicyEntity): EscalationPolicyView => ({
  id: row.id,
  name: row.name,
  steps: row.steps,
  repeat: row.repeat,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Escalation policies: kept by circuit_breaker_admin (as notification rules are), every change audited. */
@Injectable()
export class EscalationPoliciesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    private readonly notifications: NotificationSettingsService,
  ) {}

  async list(): Promise<EscalationPolicyView[]> {
    return (
      await this.dataSource.getRepository(EscalationPolicyEntity).find({ order: { name: 'ASC' }, take: ON_CALL_LIMITS.policies })
    ).map(view);
  }

  async one(id: string): Promise<EscalationPolicyView> {
    return view(await this.find(id));
  }

  async find(id: string, manager: EntityManager = this.dataSource.manager): Promise<EscalationPolicyEntity> {
    const row = await manager.getRepository(EscalationPolicyEntity).findOneBy({ id });
    if (!row) throw new NotFoundException(`No escalation policy with id ${id}`);
    return row;
  }

  async create(req: AppRequest, body: CreateEscalationPolicy): Promise<EscalationPolicyView> {
    return view(await this.dataSource.transaction((manager) => this.createIn(manager, req, body)));
  }

  async createIn(manager: EntityManager, req: AppRequest, body: CreateEscalationPolicy): Promise<EscalationPolicyEntity> {
    const repository = manager.getRepository(EscalationPolicyEntity);
    if ((await repository.count()) >= ON_CALL_LIMITS.policies)
      throw new ConflictException(`At most ${ON_CALL_LIMITS.policies} escalation policies`);
    await this.refuseTakenName(manager, body.name);
    await this.refuseUnknownTargets(manager, body.steps);
    const saved = await repository.save(repository.create({ ...body, createdBy: req.user?.id ?? null }));
    await this.audit.record(
      req,
      { action: 'escalation-policy.create', targetType: 'escalation_policy', targetId: saved.id, after: body },
      manager,
    );
    return saved;
  }

  async update(req: AppRequest, id: string, body: Partial<CreateEscalationPolicy>): Promise<EscalationPolicyView> {
    return view(await this.dataSource.transaction((manager) => this.updateIn(manager, req, id, body)));
  }

  async updateIn(
    manager: EntityManager,
    req: AppRequest,
    id: string,
    body: Partial<CreateEscalationPolicy>,
  ): Promise<EscalationPolicyEntity> {
    const row = await this.find(id, manager);
    const before = { name: row.name, steps: row.steps, repeat: row.repeat };
    if (body.name !== undefined && body.name.toLowerCase() !== row.name.toLowerCase()) await this.refuseTakenName(manager, body.name);
    if (body.steps) await this.refuseUnknownTargets(manager, body.steps);
    Object.assign(row, body, { updatedAt: new Date() });
    const saved = await manager.getRepository(EscalationPolicyEntity).save(row);
    await this.audit.record(
      req,
      { action: 'escalation-policy.update', targetType: 'escalation_policy', targetId: id, before, after: body },
      manager,
    );
    return saved;
  }

  /** By hand: refused while a rule names the policy (a configuration import may prune it, pointing its rules elsewhere). */
  async remove(req: AppRequest, id: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const row = await this.find(id, manager);
      const rules = await rulesNamingPolicy(manager, id);
      if (rules.length > 0)
        throw new ConflictException(
          `Notification rule ${rules.join(', ')} uses escalation policy ${row.name}: change or delete the rule first`,
        );
      await this.removeIn(manager, req, id);
    });
  }

  async removeIn(manager: EntityManager, req: AppRequest, id: string): Promise<void> {
    const row = await this.find(id, manager);
    await manager.getRepository(EscalationPolicyEntity).delete({ id });
    await this.audit.record(
      req,
      { action: 'escalation-policy.delete', targetType: 'escalation_policy', targetId: id, before: { name: row.name } },
      manager,
    );
  }

  /** A policy's id by its name (whatever the letter case), in a transaction: the configuration document names policies. */
  async idByNameIn(manager: EntityManager, name: string): Promise<string | null> {
    const row = await manager
      .getRepository(EscalationPolicyEntity)
      .createQueryBuilder('p')
      .where('lower(p.name) = lower(:name)', { name })
      .getOne();
    return row?.id ?? null;
  }

  /** Every policy, for the configuration document. */
  allIn(manager: EntityManager): Promise<EscalationPolicyEntity[]> {
    return manager.getRepository(EscalationPolicyEntity).find({ order: { name: 'ASC' } });
  }

  private async refuseTakenName(manager: EntityManager, name: string) {
    const taken = await manager
      .getRepository(EscalationPolicyEntity)
      .createQueryBuilder('p')
      .where('lower(p.name) = lower(:name)', { name })
      .getExists();
    if (taken) throw new ConflictException(`An escalation policy named ${name} exists already`);
  }

  /** Every channel, person and schedule a step names must exist (422 naming the step). */
  private async refuseUnknownTargets(manager: EntityManager, steps: CreateEscalationPolicy['steps']) {
    const channels = new Set((await this.notifications.channelNamesIn(manager)).map((channel) => channel.id));
    const userIds = [...new Set(steps.flatMap((step) => step.notify.users ?? []))];
    const users = new Set(
      userIds.length ? (await manager.getRepository(UserEntity).findBy({ id: In(userIds) })).map((user) => user.id) : [],
    );
    const scheduleIds = [...new Set(steps.flatMap((step) => (step.notify.schedule ? [step.notify.schedule] : [])))];
    const schedules = new Set(
      scheduleIds.length
        ? (await manager.getRepository(ScheduleEntity).findBy({ id: In(scheduleIds) })).map((schedule) => schedule.id)
        : [],
    );
    steps.forEach((step, index) => {
      const missing = [
        ...(step.notify.channels ?? []).filter((id) => !channels.has(id)).map((id) => `channel ${id}`),
        ...(step.notify.users ?? []).filter((id) => !users.has(id)).map((id) => `user ${id}`),
        ...(step.notify.schedule && !schedules.has(step.notify.schedule) ? [`schedule ${step.notify.schedule}`] : []),
      ];
      if (missing.length > 0) throw new UnprocessableEntityException(`steps[${index}].notify: no ${missing.join(', ')}`);
    });
  }
}
