import {
  DOMAIN_ALERT_TYPE_LABELS,
  isDomainEvent,
  NOTIFICATION_EVENT_LABELS,
  type BreakerEventData,
  type DomainEventData,
  type IncidentEventData,
  type NotificationEventType,
  type ReleaseEventData,
  type AlertGroupEventData,
  type SloEventData,
  type DrillEventData,
} from '@cbh/contracts';
import type { OutgoingNotification } from './channel-sender.types';

/** A notification in words, the same for every channel: each one lays these parts out its own way. */
export interface NotificationMessage {
  /** One line naming the breaker or domain and what became of it: the e-mail's subject, the chat message's heading. */
  title: string;
  /** What happened, in a sentence or two. */
  happened: string;
  /** When, as ISO time and in readable UTC. */
  when: string;
  /** The page of the breaker or domain. */
  url: string;
  /** An alert group's message: the signed link that acknowledges it (a confirmation page; only its button acts). */
  acknowledgeUrl?: string;
}

export const ACKNOWLEDGE_TEXT = 'Acknowledge';

export const LINK_TEXT = 'Open in Circuit Breaker Hub';

const readableUtc = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });

/** An ISO time and the same in words, so a reader need not decode the ISO form and a script still can. */
export function describeTime(iso: string): string {
  return `${iso} (${readableUtc.format(new Date(iso))} UTC)`;
}

type BreakerEvent = Extract<NotificationEventType, `breaker.${string}`>;
const isBreakerEvent = (type: NotificationEventType): type is BreakerEvent => type.startsWith('breaker.');

const minutes = (count: number) => `${count} minute${count === 1 ? '' : 's'}`;

function breakerMessage(type: BreakerEvent, data: BreakerEventData, occurredAt: string): Omit<NotificationMessage, 'when'> {
  // a service's breaker is named with its service, and a move with the instance it happened on
  const name = data.breaker.service ? `Breaker '${data.breaker.name}' of ${data.breaker.service}` : `Breaker '${data.breaker.name}'`;
  const on = data.instance ? ` on ${data.instance}` : '';
  const transition = data.from && data.to ? ` (${data.from} → ${data.to}${on})` : '';
  const because = data.reason ? `: ${data.reason}` : '';
  const lead = `${NOTIFICATION_EVENT_LABELS[type]}${transition}${because}`;
  const counted = data.openings !== undefined && data.minutes !== undefined;
  switch (type) {
    case 'breaker.opened':
      return { title: `${name} opened`, happened: lead, url: data.url };
    case 'breaker.recovered':
      return { title: `${name} recovered`, happened: lead, url: data.url };
    case 'breaker.stuck_open': {
      if (!data.openedAt) return { title: `${name} stuck open`, happened: lead, url: data.url };
      const open = Math.floor((Date.parse(occurredAt) - Date.parse(data.openedAt)) / 60_000);
      return {
        title: `${name} stuck open for ${minutes(open)}`,
        happened: `${lead}; open since ${describeTime(data.openedAt)}`,
        url: data.url,
      };
    }
    case 'breaker.events_capped': {
      const service = `${data.breaker.source === 'scrape' ? 'Scrape target' : 'Service'} ${data.breaker.service ?? ''}`;
      return {
        title: `${service} raised more than ${data.limit ?? 'its cap of'} breaker events this minute`,
        happened: `Breaker events capped: the moves its breakers reported past ${data.limit} in the minute from ${data.minute ?? occurredAt} raise no notification (the first was '${data.breaker.name}'${on}); every move is in the breakers' journals`,
        url: data.url,
      };
    }
    case 'breaker.flapping':
      return {
        title: counted ? `${name} flapping: ${data.openings} openings in ${minutes(data.minutes!)}` : `${name} flapping`,
        happened: counted ? `${lead}; opened ${data.openings} times in the last ${minutes(data.minutes!)}` : lead,
        url: data.url,
      };
  }
}

