// No schema library here: the notifications page imports these words, and a module with schemas would bring one along.
import type { AlertSeverity } from './domain-vocabulary';
import type { BreakerSource, BreakerTypeName } from './breaker-vocabulary';

/*
 * Notifications: events the hub raises (a breaker opening, a domain alert), rules that route them to channels
 * (e-mail, webhooks, chat), maintenance windows that mute them, and the deliveries the outbox makes.
 */

/** Where a notification goes. */
export const CHANNEL_TYPES = ['email', 'webhook', 'slack', 'discord', 'log'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/**
 * What a channel of each type is addressed by: e-mail its recipients, webhooks and chats a URL, and the log nothing
 * (each notification is one line of the API's own log, for trying rules out and for logs shipped elsewhere).
 */
export const CHANNEL_ADDRESS: Record<ChannelType, 'recipients' | 'url' | 'none'> = {
  email: 'recipients',
  webhook: 'url',
  slack: 'url',
  discord: 'url',
  log: 'none',
};

export const CHANNEL_TYPE_LABELS: Record<ChannelType, string> = {
  email: 'E-mail',
  webhook: 'Webhook',
  slack: 'Slack',
  discord: 'Discord',
  log: 'Log',
};

/** What a rule may subscribe to; `notification.test` is what "Send test" delivers, never routed by a rule. */
export const NOTIFICATION_EVENTS = [
  'breaker.opened',
  'breaker.recovered',
  'breaker.stuck_open',
  'breaker.flapping',
  'domain.alert.opened',
  'domain.alert.resolved',
  'release.rolled_back',
  'release.canary_failing',
  'incident.created',
  'incident.updated',
  'incident.resolved',
  'alert_group.acknowledged',
  'alert_group.escalated',
  'alert_group.resolved',
  'slo.burn_rate',
  'slo.budget_exhausted',
  'slo.recovered',
  'drill.started',
  'drill.finished',
] as const;
export type RuleEventType = (typeof NOTIFICATION_EVENTS)[number];
export const TEST_EVENT = 'notification.test' as const;
/**
 * One service's agents or scrape raised more than SERVICE_EVENTS_PER_MINUTE breaker events in a minute: the first
 * move past the cap raises this one event instead (the minute's later moves raise nothing; all are journalled). No
 * rule names it: it goes to the rules watching breaker.opened or breaker.recovered whose breaker filter lets that
 * service's breakers through.
 */
export const EVENTS_CAPPED_EVENT = 'breaker.events_capped' as const;
/** Breaker events one service's reported moves may raise in a minute. */
export const SERVICE_EVENTS_PER_MINUTE = 20;
/** A reported move received more than this many minutes after it happened is journalled, and raises no event. */
export const STALE_MOVE_MINUTES = 5;
export type RaisedEventType = RuleEventType | typeof EVENTS_CAPPED_EVENT;
export type NotificationEventType = RaisedEventType | typeof TEST_EVENT;
export const ALL_NOTIFICATION_EVENTS: readonly NotificationEventType[] = [...NOTIFICATION_EVENTS, EVENTS_CAPPED_EVENT, TEST_EVENT];

export const NOTIFICATION_EVENT_LABELS: Record<NotificationEventType, string> = {
  'breaker.opened': 'Breaker opened',
  'breaker.recovered': 'Breaker recovered',
  'breaker.stuck_open': 'Breaker stuck open',
  'breaker.flapping': 'Breaker flapping',
  'domain.alert.opened': 'Domain alert opened',
  'domain.alert.resolved': 'Domain alert resolved',
  'release.rolled_back': 'Release rolled back',
  'release.canary_failing': 'Canary failing',
  'incident.created': 'Incident opened',
  'incident.updated': 'Incident updated',
  'incident.resolved': 'Incident resolved',
  'alert_group.acknowledged': 'Alert group acknowledged',
  'alert_group.escalated': 'Alert group escalated',
  'alert_group.resolved': 'Alert group resolved',
  'slo.burn_rate': 'SLO burning its budget',
  'slo.budget_exhausted': 'SLO budget exhausted',
  'slo.recovered': 'SLO no longer burning',
  'drill.started': 'Drill started',
  'drill.finished': 'Drill finished',
  'breaker.events_capped': 'Breaker events capped',
  'notification.test': 'Test',
};

export function isDomainEvent(type: string): boolean {
  return type.startsWith('domain.');
}

export function isBreakerEvent(type: string): boolean {
  return type.startsWith('breaker.');
}

/**
 * What became of one delivery: pending (waiting for its first try or a retry), delivering (a replica holds it),
 * delivered, failed (final: 8 tries, or a 4xx other than 408/429), muted (a maintenance window covered it), or
 * suppressed (the rule already notified about this subject within its minimum interval).
 */
export const DELIVERY_STATUSES = ['pending', 'delivering', 'delivered', 'failed', 'muted', 'suppressed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const DELIVERY_STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Pending',
  delivering: 'Delivering',
  delivered: 'Delivered',
  failed: 'Failed',
  muted: 'Muted',
  suppressed: 'Suppressed',
};

/** Tries of one delivery at most: the first and seven retries. */
export const DELIVERY_MAX_ATTEMPTS = 8;
/**
 * The wait before each retry, in seconds: doubling from 2 s for the first five, then longer, so that the eighth
 * try comes about an hour after the first (a receiver down for a deploy or an incident still gets its
 * notifications). Each wait is drawn within ±20 % (jitter), so retries of many deliveries do not arrive together.
 */
export const DELIVERY_RETRY_DELAYS_S = [2, 4, 8, 16, 32, 600, 2940] as const;
export const DELIVERY_RETRY_JITTER = 0.2;
/** A receiver that has not answered (body included) within this is a timeout, and retried. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** A webhook receiver should refuse a signed delivery whose timestamp is older than this (replays). */
export const WEBHOOK_REPLAY_WINDOW_S = 300;

/** The webhook headers, a public contract receivers depend on. */
export const WEBHOOK_HEADERS = {
  event: 'X-CBH-Event',
  delivery: 'X-CBH-Delivery',
  timestamp: 'X-CBH-Timestamp',
  signature: 'X-CBH-Signature',
} as const;

/** A rule's defaults: one notification per subject in 5 minutes; stuck after 15 minutes open; flapping past 5 openings in 10 minutes. */
export const RULE_DEFAULTS = {
  minIntervalMinutes: 5,
  stuckOpenMinutes: 15,
  flappingOpenings: 5,
  flappingMinutes: 10,
} as const;

export const NOTIFICATION_LIMITS = {
  channels: 100,
  rules: 200,
  windows: 200,
  recipients: 20,
  nameLength: 100,
  urlLength: 2000,
  secretLength: 200,
  filterItems: 100,
} as const;

/** GET /api/notification-deliveries: newest first, pages of 50 (at most 200). */
export const DELIVERY_PAGE_LIMITS = { default: 50, max: 200 } as const;

/** A secret kept by the hub is never sent back: views say whether one is set, shown as this. */
export const SECRET_SET_TEXT = '••• set';

/** In an exported document a channel's URL and secret are references the client fills from its environment. */
export const ENV_REFERENCE = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;

/**
 * An entry of a rule's breaker filter: the name of one of the hub's own breakers (as before breakers of other
 * services existed), or `agent:<service>/<name>` / `scrape:<service>/<name>` for a breaker an agent reports or a
 * scrape target exposes, so that a service reporting a breaker named like one of the hub's does not set off the
 * hub's rules. Names compare whatever their letter case.
 */
export interface BreakerRef {
  source: BreakerSource;
  service: string | null;
  name: string;
}
const QUALIFIED_BREAKER = /^(agent|scrape):([a-z0-9-]{1,64})\/(.+)$/;

export function parseBreakerRef(entry: string): BreakerRef {
  const match = QUALIFIED_BREAKER.exec(entry);
  return match ? { source: match[1] as BreakerSource, service: match[2]!, name: match[3]! } : { source: 'hub', service: null, name: entry };
}

/** How a rule's breaker filter names a breaker. */
export function breakerRefOf(breaker: { source: BreakerSource; service: string | null; name: string }): string {
  return breaker.source === 'hub' || breaker.service === null ? breaker.name : `${breaker.source}:${breaker.service}/${breaker.name}`;
}

/** What an event is about: a breaker, a domain, a remote (its releases), a status page (its incidents), an alert group or an SLO. */
export type NotificationSubjectKind = 'breaker' | 'domain' | 'remote' | 'status_page' | 'alert_group' | 'slo' | 'drill';

/**
 * `maintenance.scheduled`: a maintenance window that covers a status page's components, active now or starting within
 * 14 days, told once per page and span. No rule names it: it goes to the page's subscribers.
 */
export const MAINTENANCE_SCHEDULED_EVENT = 'maintenance.scheduled' as const;

export interface ChannelView {
  id: string;
  name: string;
  type: ChannelType;
  /** E-mail addresses (email channels); never a secret. */
  recipients: string[];
  /** Whether a URL is kept (webhook, Slack, Discord); the URL itself is never sent back. */
  urlSet: boolean;
  /** The URL's host, so people tell channels apart; no path or query (they hold the credentials). */
  urlHost: string | null;
  secretSet: boolean;
  createdAt: string;
  updatedAt: string;
  lastDelivery: { status: DeliveryStatus; at: string; statusCode: number | null } | null;
}

export interface RuleView {
  id: string;
  name: string;
  enabled: boolean;
  events: RuleEventType[];
  channelIds: string[];
  /** the escalation policy the rule's events open alert groups under, besides or instead of its channels */
  escalationPolicyId: string | null;
  breakers: string[];
  breakerTypes: BreakerTypeName[];
  domains: string[];
  severities: AlertSeverity[];
  minIntervalMinutes: number;
  stuckOpenMinutes: number;
  flappingOpenings: number;
  flappingMinutes: number;
  createdAt: string;
}

export interface MaintenanceWindowView {
  id: string;
  name: string;
  startsAt: string;
  endsAt: string;
  repeatWeekly: boolean;
  /** Breakers and domains it mutes, by name; both empty: everything. */
  breakers: string[];
  domains: string[];
  /** Whether it mutes now. */
  active: boolean;
  createdAt: string;
}

export interface DeliveryView {
  id: string;
  event: NotificationEventType;
  subject: string;
  /** The breaker a breaker event is about (its `data.breaker.id`); null for other events. Names repeat across services, ids do not. */
  breakerId: number | null;
  channelId: string;
  channelName: string;
  ruleId: string | null;
  ruleName: string | null;
  status: DeliveryStatus;
  attempts: number;
  statusCode: number | null;
  durationMs: number | null;
  lastError: string | null;
  occurredAt: string;
  createdAt: string;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
}

export interface DeliveryPage {
  items: DeliveryView[];
  /** The cursor of the next (older) page, or null at the end. */
  nextBefore: string | null;
}

/** POST /api/notification-channels/{id}/test: what the receiver answered, or why it could not. */
export interface TestDeliveryView {
  deliveryId: string;
  status: 'delivered' | 'failed';
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

// The rules a channel's and a window's fields must follow together: the API's schemas and the screens' forms share them.

/** One problem with a channel's fields, placed at the field. */
export interface FieldProblem {
  path: string;
  message: string;
}

/**
 * What each type of channel needs: e-mail its recipients, webhooks and chats a URL, the log nothing; a secret signs
 * webhooks only. On creation the URL or recipients are required; on an update (the type being the stored one) only
 * what is sent is judged.
 */
export function channelFieldProblems(
  type: ChannelType,
  channel: { url?: string | null; recipients?: string[]; secret?: string | null },
  creating: boolean,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const address = CHANNEL_ADDRESS[type];
  if (address === 'recipients' && creating && !channel.recipients?.length)
    problems.push({ path: 'recipients', message: 'name at least one address' });
  if (address === 'url' && creating && !channel.url) problems.push({ path: 'url', message: 'is required' });
  if (address !== 'url' && channel.url) problems.push({ path: 'url', message: 'is for webhook, Slack and Discord channels' });
  if (address !== 'recipients' && channel.recipients?.length) problems.push({ path: 'recipients', message: 'are for e-mail channels' });
  if (channel.secret && type !== 'webhook') problems.push({ path: 'secret', message: 'signs webhook channels only' });
  return problems;
}

/** The end after the start, and at most a week later when it repeats weekly (longer would overlap itself). */
export function windowProblems(window: { startsAt: string; endsAt: string; repeatWeekly: boolean }): FieldProblem[] {
  const length = Date.parse(window.endsAt) - Date.parse(window.startsAt);
  if (length <= 0) return [{ path: 'endsAt', message: 'must be after the start' }];
  if (window.repeatWeekly && length > 7 * 24 * 3600_000) {
    return [{ path: 'endsAt', message: 'must be at most a week after the start when it repeats weekly' }];
  }
  return [];
}

export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}
