import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  COMPONENT_STATE_LABELS,
  INCIDENT_STATUS_LABELS,
  MAINTENANCE_SCHEDULED_EVENT,
  type ComponentState,
  type IncidentEventData,
  type MaintenanceEventData,
} from '@cbh/contracts';
import { APP_CONFIG, MailService, type AppConfig } from '../platform';
import {
  OutboxAudiences,
  type NotificationDeliveryEntity,
  type OutboxAudience,
  type OutboxEvent,
  type SendOutcome,
} from '../notifications';
import { SubscriptionsService } from './subscriptions.service';

const isIncidentEvent = (event: OutboxEvent) => event.subjectKind === 'status_page' && event.type.startsWith('incident.');
const isMaintenanceEvent = (event: OutboxEvent) =>
  event.subjectKind === 'status_page' && (event.type as string) === MAINTENANCE_SCHEDULED_EVENT;
const readableUtc = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const utc = (iso: string) => `${readableUtc.format(new Date(iso))} UTC`;

/**
 * A page's confirmed subscribers, as an audience of the notification outbox: each incident (and maintenance) event becomes one
 * delivery per subscriber in the outbox's fan-out (once across replicas), tried and retried like a channel's.
 * Every mail carries its unsubscribe link in the text and as RFC 8058 one-click headers (List-Unsubscribe with
 * List-Unsubscribe-Post), signed afresh at sending so the outbox never stores a working link.
 */
@Injectable()
export class StatusSubscriberAudience implements OutboxAudience, OnModuleInit {
  readonly name = 'status_subscribers';

  constructor(
    private readonly audiences: OutboxAudiences,
    private readonly subscriptions: SubscriptionsService,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit() {
    this.audiences.register(this);
  }

  async recipientsOf(manager: EntityManager, event: OutboxEvent) {
    let componentIds: number[] | 'by-name';
    if (isIncidentEvent(event))
      componentIds = (event.data as unknown as IncidentEventData).incident.components.map((component) => component.id);
    else if (isMaintenanceEvent(event)) componentIds = 'by-name';
    else return [];
    const recipients = await this.subscriptions.recipients(
      event.subjectId,
      componentIds === 'by-name'
        ? await this.subscriptions.componentIdsNamed(
            event.subjectId,
            (event.data as unknown as MaintenanceEventData).maintenance.components,
            manager,
          )
        : componentIds,
      manager,
    );
    return recipients.map((row) => ({ recipient: String(row.id), label: `subscriber ${row.id}` }));
  }

  async send(delivery: NotificationDeliveryEntity): Promise<SendOutcome> {
    const started = performance.now();
    const [subscription] = await this.subscriptions.find([Number(delivery.recipient)]);
    if (!subscription?.confirmedAt) {
      return { ok: false, statusCode: null, durationMs: 0, error: 'The subscriber unsubscribed', retryable: false };
    }
    const data = delivery.payload as unknown as IncidentEventData | MaintenanceEventData;
    // the page's address now (its slug may have changed since the event), so the link works when it is clicked
    const page = await this.subscriptions.pageOf(subscription.pageId);
    if (!page?.public) return { ok: false, statusCode: null, durationMs: 0, error: 'The status page is not public now', retryable: false };
    const slug = page.slug;
    const unsubscribe = `${this.config.PUBLIC_URL}/status/${slug}/unsubscribe?code=${this.subscriptions.links.sign('unsubscribe', subscription)}`;
    const { subject, body } = 'incident' in data ? incidentMail(data) : maintenanceMail(data);
    try {
      await this.mail.send({
        to: subscription.email,
        subject,
        text: `${body}\n\nYou get this because you subscribed to ${data.page.title}. Unsubscribe: ${unsubscribe}\n`,
        headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        secrets: [unsubscribe],
      });
      return { ok: true, statusCode: null, durationMs: performance.now() - started, error: null, retryable: false };
    } catch (error) {
      return { ok: false, statusCode: null, durationMs: performance.now() - started, error: (error as Error).message, retryable: true };
    }
  }
}

function incidentMail(data: IncidentEventData) {
  const states = data.incident.components
    .map((component) => `- ${component.name}: ${COMPONENT_STATE_LABELS[component.state as ComponentState] ?? component.state}`)
    .join('\n');
  return {
    subject: `[${data.page.title}] ${INCIDENT_STATUS_LABELS[data.incident.status]}: ${data.incident.title}`,
    body:
      `${INCIDENT_STATUS_LABELS[data.incident.status]} — ${data.incident.title} (impact: ${data.incident.impact})\n\n` +
      `${data.incident.message}\n\n${states ? `${states}\n\n` : ''}Follow it: ${data.url}`,
  };
}

function maintenanceMail({ page, maintenance, url }: MaintenanceEventData) {
  const when = `${utc(maintenance.startsAt)} to ${utc(maintenance.endsAt)}`;
  return {
    subject: `[${page.title}] ${maintenance.active ? 'Maintenance under way' : 'Scheduled maintenance'}: ${maintenance.name}`,
    body: `${maintenance.active ? 'Maintenance under way' : 'Scheduled maintenance'}: ${maintenance.name}, ${when}.\n\nAffects: ${maintenance.components.join(', ')}\n\nSee ${url}`,
  };
}
