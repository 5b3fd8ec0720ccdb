import { ConflictException, Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import { ON_CALL_LIMITS, type CreateSchedule, type OnCallPerson, type ScheduleView, type UpdateSchedule } from '@cbh/contracts';
import { AuditService, UserEntity, type AppRequest } from '../identity';
import { ScheduleEntity } from './entities/schedule.entity';
import { onCallAt, shiftsBetween } from './on-call-at';
import { EscalationPolicyEntity } from './entities/escalation-policy.entity';

export const personOf = (user: Pick<UserEntity, 'id' | 'email' | 'firstName' | 'lastName'>): OnCallPerson => ({
  id: user.id,
  email: user.email,
  name: [user.firstName, user.lastName].filter(Boolean).join(' ') || null,
});

/** On-call schedules: kept by circuit_breaker_admin, read by whoever acts on alerts; every change audited. */
@Injectable()
export class SchedulesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
  ) {}

  async list(now = new Date()): Promise<ScheduleView[]> {
    const rows = await this.dataSource.getRepository(ScheduleEntity).find({ order: { name: 'ASC' }, take: ON_CALL_LIMITS.schedules });
    return this.views(rows, now);
  }

  async one(id: string, now = new Date()): Promise<ScheduleView> {
    return (await this.views([await this.find(id)], now))[0]!;
  }

  async find(id: string, manager: EntityManager = this.dataSource.manager): Promise<ScheduleEntity> {
    const row = await manager.getRepository(ScheduleEntity).findOneBy({ id });
    if (!row) throw new NotFoundException(`No schedule with id ${id}`);
    return row;
  }

  /** Who is on call at a moment in a schedule, or null. */
  async onCall(id: string, at: Date): Promise<OnCallPerson | null> {
    const row = await this.find(id);
    const userId = onCallAt(row, at);
    if (!userId) return null;
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ id: userId });
    return user ? personOf(user) : null;
  }

  async create(req: AppRequest, body: CreateSchedule): Promise<ScheduleView> {
    return (await this.views([await this.dataSource.transaction((manager) => this.createIn(manager, req, body))]))[0]!;
  }

  async createIn(manager: EntityManager, req: AppRequest, body: CreateSchedule): Promise<ScheduleEntity> {
    const repository = manager.getRepository(ScheduleEntity);
    if ((await repository.count()) >= ON_CALL_LIMITS.schedules)
      throw new ConflictException(`At most ${ON_CALL_LIMITS.schedules} schedules`);
    await this.refuseTakenName(manager, body.name);
    await this.refuseUnknownUsers(manager, body);
    const saved = await repository.save(repository.create({ ...body, createdBy: req.user?.id ?? null }));
    await this.audit.record(req, { action: 'schedule.create', targetType: 'on_call_schedule', targetId: saved.id, after: body }, manager);
    return saved;
  }

  async update(req: AppRequest, id: string, body: UpdateSchedule): Promise<ScheduleView> {
    return (await this.views([await this.dataSource.transaction((manager) => this.updateIn(manager, req, id, body))]))[0]!;
  }

  async updateIn(manager: EntityManager, req: AppRequest, id: string, body: UpdateSchedule): Promise<ScheduleEntity> {
    const row = await this.find(id, manager);
    const before = { name: row.name, timeZone: row.timeZone, rotations: row.rotations, overrides: row.overrides };
    if (body.name !== undefined && body.name.toLowerCase() !== row.name.toLowerCase()) await this.refuseTakenName(manager, body.name);
    await this.refuseUnknownUsers(manager, body);
    Object.assign(row, body, { updatedAt: new Date() });
    const saved = await manager.getRepository(ScheduleEntity).save(row);
    await this.audit.record(req, { action: 'schedule.update', targetType: 'on_call_schedule', targetId: id, before, after: body }, manager);
    return saved;
  }

  /** By hand: refused while a policy's step names the schedule (that step would quietly reach nobody). */
  async remove(req: AppRequest, id: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const row = await this.find(id, manager);
      const policies = (await manager.getRepository(EscalationPolicyEntity).find({ select: { name: true, steps: true } })).filter(
        (policy) => policy.steps.some((step) => step.notify.schedule === id),
      );
      if (policies.length > 0)
        throw new ConflictException(
          `Escalation policy ${policies.map((policy) => policy.name).join(', ')} names schedule ${row.name}: change the policy first`,
        );
      await this.removeIn(manager, req, id);
    });
  }

  async removeIn(manager: EntityManager, req: AppRequest, id: string): Promise<void> {
    const row = await this.find(id, manager);
    await manager.getRepository(ScheduleEntity).delete({ id });
    await this.audit.record(
      req,
      { action: 'schedule.delete', targetType: 'on_call_schedule', targetId: id, before: { name: row.name } },
      manager,
    );
  }

  /** Every schedule, for the configuration document. */
  allIn(manager: EntityManager): Promise<ScheduleEntity[]> {
    return manager.getRepository(ScheduleEntity).find({ order: { name: 'ASC' } });
  }

  /** The stretches of who is on call between two moments (the screens' calendar), each person named. */
  async shifts(id: string, from: Date, to: Date): Promise<{ start: string; end: string; user: OnCallPerson | null }[]> {
    const stretches = shiftsBetween(await this.find(id), from, to);
    const ids = [...new Set(stretches.flatMap((shift) => (shift.user ? [shift.user] : [])))];
    const users = ids.length ? await this.dataSource.getRepository(UserEntity).findBy({ id: In(ids) }) : [];
    const byId = new Map(users.map((user) => [user.id, personOf(user)]));
    return stretches.map((shift) => ({
      start: shift.start.toISOString(),
      end: shift.end.toISOString(),
      user: shift.user ? (byId.get(shift.user) ?? null) : null,
    }));
  }

  private async views(rows: readonly ScheduleEntity[], now = new Date()): Promise<ScheduleView[]> {
    const onCall = rows.map((row) => onCallAt(row, now));
    const ids = [...new Set(onCall.filter((id): id is string => id !== null))];
    const users = ids.length ? await this.dataSource.getRepository(UserEntity).findBy({ id: In(ids) }) : [];
    const byId = new Map(users.map((user) => [user.id, personOf(user)]));
    return rows.map((row, index) => ({
      id: row.id,
      name: row.name,
      timeZone: row.timeZone,
      rotations: row.rotations,
      overrides: row.overrides,
      onCallNow: byId.get(onCall[index] ?? '') ?? null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    }));
  }

  private async refuseTakenName(manager: EntityManager, name: string) {
    const taken = await manager
      .getRepository(ScheduleEntity)
      .createQueryBuilder('s')
      .where('lower(s.name) = lower(:name)', { name })
      .getExists();
    if (taken) throw new ConflictException(`A schedule named ${name} exists already`);
  }

  /** Every person a schedule names must be an account of the hub. */
  private async refuseUnknownUsers(manager: EntityManager, body: Partial<CreateSchedule>) {
    const ids = [
      ...new Set([...(body.rotations ?? []).flatMap((rotation) => rotation.users), ...(body.overrides ?? []).map((o) => o.user)]),
    ];
    if (ids.length === 0) return;
    const known = new Set((await manager.getRepository(UserEntity).findBy({ id: In(ids) })).map((user) => user.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0) throw new UnprocessableEntityException(`No user with id ${unknown.join(', ')}`);
  }
}
