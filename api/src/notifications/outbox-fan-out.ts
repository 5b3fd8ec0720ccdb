import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { alertGroupPath, breakerPath, drillPath, ROUTES, sloPath, type NotificationEventType, type WebhookBody } from '@cbh/contracts';
import { APP_CONFIG, type AppConfig } from '../platform';
import { MaintenanceWindowEntity } from './entities/maintenance-window.entity';
import { NotificationRuleChannelEntity, NotificationRuleEntity } from './entities/notification-rule.entity';
import { mutingWindow } from './maintenance';
import { NotificationsRepository, type NewDelivery } from './notifications.repository';
import { OutboxAudiences } from './outbox-audiences';
import { type EscalationRoute, OutboxEscalations } from './outbox-escalations';
import { typesFor, type OutboxEvent } from './rule-matching';

/** Events fanned out per transaction. */
export const EVENTS_PER_TURN = 200;

/**
 * The outbox's fan-out: events written by the database's triggers are taken in id order, by one replica at a time,
 * and turned into deliveries in the transaction that marks them dispatched (see NotificationOutbox).
 */
@Injectable()
export class OutboxFanOut {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: NotificationsRepository,
    private readonly audiences: OutboxAudiences,
    private readonly escalations: OutboxEscalations,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Fans out one batch of waiting events; answers how many it took, or null while another replica has the turn. */
  async batch(): Promise<number | null> {
    return this.dataSource.transaction(async (manager) => {
      // one replica fans out at a time, in id order: an event sees the alert groups its predecessors opened (a
      // recovery after its opening, a child's event after its parent's) — the others skip, and deliver meanwhile
      if (!(await this.repository.takeFanOutTurn(manager))) return null;
      const events = await this.repository.takeWaitingEvents(manager, EVENTS_PER_TURN);
      if (events.length === 0) return 0;
      // one after the other: a transaction's queries share its one connection
      const rules = await manager.getRepository(NotificationRuleEntity).find({ where: { enabled: true } });
      const links = await manager.getRepository(NotificationRuleChannelEntity).find();
      const windows = await manager.getRepository(MaintenanceWindowEntity).find();
      const channelsOf = new Map<string, string[]>();
      for (const link of links) channelsOf.set(link.ruleId, [...(channelsOf.get(link.ruleId) ?? []), link.channelId]);
      const deliveries: NewDelivery[] = [];
      for (const event of events) {
        deliveries.push(...(await this.audienceDeliveries(manager, event)));
        const routes: EscalationRoute[] = [];
        for (const rule of rules) {
          const channels = channelsOf.get(rule.id) ?? [];
          if (channels.length === 0 && !rule.escalationPolicyId) continue;
          const { own, flapping } = typesFor(rule, event);
          // a maintenance window keeps a rule from paging as from sending
          if (own && rule.escalationPolicyId && !mutingWindow(windows, event)) {
            routes.push({ ruleId: rule.id, ruleName: rule.name, policyId: rule.escalationPolicyId });
          }
          const sends: { type: NotificationEventType; data: Record<string, unknown> }[] = [];
          if (own) sends.push({ type: event.type, data: event.data });
          if (flapping) {
            const openings = await this.repository.openingsBefore(manager, event.subjectId, event.occurredAt, rule.flappingMinutes);
            if (openings > rule.flappingOpenings) {
              sends.push({ type: 'breaker.flapping', data: { breaker: event.data.breaker, openings, minutes: rule.flappingMinutes } });
            }
          }
          for (const send of sends) {
            const window = mutingWindow(windows, event);
            const subject = `${event.subjectKind}:${event.subjectId}`;
            const status = window
              ? 'muted'
              : // judged on when the hub took the event: a back-dated move must not find the interval long past
                (await this.repository.claimInterval(manager, rule.id, subject, send.type, event.receivedAt, rule.minIntervalMinutes))
                ? 'pending'
                : 'suppressed';
            const lastError =
              status === 'muted'
                ? `Muted by maintenance window '${window!.name}'`
                : status === 'suppressed'
                  ? `Already notified within ${rule.minIntervalMinutes} minutes`
                  : null;
            for (const channelId of channels) {
              deliveries.push({
                eventId: event.id,
                eventType: send.type,
                subject: event.subjectName,
                subjectKind: event.subjectKind,
                occurredAt: event.occurredAt,
                payload: this.withLink(event, send.data),
                channelId,
                ruleId: rule.id,
                ruleName: rule.name,
                status,
                lastError,
              });
            }
          }
        }
        // in the event's order: a group opened by one event of the batch is joined by the next
        await this.escalations.onEvent(manager, event, routes);
      }
      await this.repository.insertDeliveries(manager, deliveries);
      // every replica tries them with this one, as it has room: a burst of pages does not wait for one replica's slots
      if (deliveries.some((delivery) => delivery.status === 'pending')) await this.repository.wakeAtCommit(manager, 'deliveries-due');
      await this.repository.markDispatched(
        manager,
        events.map((event) => event.id),
      );
      return events.length;
    });
  }

  /** An event's deliveries to the registered audiences' recipients (a status page's subscribers), never muted. */
  private async audienceDeliveries(manager: EntityManager, event: OutboxEvent): Promise<NewDelivery[]> {
    const deliveries: NewDelivery[] = [];
    for (const audience of this.audiences.all()) {
      for (const { recipient } of await audience.recipientsOf(manager, event)) {
        deliveries.push({
          eventId: event.id,
          eventType: event.type,
          subject: event.subjectName,
          subjectKind: event.subjectKind,
          occurredAt: event.occurredAt,
          payload: event.data as WebhookBody['data'],
          channelId: null,
          audience: audience.name,
          recipient,
          ruleId: null,
          ruleName: null,
          status: 'pending',
        });
      }
    }
    return deliveries;
  }

  /** The event's data with the link to its page on this site. */
  private withLink(event: OutboxEvent, data: Record<string, unknown>): WebhookBody['data'] {
    // an incident's data carries its public page's address already
    if (event.subjectKind === 'status_page') return data as WebhookBody['data'];
    const path =
      event.subjectKind === 'alert_group'
        ? alertGroupPath(event.subjectId)
        : event.subjectKind === 'slo'
          ? sloPath(event.subjectId)
          : event.subjectKind === 'drill'
            ? drillPath(event.subjectId)
            : event.subjectKind === 'breaker'
              ? breakerPath(event.subjectId)
              : event.subjectKind === 'remote'
                ? ROUTES.users.path
                : ROUTES.domains.path;
    return { ...data, url: this.link(path) } as WebhookBody['data'];
  }

  private link(path: string) {
    return `${this.config.PUBLIC_URL}${path}`;
  }
}