function domainMessage(type: NotificationEventType, { domain, alert, url }: DomainEventData): Omit<NotificationMessage, 'when'> {
  const kind = `${alert.severity}, ${DOMAIN_ALERT_TYPE_LABELS[alert.type] ?? alert.type}`;
  const where = type === 'domain.alert.resolved' ? `Domain alert resolved on ${domain.name}` : `Domain alert on ${domain.name}`;
  return { title: `${where}: ${alert.message} (${kind})`, happened: `${NOTIFICATION_EVENT_LABELS[type]} (${kind}): ${alert.message}`, url };
}

function incidentMessage(type: NotificationEventType, { page, incident, url }: IncidentEventData): Omit<NotificationMessage, 'when'> {
  const affected = incident.components.map((component) => `${component.name} (${component.state.replace('_', ' ')})`).join(', ');
  return {
    title: `${NOTIFICATION_EVENT_LABELS[type]} on ${page.title}: ${incident.title}`,
    happened: `${incident.status} (impact ${incident.impact})${affected ? `; ${affected}` : ''}: ${incident.message}`,
    url,
  };
}

/** The words of a notification, with the acknowledge link an alert group's message carries. */
export function describeNotification(notification: OutgoingNotification): NotificationMessage {
  const message = describeEvent(notification);
  const acknowledgeUrl = notification.data.alertGroup?.acknowledgeUrl;
  if (!acknowledgeUrl) return message;
  const step = notification.data.alertGroup?.step;
  return {
    ...message,
    title: `${message.title}${step ? ` (alert group ${notification.data.alertGroup!.id}, step ${step})` : ''}`,
    acknowledgeUrl,
  };
}

function alertGroupMessage(
  type: NotificationEventType,
  { alertGroup, by, step, url }: AlertGroupEventData,
): Omit<NotificationMessage, 'when'> {
  const what =
    type === 'alert_group.acknowledged'
      ? `acknowledged by ${by ?? 'someone'}`
      : type === 'alert_group.resolved'
        ? `resolved${by ? ` by ${by}` : ''}`
        : `escalated to step ${step ?? '?'}`;
  return {
    title: `Alert group ${alertGroup.id} ${what}: ${alertGroup.title}`,
    happened: `${NOTIFICATION_EVENT_LABELS[type]}: ${alertGroup.title}`,
    url,
  };
}

function sloMessage(type: NotificationEventType, data: SloEventData): Omit<NotificationMessage, 'when'> {
  const { slo } = data;
  const left = `${Math.round(data.errorBudgetRemaining * 1000) / 10} % of its error budget left`;
  const title =
    type === 'slo.burn_rate'
      ? `SLO ${slo.name} burning its budget ${(data.burnRate ?? 0).toFixed(1)}× over ${data.window} (${data.severity})`
      : type === 'slo.budget_exhausted'
        ? `SLO ${slo.name}: error budget exhausted`
        : `SLO ${slo.name} no longer burning`;
  return {
    title,
    happened: `${NOTIFICATION_EVENT_LABELS[type]}: ${slo.name}, target ${slo.target} % over ${slo.window}; ${left}`,
    url: data.url,
  };
}

function drillMessage(type: NotificationEventType, data: DrillEventData): Omit<NotificationMessage, 'when'> {
  const { drill } = data;
  const steps = data.steps.join('; ');
  if (type === 'drill.started') {
    return { title: `Drill ${drill.name} started`, happened: `Drill started by ${data.startedBy ?? 'someone'}: ${steps}`, url: data.url };
  }
  const how = drill.state === 'stopped' ? `stopped by ${data.stoppedBy ?? 'someone'}` : 'ran to its end';
  return {
    title: `Drill ${drill.name} finished: expectations ${drill.verdict}`,
    happened: `Drill finished (${how}), expectations ${drill.verdict}: ${steps}`,
    url: data.url,
  };
}

