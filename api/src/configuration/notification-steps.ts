import { BadRequestException, ForbiddenException, HttpException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  CHANNEL_ADDRESS,
  ALERT_SEVERITIES,
  BREAKER_TYPES,
  channelVariableStems,
  envReference,
  hasPermission,
  isDomainEvent,
  isEnvReference,
  NOTIFICATION_EVENTS,
  NOTIFICATION_LISTS,
  type ChannelItem,
  type ConfigDocument,
  type MaintenanceWindowItem,
  type NotificationRuleItem,
  type UpdateChannel,
  type UpdateRule,
  type UpdateWindow,
} from '@cbh/contracts';
import { type AppRequest, requirePermission } from '../identity';
import { movesOrigin } from '../platform';
import {
  type NotificationChannelEntity,
  type NotificationConfiguration,
  type NotificationRuleEntity,
  type NotificationSettingsService,
  windowSettings,
} from '../notifications';
import { byName, key, unchanged, type Step } from './steps';

/*
 * Notification channels, rules and maintenance windows in the configuration document. Who may: circuit_breaker_admin
 * manages them by hand, so an export holds them only for its holders and an import with any of their lists needs it;
 * a rule routing domain alerts also needs domain_management, to read and to change (as by hand), and is left out of
 * the export of, and left alone by a prune of, anyone without it.
 */

type NotificationLists = Pick<ConfigDocument, (typeof NOTIFICATION_LISTS)[number]>;

/** Whether the caller may see and change a rule with these events. */
const mayRoute = (req: AppRequest, events: readonly string[]) =>
  !events.some(isDomainEvent) || hasPermission(req.user, 'domain_management');

/** A document naming notification items is refused (403) to an account without circuit_breaker_admin, before anything is read. */
export function mayImportNotifications(req: AppRequest, document: ConfigDocument) {
  if (hasNotificationLists(document)) {
    requirePermission(req, 'circuit_breaker_admin', { purpose: 'to import notification channels, rules and maintenance windows' });
  }
}

export const hasNotificationLists = (document: ConfigDocument) => NOTIFICATION_LISTS.some((list) => document[list] !== undefined);

/**
 * The notification lists as an export writes them, keys always in the same order: a channel's URL and secret only ever
 * as references to the variables CBH_CHANNEL_<NAME>_URL and _SECRET, every setting of a rule written out, its
 * channels by name, each list of values in one order.
 */
export function exportNotifications(
  req: AppRequest,
  configuration: NotificationConfiguration,
  policyNames: ReadonlyMap<string, string>,
): Required<NotificationLists> {
  const stems = channelVariableStems(configuration.channels.map(({ row }) => row.name));
  const channelNames = new Map(configuration.channels.map(({ row }) => [row.id, row.name]));
  return {
    channels: configuration.channels.map(({ row }) => channelItem(row, stems.get(row.name)!)).sort(byName),
    notificationRules: configuration.rules
      .filter(({ row }) => mayRoute(req, row.events))
      .map(({ row, channelIds }) => ruleItem(row, channelIds, channelNames, policyNames))
      .sort(byName),
    maintenanceWindows: configuration.windows.map(windowSettings).sort(byName),
  };
}

function channelItem(row: NotificationChannelEntity, stem: string): ChannelItem {
  return {
    name: row.name,
    type: row.type,
    ...(CHANNEL_ADDRESS[row.type] === 'recipients' ? { recipients: row.recipients } : {}),
    ...(CHANNEL_ADDRESS[row.type] === 'url' ? { url: envReference(`${stem}_URL`) } : {}),
    ...(row.secretSealed !== null ? { secret: envReference(`${stem}_SECRET`) } : {}),
  };
}

/** The values of a list that a vocabulary holds, in the vocabulary's order: the same set, written the same way. */
const inOrder = <T extends string>(values: readonly T[], vocabulary: readonly T[]): T[] =>
  vocabulary.filter((value) => values.includes(value));

