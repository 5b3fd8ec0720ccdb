import type { ChannelView, MaintenanceWindowItem, MaintenanceWindowView, RuleView } from '@cbh/contracts';
import type { MaintenanceWindowEntity } from './entities/maintenance-window.entity';
import type { NotificationChannelEntity } from './entities/notification-channel.entity';
import type { NotificationRuleEntity } from './entities/notification-rule.entity';
import { isWindowActive } from './maintenance';

/* The notification settings as the API shows them: a channel's URL and secret only as whether they are set. */

export function channelView(row: NotificationChannelEntity, lastDelivery: ChannelView['lastDelivery']): ChannelView {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    recipients: row.recipients,
    urlSet: row.urlSealed !== null,
    urlHost: row.urlHost,
    secretSet: row.secretSealed !== null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastDelivery,
  };
}

/** What the audit trail keeps of a channel: never its URL or secret. */
export function auditedChannel({ lastDelivery: _last, createdAt: _created, updatedAt: _updated, ...view }: ChannelView) {
  return view;
}

export function ruleView(row: NotificationRuleEntity, channelIds: string[]): RuleView {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    events: row.events,
    channelIds: [...channelIds].sort(),
    escalationPolicyId: row.escalationPolicyId ?? null,
    breakers: row.breakers,
    breakerTypes: row.breakerTypes,
    domains: row.domains,
    severities: row.severities,
    minIntervalMinutes: row.minIntervalMinutes,
    stuckOpenMinutes: row.stuckOpenMinutes,
    flappingOpenings: row.flappingOpenings,
    flappingMinutes: row.flappingMinutes,
    createdAt: row.createdAt.toISOString(),
  };
}

/** What a person sets of a window: its view's fields and, as they are, its item in the configuration document. */
export function windowSettings(row: MaintenanceWindowEntity): MaintenanceWindowItem {
  return {
    name: row.name,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    repeatWeekly: row.repeatWeekly,
    breakers: row.breakers,
    domains: row.domains,
  };
}

export function windowView(row: MaintenanceWindowEntity, now = new Date()): MaintenanceWindowView {
  return {
    id: row.id,
    ...windowSettings(row),
    active: isWindowActive(row, now),
    createdAt: row.createdAt.toISOString(),
  };
}