/** The words of a notification; its type says which of the data's shapes it carries. */
function describeEvent({ type, occurredAt, data }: OutgoingNotification): NotificationMessage {
  const when = describeTime(occurredAt);
  if (type.startsWith('alert_group.')) return { ...alertGroupMessage(type, data as AlertGroupEventData), when };
  if (isBreakerEvent(type)) return { ...breakerMessage(type, data as BreakerEventData, occurredAt), when };
  if (isDomainEvent(type)) return { ...domainMessage(type, data as DomainEventData), when };
  if (type === 'release.rolled_back') {
    const release = data as ReleaseEventData;
    const back = release.liveVersionId === null ? 'the deployed build' : `version ${release.liveVersionId}`;
    return {
      title: `Canary of ${release.remote} rolled back: version ${release.versionId}`,
      happened: `Release rolled back by itself, everyone back on ${back}: ${release.reason}`,
      url: release.url,
      when,
    };
  }
  if (type === 'release.canary_failing') {
    const release = data as ReleaseEventData;
    return {
      title: `Canary of ${release.remote} failing: version ${release.versionId}`,
      happened: `Canary failing, too few people yet to roll it back by itself: ${release.reason}`,
      url: release.url,
      when,
    };
  }
  if (type.startsWith('incident.')) return { ...incidentMessage(type, data as IncidentEventData), when };
  if (type.startsWith('slo.')) return { ...sloMessage(type, data as SloEventData), when };
  if (type.startsWith('drill.')) return { ...drillMessage(type, data as DrillEventData), when };
  const test = data as { message: string; url: string };
  return { title: 'Test notification from Circuit Breaker Hub', happened: test.message, url: test.url, when };
}

/** Cuts a text to a receiver's limit, marking the cut. */
function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Slack reads &, < and > as markup (links, mentions): a breaker name or alert message must show them as text. */
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A Slack incoming webhook's body: `text` for notifications and old clients, one mrkdwn section (at most 3,000 characters) for the rest. */
export function slackPayload(message: NotificationMessage): { text: string; blocks: unknown[] } {
  const link = `<${message.url}|${LINK_TEXT}>${message.acknowledgeUrl ? ` · <${message.acknowledgeUrl}|${ACKNOWLEDGE_TEXT}>` : ''}`;
  const lines = [`*${slackEscape(message.title)}*`, slackEscape(message.happened), `When: ${message.when}`];
  const section = `${clip(lines.join('\n'), 3000 - link.length - 1)}\n${link}`;
  return {
    text: `${clip(slackEscape(message.title), 2000)} ${link}`,
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: section } }],
  };
}

const DISCORD_COLORS = { problem: 0xd92d20, warning: 0xf79009, resolved: 0x12b76a, test: 0x2e90fa } as const;

function discordColor({ type, data }: OutgoingNotification): number {
  if (type === 'breaker.recovered' || type === 'domain.alert.resolved' || type === 'incident.resolved' || type === 'slo.recovered')
    return DISCORD_COLORS.resolved;
  if (type === 'breaker.flapping' || type === 'release.rolled_back' || type === 'release.canary_failing') return DISCORD_COLORS.warning;
  if (type === 'slo.burn_rate' && (data as SloEventData).severity === 'ticket') return DISCORD_COLORS.warning;
  if (type === 'domain.alert.opened') {
    const { severity } = (data as DomainEventData).alert;
    return severity === 'critical' || severity === 'high' ? DISCORD_COLORS.problem : DISCORD_COLORS.warning;
  }
  return type === 'notification.test' ? DISCORD_COLORS.test : DISCORD_COLORS.problem;
}

/**
 * A Discord webhook's body, within Discord's limits (content 2,000, embed title 256, description 4,096). No
 * mentions are parsed: an "@everyone" in a breaker's name must not page a whole server.
 */
export function discordPayload(message: NotificationMessage, notification: OutgoingNotification) {
  return {
    content: clip(message.title, 2000),
    embeds: [
      {
        title: clip(message.title, 256),
        description: clip(
          `${message.happened}\nWhen: ${message.when}\n[${LINK_TEXT}](${message.url})${message.acknowledgeUrl ? ` · [${ACKNOWLEDGE_TEXT}](${message.acknowledgeUrl})` : ''}`,
          4096,
        ),
        url: message.url,
        timestamp: notification.occurredAt,
        color: discordColor(notification),
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

/** An e-mail's subject and plain text. */
export function emailContent(message: NotificationMessage): { subject: string; text: string } {
  return {
    subject: message.title,
    text: `${message.happened}\n\nWhen: ${message.when}\n\n${LINK_TEXT}: ${message.url}\n${message.acknowledgeUrl ? `${ACKNOWLEDGE_TEXT}: ${message.acknowledgeUrl}\n` : ''}`,
  };
}