function ruleItem(
  row: NotificationRuleEntity,
  channelIds: string[],
  channelNames: Map<string, string>,
  policyNames: ReadonlyMap<string, string>,
): NotificationRuleItem {
  const policy = row.escalationPolicyId ? policyNames.get(row.escalationPolicyId) : undefined;
  return {
    name: row.name,
    enabled: row.enabled,
    events: inOrder(row.events, NOTIFICATION_EVENTS),
    channels: channelIds.flatMap((id) => channelNames.get(id) ?? []).sort((a, b) => byName({ name: a }, { name: b })),
    ...(policy ? { escalationPolicy: policy } : {}),
    breakers: row.breakers,
    breakerTypes: inOrder(row.breakerTypes, BREAKER_TYPES),
    domains: row.domains,
    severities: inOrder(row.severities, ALERT_SEVERITIES),
    minIntervalMinutes: row.minIntervalMinutes,
    stuckOpenMinutes: row.stuckOpenMinutes,
    flappingOpenings: row.flappingOpenings,
    flappingMinutes: row.flappingMinutes,
  };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((value, index) => value === b[index]);
const sameSet = (a: readonly string[], b: readonly string[]) => {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((value) => right.has(value));
};

/** A reference the client left unfilled, where the hub has nothing to keep: the place, and what to do. */
function unfilled(place: string, reference: string, what: string, why = '') {
  return new BadRequestException(`${place}: ${reference} is not set where the document was read${why}: set it or give the ${what}`);
}

/** The escalation policies a rule may name: the hub's by id, and a name's id once the on-call steps ran. */
export interface RulePolicies {
  names: ReadonlyMap<string, string>;
  idIn(manager: EntityManager, name: string): Promise<string | null>;
}

/**
 * The steps of a document's notification lists, planned against what the hub has: deletions (with prune, of the
 * lists the document has) before creations, channels before the rules that name them. A list the document lacks is
 * left alone. The hub never fills in a reference `${env:…}`: left in the document, it keeps a channel's URL or
 * secret as they are, and is refused where there is nothing to keep.
 */
export class NotificationSteps {
  /** Each channel's id by name once the earlier steps ran: the rules' steps look theirs up here. */
  private readonly channelIds: Map<string, string>;

  constructor(
    private readonly settings: NotificationSettingsService,
    private readonly req: AppRequest,
    private readonly document: ConfigDocument,
    private readonly hub: NotificationConfiguration,
    private readonly prune: boolean,
    private readonly policies: RulePolicies,
  ) {
    this.channelIds = new Map(hub.channels.map(({ row }) => [key(row.name), row.id]));
  }

  /**
   * Deletions, then channels and windows; the rules apart (`rules`): they name escalation policies, which the on-call
   * steps create after the channels their steps name, so the rules' steps run after those.
   */
  plan(): { deleted: Step[]; kept: Step[]; rules: Step[] } {
    const channels = this.channels();
    const rules = this.rules();
    const windows = this.windows();
    return {
      deleted: [...rules.deleted, ...windows.deleted, ...channels.deleted],
      kept: [...channels.kept, ...windows.kept],
      rules: rules.kept,
    };
  }

  private channels() {
    const items = this.document.channels;
    if (!items) return { kept: [], deleted: [] };
    const existing = new Map(this.hub.channels.map((channel) => [key(channel.row.name), channel]));
    const kept = items.map((item, index): Step => {
      const place = `channels[${index}]`;
      const label = `${place} (${item.name})`;
      const current = existing.get(key(item.name));
      if (!current) {
        if (isEnvReference(item.url)) throw unfilled(`${place}.url`, item.url, 'URL');
        if (isEnvReference(item.secret)) throw unfilled(`${place}.secret`, item.secret, 'secret');
        const { url, secret } = item;
        return {
          change: { kind: 'channel', name: item.name, action: 'create' },
          label,
          check: url === undefined ? undefined : () => this.judge(place, url),
          apply: async (manager) => {
            const created = await this.settings.createChannelIn(manager, this.req, { ...item, url, secret });
            this.channelIds.set(key(created.name), created.id);
          },
        };
      }
      const { row } = current;
      if (row.type !== item.type) {
        throw new BadRequestException(
          `${place}.type: the hub's channel ${row.name} is a ${row.type} channel, and a channel's type cannot change (give the ${item.type} channel another name)`,
        );
      }
      const patch: UpdateChannel = {};
      if (item.name !== row.name) patch.name = item.name;
      // a reference left unfilled keeps the URL the hub has
      if (item.url !== undefined && !isEnvReference(item.url) && item.url !== current.url) patch.url = item.url;
      if (CHANNEL_ADDRESS[item.type] === 'recipients' && !sameList(item.recipients ?? [], row.recipients))
        patch.recipients = item.recipients;
      // the secret signs for the URL's origin: one moving elsewhere keeps it only when the document gives it again
      const moves = patch.url !== undefined && row.secretSealed !== null && (current.url === null || movesOrigin(current.url, patch.url));
      if (item.secret === undefined) {
        if (row.secretSealed !== null) patch.secret = null;
      } else if (isEnvReference(item.secret)) {
        if (row.secretSealed === null) throw unfilled(`${place}.secret`, item.secret, 'secret', ", and the hub's channel has none to keep");
        if (moves) {
          throw new BadRequestException(
            `${place}.secret: ${item.secret} is not set where the document was read, and the URL moves to ${new URL(patch.url!).origin}: the hub's secret goes to another origin only when given again`,
          );
        }
      } else if (item.secret !== current.secret || moves) {
        patch.secret = item.secret;
      }
      const fields = Object.keys(patch);
      if (fields.length === 0) return unchanged('channel', row.name, label);
      const url = patch.url;
      return {
        change: { kind: 'channel', name: item.name, action: 'update', fields },
        label,
        check: url === undefined ? undefined : () => this.judge(place, url),
        apply: async (manager) => {
          await this.settings.updateChannelIn(manager, this.req, row.id, patch);
        },
      };
    });
    const named = new Set(items.map((item) => key(item.name)));
    const deleted = this.prune
      ? this.hub.channels
          .filter(({ row }) => !named.has(key(row.name)))
          .map(({ row }) => row)
          .sort(byName)
          .map((row): Step => ({
            change: { kind: 'channel', name: row.name, action: 'delete' },
            label: `channel ${row.name}`,
            apply: (manager) => this.settings.deleteChannelIn(manager, this.req, row.id),
          }))
      : [];
    return { kept, deleted };
  }

  private rules() {
    const items = this.document.notificationRules;
    if (!items) return { kept: [], deleted: [] };
    const existing = new Map(this.hub.rules.map((rule) => [key(rule.row.name), rule]));
    const channelNames = new Map(this.hub.channels.map(({ row }) => [row.id, row.name]));
    // a rule may name a channel of the document, or one the hub keeps (every channel, unless pruning the channels)
    const nameable = new Set([
      ...(this.document.channels ?? []).map((channel) => key(channel.name)),
      ...(this.prune && this.document.channels ? [] : this.hub.channels.map(({ row }) => key(row.name))),
    ]);
    const policyNames = new Set([
      ...(this.document.escalationPolicies ?? []).map((policy) => key(policy.name)),
      ...(this.prune && this.document.escalationPolicies ? [] : [...this.policies.names.values()].map(key)),
    ]);
    const kept = items.map((item, index): Step => {
      const place = `notificationRules[${index}]`;
      const label = `${place} (${item.name})`;
      item.channels.forEach((name, at) => {
        if (!nameable.has(key(name))) throw new BadRequestException(`${place}.channels[${at}]: no channel named '${name}'`);
      });
      if (item.escalationPolicy !== undefined && !policyNames.has(key(item.escalationPolicy)))
        throw new BadRequestException(`${place}.escalationPolicy: no escalation policy named '${item.escalationPolicy}'`);
      const policyId = (manager: EntityManager) =>
        item.escalationPolicy ? this.policies.idIn(manager, item.escalationPolicy) : Promise.resolve(null);
      const current = existing.get(key(item.name));
      if (!mayRoute(this.req, item.events) || (current && !mayRoute(this.req, current.row.events))) {
        throw new ForbiddenException(`${label}: Requires the domain_management permission to notify about domain events`);
      }
      const wanted = [...new Map(item.channels.map((name) => [key(name), name])).keys()];
      const channelIds = () => wanted.map((name) => this.channelIds.get(name)!);
      const { channels: _names, escalationPolicy: _policy, ...settings } = item;
      if (!current) {
        return {
          change: { kind: 'notificationRule', name: item.name, action: 'create' },
          label,
          apply: async (manager) => {
            await this.settings.createRuleIn(manager, this.req, {
              ...settings,
              channelIds: channelIds(),
              escalationPolicyId: await policyId(manager),
            });
          },
        };
      }
      const { row } = current;
      const had = current.channelIds.flatMap((id) => channelNames.get(id) ?? []).map(key);
      const differs: Record<keyof NotificationRuleItem, boolean> = {
        name: item.name !== row.name,
        enabled: item.enabled !== row.enabled,
        events: !sameSet(item.events, row.events),
        channels: !sameSet(wanted, had),
        escalationPolicy: key(item.escalationPolicy ?? '') !== key(this.policies.names.get(row.escalationPolicyId ?? '') ?? ''),
        breakers: !sameList(item.breakers, row.breakers),
        breakerTypes: !sameSet(item.breakerTypes, row.breakerTypes),
        domains: !sameList(item.domains, row.domains),
        severities: !sameSet(item.severities, row.severities),
        minIntervalMinutes: item.minIntervalMinutes !== row.minIntervalMinutes,
        stuckOpenMinutes: item.stuckOpenMinutes !== row.stuckOpenMinutes,
        flappingOpenings: item.flappingOpenings !== row.flappingOpenings,
        flappingMinutes: item.flappingMinutes !== row.flappingMinutes,
      };
      const fields = (Object.keys(differs) as (keyof NotificationRuleItem)[]).filter((field) => differs[field]);
      if (fields.length === 0) return unchanged('notificationRule', row.name, label);
      return {
        change: { kind: 'notificationRule', name: item.name, action: 'update', fields },
        label,
        apply: async (manager) => {
          const patch: UpdateRule = Object.fromEntries(
            fields
              .filter((field) => field !== 'channels' && field !== 'escalationPolicy')
              .map((field) => [field, settings[field as keyof typeof settings]]),
          );
          if (differs.channels) patch.channelIds = channelIds();
          if (differs.escalationPolicy) patch.escalationPolicyId = await policyId(manager);
          await this.settings.updateRuleIn(manager, this.req, row.id, patch);
        },
      };
    });
    const named = new Set(items.map((item) => key(item.name)));
    const deleted = this.prune
      ? this.hub.rules
          // a rule the caller may not see was not in their export: their prune leaves it alone
          .filter(({ row }) => !named.has(key(row.name)) && mayRoute(this.req, row.events))
          .map(({ row }) => row)
          .sort(byName)
          .map((row): Step => ({
            change: { kind: 'notificationRule', name: row.name, action: 'delete' },
            label: `notification rule ${row.name}`,
            apply: (manager) => this.settings.deleteRuleIn(manager, this.req, row.id),
          }))
      : [];
    return { kept, deleted };
  }

  private windows() {
    const items = this.document.maintenanceWindows;
    if (!items) return { kept: [], deleted: [] };
    const existing = new Map(this.hub.windows.map((row) => [key(row.name), row]));
    const kept = items.map((item, index): Step => {
      const label = `maintenanceWindows[${index}] (${item.name})`;
      const row = existing.get(key(item.name));
      if (!row) {
        return {
          change: { kind: 'maintenanceWindow', name: item.name, action: 'create' },
          label,
          apply: async (manager) => {
            await this.settings.createWindowIn(manager, this.req, item);
          },
        };
      }
      const differs: Record<keyof MaintenanceWindowItem, boolean> = {
        name: item.name !== row.name,
        startsAt: Date.parse(item.startsAt) !== row.startsAt.getTime(),
        endsAt: Date.parse(item.endsAt) !== row.endsAt.getTime(),
        repeatWeekly: item.repeatWeekly !== row.repeatWeekly,
        breakers: !sameList(item.breakers, row.breakers),
        domains: !sameList(item.domains, row.domains),
      };
      const fields = (Object.keys(differs) as (keyof MaintenanceWindowItem)[]).filter((field) => differs[field]);
      if (fields.length === 0) return unchanged('maintenanceWindow', row.name, label);
      return {
        change: { kind: 'maintenanceWindow', name: item.name, action: 'update', fields },
        label,
        apply: async (manager) => {
          const patch: UpdateWindow = Object.fromEntries(fields.map((field) => [field, item[field]]));
          await this.settings.updateWindowIn(manager, this.req, row.id, patch);
        },
      };
    });
    const named = new Set(items.map((item) => key(item.name)));
    const deleted = this.prune
      ? this.hub.windows
          .filter((row) => !named.has(key(row.name)))
          .sort(byName)
          .map((row): Step => ({
            change: { kind: 'maintenanceWindow', name: row.name, action: 'delete' },
            label: `maintenance window ${row.name}`,
            apply: (manager) => this.settings.deleteWindowIn(manager, this.req, row.id),
          }))
      : [];
    return { kept, deleted };
  }

  /** A URL given in the document passes the outbound-address guard, as one given by hand: a refusal names its place. */
  private async judge(place: string, url: string) {
    try {
      await this.settings.judgeUrl(url);
    } catch (error) {
      if (error instanceof HttpException) throw new BadRequestException(`${place}.${error.message}`);
      throw error;
    }
  }
}
