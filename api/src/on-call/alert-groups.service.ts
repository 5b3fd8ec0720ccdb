import { ConflictException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import {
  hasPermission,
  type AlertGroupDeliveryView,
  type AlertGroupDetailView,
  type AlertGroupPage,
  type AlertGroupQuery,
  type AlertGroupSummary,
  type ResponseTimesView,
} from '@cbh/contracts';
import { AuditService, UserEntity, type AppRequest, type SessionUser } from '../identity';
import { OutboxWriter } from '../notifications';
import type { AckRecipient } from './acknowledge-links';
import { AlertGroupJournal } from './alert-group-journal';
import { entryView, groupView } from './alert-group-views';
import { AlertGroupsRepository } from './alert-groups.repository';
import { AlertGroupEntryEntity } from './entities/alert-group-entry.entity';
import { AlertGroupEntity } from './entities/alert-group.entity';
import { ContactMethodEntity } from './entities/contact-method.entity';
import { EscalationPolicyEntity } from './entities/escalation-policy.entity';
import { recipientOf } from './step-recipients';
import { DOMAIN_GROUP_SQL, isDomainGroup } from './domain-groups';

/** The timeline entries a group's page shows at most (the oldest: how it began). */
const TIMELINE_ENTRIES = 500;

export type GroupAction = 'acknowledge' | 'unacknowledge' | 'resolve' | 'silence';

/** What the audit log keeps of a group before and after an action. */
const audited = (group: AlertGroupEntity) => ({
  state: group.state,
  acknowledgedBy: group.acknowledgedBy,
  resolvedBy: group.resolvedBy,
  silencedUntil: group.silencedUntil?.toISOString() ?? null,
});

/** A domain's groups, and a domain SLO's, are read and acted on only with domain_management, as its alerts are. */
const mayRead = (user: SessionUser, group: Pick<AlertGroupEntity, 'subjectKind' | 'openingData'>) =>
  !isDomainGroup(group) || hasPermission(user, 'domain_management');

/** Alert groups as people read and act on them; the router and the runner open, join and escalate them. */
@Injectable()
export class AlertGroupsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: AlertGroupsRepository,
    private readonly journal: AlertGroupJournal,
    private readonly outbox: OutboxWriter,
    private readonly audit: AuditService,
  ) {}

  async list(query: AlertGroupQuery, user: SessionUser): Promise<AlertGroupPage> {
    const builder = this.dataSource
      .getRepository(AlertGroupEntity)
      .createQueryBuilder('g')
      .orderBy('g.id', 'DESC')
      .take(query.limit + 1);
    if (query.state) builder.andWhere('g.state = :state', { state: query.state });
    if (query.subject) {
      const [kind, id] = query.subject.split(':');
      builder.andWhere('g.subject_kind = :kind AND g.subject_id = :id', { kind, id: Number(id) });
    }
    if (query.service) builder.andWhere('lower(g.service) = lower(:service)', { service: query.service });
    if (query.before) builder.andWhere('g.id < :before', { before: query.before });
    if (!hasPermission(user, 'domain_management')) builder.andWhere(`NOT ${DOMAIN_GROUP_SQL('g')}`);
    const rows = await builder.getMany();
    const page = rows.slice(0, query.limit);
    const policies = await this.policiesOf(page);
    return {
      items: page.map((group) => groupView(group, policies.get(group.escalationPolicyId ?? ''))),
      nextBefore: rows.length > query.limit ? page.at(-1)!.id : null,
    };
  }

  async one(id: number, user: SessionUser): Promise<AlertGroupDetailView> {
    const group = await this.readable(this.dataSource.manager, id, user);
    const [policies, entries, deliveries] = [
      await this.policiesOf([group]),
      await this.dataSource
        .getRepository(AlertGroupEntryEntity)
        .find({ where: { groupId: id }, order: { id: 'ASC' }, take: TIMELINE_ENTRIES }),
      await this.deliveriesOf(id),
    ];
    return { ...groupView(group, policies.get(group.escalationPolicyId ?? '')), timeline: entries.map(entryView), deliveries };
  }

  async summary(user: SessionUser): Promise<AlertGroupSummary> {
    const builder = this.dataSource
      .getRepository(AlertGroupEntity)
      .createQueryBuilder('g')
      .select('g.state', 'state')
      .addSelect('count(*)', 'count')
      .where("g.state <> 'resolved'")
      .groupBy('g.state');
    if (!hasPermission(user, 'domain_management')) builder.andWhere(`NOT ${DOMAIN_GROUP_SQL('g')}`);
    const counts = new Map((await builder.getRawMany<{ state: string; count: string }>()).map((row) => [row.state, Number(row.count)]));
    return { firing: counts.get('firing') ?? 0, acknowledged: counts.get('acknowledged') ?? 0, silenced: counts.get('silenced') ?? 0 };
  }

  async responseTimes(days: number, user: SessionUser): Promise<ResponseTimesView> {
    const rows = await this.repository.responseTimes(days, hasPermission(user, 'domain_management'));
    const seconds = (value: number | null) => (value === null ? null : Math.round(value));
    return {
      days,
      services: rows.map((row) => ({
        service: row.service,
        groups: Number(row.groups),
        acknowledged: Number(row.acknowledged),
        resolved: Number(row.resolved),
        mttaSeconds: seconds(row.mtta),
        mttrSeconds: seconds(row.mttr),
      })),
    };
  }

  /** A person's action from the console (a session or a token): named by their e-mail. */
  async act(req: AppRequest, id: number, action: GroupAction, minutes = 0): Promise<AlertGroupDetailView> {
    const user = req.user!;
    await this.dataSource.transaction(async (manager) => {
      const group = await this.readable(manager, id, user, true);
      const before = audited(group);
      await this.apply(manager, group, action, user.email, minutes);
      await this.audit.record(
        req,
        { action: `alert-group.${action}`, targetType: 'alert_group', targetId: String(id), before, after: audited(group) },
        manager,
      );
    });
    return this.one(id, user);
  }

  /** An acknowledgement through a message's signed link: by the person it went to, or "via <channel>". */
  async acknowledgeByLink(id: number, to: AckRecipient): Promise<AlertGroupEntity | null | 'gone'> {
    // a link of a deactivated or deleted account, or of a deleted channel, acts no more
    const user = to.kind === 'user' ? await this.dataSource.getRepository(UserEntity).findOneBy({ id: to.id }) : null;
    const channel = to.kind === 'channel' ? (await this.outbox.channels(this.dataSource.manager, [to.id]))[0] : undefined;
    if (to.kind === 'user' ? !user?.isActive : !channel) return 'gone';
    const by = user ? user.email : `via ${channel!.name}`;
    return this.dataSource.transaction(async (manager) => {
      const group = await manager.getRepository(AlertGroupEntity).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!group || group.state === 'resolved') return null;
      if (group.state !== 'acknowledged') {
        const before = audited(group);
        await this.apply(manager, group, 'acknowledge', by, 0);
        // no session: the link's recipient is the actor, named in the entry
        await this.audit.record(
          null,
          {
            action: 'alert-group.acknowledge',
            targetType: 'alert_group',
            targetId: String(id),
            before,
            after: { ...audited(group), by, via: 'link' },
          },
          manager,
        );
      }
      return group;
    });
  }

  async find(id: number): Promise<AlertGroupEntity | null> {
    return this.dataSource.getRepository(AlertGroupEntity).findOneBy({ id });
  }

  private async apply(manager: EntityManager, group: AlertGroupEntity, action: GroupAction, by: string, minutes: number) {
    if (group.state === 'resolved') throw new ConflictException(`Alert group ${group.id} is resolved`);
    const now = new Date();
    switch (action) {
      case 'acknowledge':
        if (group.state === 'acknowledged') return;
        Object.assign(group, { state: 'acknowledged', acknowledgedAt: now, acknowledgedBy: by, nextStepAt: null, silencedUntil: null });
        await this.journal.entry(manager, group, { kind: 'acknowledged', text: `Acknowledged by ${by}`, actor: by });
        await this.journal.save(manager, group);
        return this.journal.raise(manager, group, 'alert_group.acknowledged', { by });
      case 'unacknowledge':
        if (group.state !== 'acknowledged') throw new ConflictException(`Alert group ${group.id} is not acknowledged`);
        // the escalation starts again from its first step, now
        Object.assign(group, { state: 'firing', acknowledgedAt: null, acknowledgedBy: null, nextStep: 0, nextStepAt: now });
        await this.journal.entry(manager, group, {
          kind: 'unacknowledged',
          text: `Un-acknowledged by ${by}: the escalation starts again`,
          actor: by,
        });
        return this.journal.save(manager, group);
      case 'resolve':
        Object.assign(group, { state: 'resolved', resolvedAt: now, resolvedBy: by, nextStepAt: null });
        await this.journal.entry(manager, group, { kind: 'resolved', text: `Resolved by ${by}`, actor: by });
        await this.journal.save(manager, group);
        return this.journal.raise(manager, group, 'alert_group.resolved', { by });
      case 'silence': {
        const until = new Date(now.getTime() + minutes * 60_000);
        // the runner takes the group again when the silence ends, and escalates from the first step
        Object.assign(group, { state: 'silenced', silencedUntil: until, nextStep: 0, nextStepAt: until });
        await this.journal.entry(manager, group, { kind: 'silenced', text: `Silenced by ${by} until ${until.toISOString()}`, actor: by });
        return this.journal.save(manager, group);
      }
    }
  }

  private async readable(manager: EntityManager, id: number, user: SessionUser, lock = false): Promise<AlertGroupEntity> {
    const group = await manager
      .getRepository(AlertGroupEntity)
      .findOne({ where: { id }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
    if (!group) throw new NotFoundException(`No alert group with id ${id}`);
    if (!mayRead(user, group)) throw new ForbiddenException('Requires the domain_management permission for a domain’s alert groups');
    return group;
  }

  private async policiesOf(groups: AlertGroupEntity[]): Promise<Map<string, EscalationPolicyEntity>> {
    const ids = [...new Set(groups.flatMap((group) => (group.escalationPolicyId ? [group.escalationPolicyId] : [])))];
    const rows = ids.length ? await this.dataSource.getRepository(EscalationPolicyEntity).findBy({ id: In(ids) }) : [];
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Every message sent for the group, each named by whom it went to. */
  private async deliveriesOf(groupId: number): Promise<AlertGroupDeliveryView[]> {
    const sent = await this.outbox.ofAlertGroup(groupId);
    const people = sent.map(({ delivery }) => recipientOf(delivery.recipient));
    const methodIds = people.flatMap((to) => (to?.kind === 'contact' ? [to.id] : []));
    const methods = methodIds.length ? await this.dataSource.getRepository(ContactMethodEntity).findBy({ id: In(methodIds) }) : [];
    const userIds = [...people.flatMap((to) => (to?.kind === 'email' ? [to.userId] : [])), ...methods.map((method) => method.userId)];
    const users = userIds.length ? await this.dataSource.getRepository(UserEntity).findBy({ id: In(userIds) }) : [];
    const email = new Map(users.map((user) => [user.id, user.email]));
    return sent.map(({ delivery, channelName }, index) => {
      const to = people[index];
      const method = to?.kind === 'contact' ? methods.find((candidate) => candidate.id === to.id) : undefined;
      const name =
        channelName ??
        (to?.kind === 'email'
          ? (email.get(to.userId) ?? 'a deleted account')
          : method
            ? `${method.label} (${method.type}) of ${email.get(method.userId) ?? 'a deleted account'}`
            : 'a removed contact method');
      return {
        id: delivery.id,
        to: name,
        step: delivery.step,
        status: delivery.status,
        attempts: delivery.attempts,
        lastError: delivery.lastError,
        createdAt: delivery.createdAt.toISOString(),
        deliveredAt: delivery.deliveredAt ? delivery.deliveredAt.toISOString() : null,
      };
    });
  }
}
