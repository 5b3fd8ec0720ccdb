import { BadRequestException, ConflictException, ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import {
  channelFieldProblems,
  isDomainEvent,
  NOTIFICATION_LIMITS,
  windowProblems,
  type ChannelView,
  CHANNEL_ADDRESS,
  type CreateChannel,
  type CreateRule,
  type CreateWindow,
  type MaintenanceWindowView,
  type RuleView,
  type UpdateChannel,
  type UpdateRule,
  type UpdateWindow,
} from '@cbh/contracts';
import { type AppRequest, AuditService } from '../identity';
import { APP_CONFIG, type AppConfig, judgeTargetUrl, withUniqueName } from '../platform';
import { MaintenanceWindowEntity } from './entities/maintenance-window.entity';
import { NotificationChannelEntity } from './entities/notification-channel.entity';
import { NotificationRuleChannelEntity, NotificationRuleEntity } from './entities/notification-rule.entity';
import { ChannelSecrets } from './channel-secrets';
import { mayMute, mayRouteEvents, readsDomainEvents } from './notification-access';
import { auditedChannel, channelView, ruleView, windowView } from './notification-views';
import { refuseSilentRule, withKnownPolicy } from './rule-policy';
import { NotificationsRepository } from './notifications.repository';

export { readsDomainEvents } from './notification-access';

/**
 * Every channel, rule and window, as configuration as code reads them: each channel with its URL and secret opened
 * (null when it has none, or it was sealed under another server secret), to compare a document's with; never to send.
 */
export interface NotificationConfiguration {
  channels: { row: NotificationChannelEntity; url: string | null; secret: string | null }[];
  rules: { row: NotificationRuleEntity; channelIds: string[] }[];
  windows: MaintenanceWindowEntity[];
}

/**
 * Channels, rules and maintenance windows: who may change them is the controller's; what each may hold is here.
 * Every change is audited; a channel's URL and secret are sealed before they are stored and never returned.
 */
@Injectable()
export class NotificationSettingsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    private readonly secrets: ChannelSecrets,
    private readonly repository: NotificationsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  // ---- channels

  /** Each channel with its last delivery (of the events the reader may read: domain alerts with domain_management). */
  async listChannels(req: AppRequest): Promise<ChannelView[]> {
    const rows = await this.dataSource.getRepository(NotificationChannelEntity).find({ order: { name: 'ASC' } });
    const last = await this.repository.lastDeliveries(
      rows.map((row) => row.id),
      readsDomainEvents(req),
    );
    return rows.map((row) => channelView(row, last.get(row.id) ?? null));
  }

  async channel(req: AppRequest, id: string): Promise<ChannelView> {
    const row = await this.findChannel(this.dataSource.manager, id);
    const last = await this.repository.lastDeliveries([id], readsDomainEvents(req));
    return channelView(row, last.get(id) ?? null);
  }

  async createChannel(req: AppRequest, body: CreateChannel): Promise<ChannelView> {
    if (body.url) await this.judgeUrl(body.url);
    const view = await this.dataSource.transaction((manager) => this.createChannelIn(manager, req, body));
    return view;
  }

  async createChannelIn(manager: EntityManager, req: AppRequest | null, body: CreateChannel): Promise<ChannelView> {
    const count = await manager.getRepository(NotificationChannelEntity).count();
    if (count >= NOTIFICATION_LIMITS.channels) throw new ConflictException(`At most ${NOTIFICATION_LIMITS.channels} channels`);
    const row = await withUniqueName('channel', body.name, () =>
      manager.getRepository(NotificationChannelEntity).save({
        name: body.name,
        type: body.type,
        recipients: CHANNEL_ADDRESS[body.type] === 'recipients' ? (body.recipients ?? []) : [],
        urlSealed: body.url ? this.secrets.seal(body.url) : null,
        urlHost: body.url ? new URL(body.url).host : null,
        secretSealed: body.secret ? this.secrets.seal(body.secret) : null,
        createdBy: req?.user?.id ?? null,
      }),
    );
    const view = channelView(row, null);
    await this.audit.record(
      req,
      { action: 'notification-channel.create', targetType: 'notification_channel', targetId: row.id, after: auditedChannel(view) },
      manager,
    );
    return view;
  }

  async updateChannel(req: AppRequest, id: string, patch: UpdateChannel): Promise<ChannelView> {
    if (patch.url) await this.judgeUrl(patch.url);
    return this.dataSource.transaction((manager) => this.updateChannelIn(manager, req, id, patch));
  }

  async updateChannelIn(manager: EntityManager, req: AppRequest | null, id: string, patch: UpdateChannel): Promise<ChannelView> {
    const row = await this.findChannel(manager, id, true);
    await this.mayChangeChannel(manager, req, id);
    const problem = channelFieldProblems(row.type, patch, false)[0];
    if (problem) throw new BadRequestException(`${problem.path}: ${problem.message}`);
    if (CHANNEL_ADDRESS[row.type] === 'recipients' && patch.recipients !== undefined && patch.recipients.length === 0) {
      throw new BadRequestException('recipients: name at least one address');
    }
    this.secrets.mayKeepSecret(row, patch);
    const before = auditedChannel(channelView(row, null));
    if (patch.name !== undefined) row.name = patch.name;
    if (patch.recipients !== undefined) row.recipients = patch.recipients;
    if (patch.url !== undefined) {
      row.urlSealed = this.secrets.seal(patch.url);
      row.urlHost = new URL(patch.url).host;
    }
    if (patch.secret !== undefined) row.secretSealed = patch.secret === null ? null : this.secrets.seal(patch.secret);
    const saved = await withUniqueName('channel', row.name, () => manager.getRepository(NotificationChannelEntity).save(row));
    const view = channelView(saved, null);
    await this.audit.record(
      req,
      { action: 'notification-channel.update', targetType: 'notification_channel', targetId: id, before, after: auditedChannel(view) },
      manager,
    );
    return view;
  }

  async deleteChannel(req: AppRequest, id: string): Promise<void> {
    await this.dataSource.transaction((manager) => this.deleteChannelIn(manager, req, id));
  }

  async deleteChannelIn(manager: EntityManager, req: AppRequest | null, id: string): Promise<void> {
    const row = await this.findChannel(manager, id, true);
    await this.mayChangeChannel(manager, req, id);
    await manager.getRepository(NotificationChannelEntity).delete({ id });
    await this.audit.record(
      req,
      {
        action: 'notification-channel.delete',
        targetType: 'notification_channel',
        targetId: id,
        before: auditedChannel(channelView(row, null)),
      },
      manager,
    );
  }

  // ---- rules

  /** The rules; those routing domain alerts only to readers who may read them (domain_management). */
  async listRules(req: AppRequest): Promise<RuleView[]> {
    const all = await this.dataSource.getRepository(NotificationRuleEntity).find({ order: { name: 'ASC' } });
    const rows = readsDomainEvents(req) ? all : all.filter((row) => !row.events.some(isDomainEvent));
    const channels = await this.ruleChannels(
      this.dataSource.manager,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ruleView(row, channels.get(row.id) ?? []));
  }

  async createRule(req: AppRequest, body: CreateRule): Promise<RuleView> {
    return this.dataSource.transaction((manager) => this.createRuleIn(manager, req, body));
  }

  async createRuleIn(manager: EntityManager, req: AppRequest | null, body: CreateRule): Promise<RuleView> {
    mayRouteEvents(req, body.events);
    const count = await manager.getRepository(NotificationRuleEntity).count();
    if (count >= NOTIFICATION_LIMITS.rules) throw new ConflictException(`At most ${NOTIFICATION_LIMITS.rules} rules`);
    const channelIds = await this.existingChannels(manager, body.channelIds);
    const { channelIds: _ids, ...fields } = body;
    const row = await withKnownPolicy(() =>
      withUniqueName('rule', body.name, () =>
        manager.getRepository(NotificationRuleEntity).save({ ...fields, createdBy: req?.user?.id ?? null }),
      ),
    );
    await manager.getRepository(NotificationRuleChannelEntity).insert(channelIds.map((channelId) => ({ ruleId: row.id, channelId })));
    const view = ruleView(row, channelIds);
    await this.audit.record(
      req,
      { action: 'notification-rule.create', targetType: 'notification_rule', targetId: row.id, after: view },
      manager,
    );
    return view;
  }

  async updateRule(req: AppRequest, id: string, patch: UpdateRule): Promise<RuleView> {
    return this.dataSource.transaction((manager) => this.updateRuleIn(manager, req, id, patch));
  }

  async updateRuleIn(manager: EntityManager, req: AppRequest | null, id: string, patch: UpdateRule): Promise<RuleView> {
    const row = await manager.getRepository(NotificationRuleEntity).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
    if (!row) throw new NotFoundException(`No notification rule with id ${id}`);
    const channelsBefore = (await this.ruleChannels(manager, [id])).get(id) ?? [];
    // whoever changes a rule that routes domain events must be allowed to read them, whatever the patch touches
    mayRouteEvents(req, [...row.events, ...(patch.events ?? [])]);
    const before = ruleView(row, channelsBefore);
    const { channelIds, ...fields } = patch;
    const definedFields = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    Object.assign(row, definedFields);
    const saved = await withKnownPolicy(() =>
      withUniqueName('rule', row.name, () => manager.getRepository(NotificationRuleEntity).save(row)),
    );
    let channels = channelsBefore;
    if (channelIds) {
      channels = await this.existingChannels(manager, channelIds);
      await manager.getRepository(NotificationRuleChannelEntity).delete({ ruleId: id });
      await manager.getRepository(NotificationRuleChannelEntity).insert(channels.map((channelId) => ({ ruleId: id, channelId })));
    }
    refuseSilentRule(channels, saved.escalationPolicyId);
    const view = ruleView(saved, channels);
    await this.audit.record(
      req,
      { action: 'notification-rule.update', targetType: 'notification_rule', targetId: id, before, after: view },
      manager,
    );
    return view;
  }

  async deleteRule(req: AppRequest, id: string): Promise<void> {
    await this.dataSource.transaction((manager) => this.deleteRuleIn(manager, req, id));
  }

  async deleteRuleIn(manager: EntityManager, req: AppRequest | null, id: string): Promise<void> {
    const row = await manager.getRepository(NotificationRuleEntity).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
    if (!row) throw new NotFoundException(`No notification rule with id ${id}`);
    mayRouteEvents(req, row.events);
    const channels = (await this.ruleChannels(manager, [id])).get(id) ?? [];
    await manager.getRepository(NotificationRuleEntity).delete({ id });
    await this.audit.record(
      req,
      { action: 'notification-rule.delete', targetType: 'notification_rule', targetId: id, before: ruleView(row, channels) },
      manager,
    );
  }

  // ---- maintenance windows

  async listWindows(now = new Date()): Promise<MaintenanceWindowView[]> {
    const rows = await this.dataSource.getRepository(MaintenanceWindowEntity).find({ order: { startsAt: 'ASC', name: 'ASC' } });
    return rows.map((row) => windowView(row, now));
  }

  async createWindow(req: AppRequest, body: CreateWindow): Promise<MaintenanceWindowView> {
    return this.dataSource.transaction((manager) => this.createWindowIn(manager, req, body));
  }

  async createWindowIn(manager: EntityManager, req: AppRequest | null, body: CreateWindow): Promise<MaintenanceWindowView> {
    mayMute(req, body);
    const count = await manager.getRepository(MaintenanceWindowEntity).count();
    if (count >= NOTIFICATION_LIMITS.windows) throw new ConflictException(`At most ${NOTIFICATION_LIMITS.windows} maintenance windows`);
    const row = await withUniqueName('maintenance window', body.name, () =>
      manager.getRepository(MaintenanceWindowEntity).save({
        ...body,
        startsAt: new Date(body.startsAt),
        endsAt: new Date(body.endsAt),
        createdBy: req?.user?.id ?? null,
      }),
    );
    const view = windowView(row);
    await this.audit.record(
      req,
      { action: 'maintenance-window.create', targetType: 'maintenance_window', targetId: row.id, after: view },
      manager,
    );
    return view;
  }

  async updateWindow(req: AppRequest, id: string, patch: UpdateWindow): Promise<MaintenanceWindowView> {
    return this.dataSource.transaction((manager) => this.updateWindowIn(manager, req, id, patch));
  }

  async updateWindowIn(manager: EntityManager, req: AppRequest | null, id: string, patch: UpdateWindow): Promise<MaintenanceWindowView> {
    const row = await manager.getRepository(MaintenanceWindowEntity).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
    if (!row) throw new NotFoundException(`No maintenance window with id ${id}`);
    mayMute(req, row);
    const before = windowView(row);
    const next = {
      startsAt: patch.startsAt ?? row.startsAt.toISOString(),
      endsAt: patch.endsAt ?? row.endsAt.toISOString(),
      repeatWeekly: patch.repeatWeekly ?? row.repeatWeekly,
    };
    const problem = windowProblems(next)[0];
    if (problem) throw new BadRequestException(`${problem.path}: ${problem.message}`);
    if (patch.name !== undefined) row.name = patch.name;
    if (patch.breakers !== undefined) row.breakers = patch.breakers;
    if (patch.domains !== undefined) row.domains = patch.domains;
    row.startsAt = new Date(next.startsAt);
    row.endsAt = new Date(next.endsAt);
    row.repeatWeekly = next.repeatWeekly;
    mayMute(req, row);
    const saved = await withUniqueName('maintenance window', row.name, () => manager.getRepository(MaintenanceWindowEntity).save(row));
    const view = windowView(saved);
    await this.audit.record(
      req,
      { action: 'maintenance-window.update', targetType: 'maintenance_window', targetId: id, before, after: view },
      manager,
    );
    return view;
  }

  async deleteWindow(req: AppRequest, id: string): Promise<void> {
    await this.dataSource.transaction((manager) => this.deleteWindowIn(manager, req, id));
  }

  async deleteWindowIn(manager: EntityManager, req: AppRequest | null, id: string): Promise<void> {
    const row = await manager.getRepository(MaintenanceWindowEntity).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
    if (!row) throw new NotFoundException(`No maintenance window with id ${id}`);
    mayMute(req, row);
    await manager.getRepository(MaintenanceWindowEntity).delete({ id });
    await this.audit.record(
      req,
      { action: 'maintenance-window.delete', targetType: 'maintenance_window', targetId: id, before: windowView(row) },
      manager,
    );
  }

  // ---- configuration as code

  /** Everything an export writes and an import compares with, read on the manager given (an import's transaction). */
  /** Every channel's id and name, nothing sealed opened: what names channels elsewhere (on-call steps) needs. */
  channelNamesIn(manager: EntityManager): Promise<{ id: string; name: string }[]> {
    return manager.getRepository(NotificationChannelEntity).find({ select: { id: true, name: true }, order: { name: 'ASC' } });
  }

  async configurationIn(manager: EntityManager): Promise<NotificationConfiguration> {
    // one after the other: in a transaction they share one connection
    const channels = await manager.getRepository(NotificationChannelEntity).find({ order: { name: 'ASC' } });
    const rules = await manager.getRepository(NotificationRuleEntity).find({ order: { name: 'ASC' } });
    const links = await this.ruleChannels(
      manager,
      rules.map((row) => row.id),
    );
    const windows = await manager.getRepository(MaintenanceWindowEntity).find({ order: { name: 'ASC' } });
    return {
      channels: channels.map((row) => {
        const { url, secret } = this.secrets.target(row);
        return { row, url, secret };
      }),
      rules: rules.map((row) => ({ row, channelIds: links.get(row.id) ?? [] })),
      windows,
    };
  }

  // ---- helpers

  /**
   * A channel URL is judged before it is kept (see judgeTargetUrl). The `*In` methods do not judge (they run in a
   * transaction): their callers judge first.
   */
  async judgeUrl(text: string) {
    const problem = await judgeTargetUrl(text, this.config.ALLOW_PRIVATE_TARGETS);
    if (problem) throw new BadRequestException(`url: ${problem}`);
  }

  /** Where a channel's alerts go is part of routing them: a channel a domain-alert rule uses needs domain_management. */
  private async mayChangeChannel(manager: EntityManager, req: AppRequest | null, channelId: string) {
    if (!req || readsDomainEvents(req)) return;
    const links = await manager.getRepository(NotificationRuleChannelEntity).find({ where: { channelId } });
    if (links.length === 0) return;
    const rules = await manager.getRepository(NotificationRuleEntity).find({ where: { id: In(links.map((link) => link.ruleId)) } });
    if (rules.some((rule) => rule.events.some(isDomainEvent))) {
      throw new ForbiddenException('Requires the domain_management permission: a rule sends domain alerts to this channel');
    }
  }

  private async existingChannels(manager: EntityManager, ids: string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    const found = await manager.getRepository(NotificationChannelEntity).find({ select: { id: true }, where: { id: In(unique) } });
    const known = new Set(found.map((row) => row.id));
    const missing = unique.find((id) => !known.has(id));
    if (missing) throw new BadRequestException(`channelIds: no channel with id ${missing}`);
    return unique;
  }

  private async ruleChannels(manager: EntityManager, ruleIds: string[]): Promise<Map<string, string[]>> {
    const byRule = new Map<string, string[]>();
    if (ruleIds.length === 0) return byRule;
    const rows = await manager.getRepository(NotificationRuleChannelEntity).find({ where: { ruleId: In(ruleIds) } });
    for (const row of rows) byRule.set(row.ruleId, [...(byRule.get(row.ruleId) ?? []), row.channelId]);
    return byRule;
  }

  private async findChannel(manager: EntityManager, id: string, lock = false): Promise<NotificationChannelEntity> {
    const row = await manager
      .getRepository(NotificationChannelEntity)
      .findOne({ where: { id }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
    if (!row) throw new NotFoundException(`No notification channel with id ${id}`);
    return row;
  }
}
