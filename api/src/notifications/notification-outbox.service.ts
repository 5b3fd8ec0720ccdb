import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import {
  alertGroupPath,
  breakerPath,
  DELIVERY_RETRY_DELAYS_S,
  DELIVERY_RETRY_JITTER,
  DELIVERY_TIMEOUT_MS,
  ROUTES,
  sloPath,
  drillPath,
  type NotificationEventType,
  type TestDeliveryView,
  type WebhookBody,
} from '@cbh/contracts';
import {
  APP_CONFIG,
  type AppConfig,
  GroupCommit,
  HubMetrics,
  InstanceRegistry,
  PeriodicWork,
  RealtimeBus,
  type Repeating,
} from '../platform';
import { ChannelSecrets } from './channel-secrets';
import { MaintenanceWindowEntity } from './entities/maintenance-window.entity';
import { NotificationChannelEntity } from './entities/notification-channel.entity';
import type { NotificationDeliveryEntity } from './entities/notification-delivery.entity';
import { NotificationRuleChannelEntity, NotificationRuleEntity } from './entities/notification-rule.entity';
import { mutingWindow } from './maintenance';
import { NotificationsRepository, type NewDelivery, type TryRecord } from './notifications.repository';
import { OutboxAudiences } from './outbox-audiences';
import { type EscalationRoute, OutboxEscalations } from './outbox-escalations';
import { typesFor, type OutboxEvent } from './rule-matching';
import { ChannelSender } from './senders/channel-sender';

/** Events fanned out per transaction. */
const EVENTS_PER_TURN = 200;
/** Tries one replica makes at once (each mostly waits on a receiver: sockets, not CPU). */
const CONCURRENT_TRIES = 64;
/**
 * Tries one replica makes at once to one channel: a slow receiver holds these, never every slot. A fast one is sent
 * this many at a time: a burst of pages to one webhook (1,000 alert groups escalating together) goes at this many
 * per round trip.
 */
const TRIES_PER_CHANNEL = 16;
/**
 * A try holds its delivery this long, renewed every RENEW_MS while it goes on (an SMTP server may take its 10 s a step
 * over several steps): a replica that dies lets go within this, and a slow try is never taken over while alive.
 */
const LEASE_SECONDS = Math.ceil(DELIVERY_TIMEOUT_MS / 1000) + 5;
const RENEW_MS = 5000;
/** How often a replica looks for due retries and lapsed leases without being woken. */
const POLL_MS = 1000;
/** How often breakers stuck open are looked for. */
const STUCK_SWEEP_MS = 30_000;

/**
 * The notification outbox, on every replica:
 * - **Fan-out**: events written by the database's triggers are taken in id order, each by one replica (row locks
 *   with SKIP LOCKED), and turned into deliveries in the same transaction that marks them dispatched: once each.
 *   A rule's filters, the maintenance windows (muted: logged, not sent) and its minimum interval per subject
 *   (suppressed: logged, not sent) decide each delivery's status; an opening also counts toward flapping.
 * - **Delivery**: due deliveries are leased to one replica (the lease scheme the domain checks use), tried, and
 *   recorded; a failure worth retrying waits 2 s, 4 s, … (DELIVERY_RETRY_DELAYS_S, with jitter). A replica killed
 *   mid-try loses nothing: its lease lapses and another replica tries again, with the same delivery id.
 */
@Injectable()
export class NotificationOutbox implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(NotificationOutbox.name);
  private stopped = false;
  private inFlight = 0;
  /** Tries in flight on this replica, per channel. */
  private readonly inFlightByChannel = new Map<string, number>();
  private turns?: Repeating;
  private sweeping?: Repeating;
  /** Whether the next turn fans out: woken by new events, or a poll's time since the last. */
  private fanOutWanted = true;
  private lastFanOut = 0;
  /** Tries' ends, written together: one statement for every try that ended while the last was written. */
  private readonly records = new GroupCommit((tries: { id: string; record: TryRecord }[]) =>
    this.repository.recordTries(this.instance.id, tries),
  );

  constructor(
    private readonly work: PeriodicWork,
    private readonly dataSource: DataSource,
    private readonly repository: NotificationsRepository,
    private readonly sender: ChannelSender,
    private readonly secrets: ChannelSecrets,
    private readonly instance: InstanceRegistry,
    private readonly bus: RealtimeBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly hubMetrics: HubMetrics,
    private readonly audiences: OutboxAudiences,
    private readonly escalations: OutboxEscalations,
  ) {}

  onModuleInit() {
    // turn() reports its own failures
    this.turns = this.work.every(POLL_MS, () => this.turn());
    this.bus.subscribeInternal('notifications-due', () => this.wake());
    this.bus.onReconnect(() => this.wake());
    // sweepStuckOpen() reports its own failures
    this.sweeping = this.work.every(STUCK_SWEEP_MS, () => this.sweepStuckOpen());
    this.wake();
  }

  onApplicationShutdown() {
    this.stopped = true;
    void this.turns?.stop();
    void this.sweeping?.stop();
  }

  /** Runs a turn now, or once more after the one going on: wake-ups that arrive meanwhile are one. */
  wake() {
    this.fanOutWanted = true;
    void this.turns?.runAgain();
  }

  /** A try ended: its slot takes the next due delivery. No fan-out for it — events wake the outbox themselves. */
  private slotFreed() {
    void this.turns?.runAgain();
  }

  /** Events fanned out to deliveries (when woken for them, or once a poll), then the due deliveries tried. */
  private async turn() {
    if (this.fanOutWanted || Date.now() - this.lastFanOut >= POLL_MS) {
      this.fanOutWanted = false;
      this.lastFanOut = Date.now();
      // apart: a fan-out that fails (the database away) must not hold back deliveries already written
      try {
        while ((await this.fanOut()) === EVENTS_PER_TURN && !this.stopped);
      } catch (error) {
        this.logger.warn(`notification events not fanned out: ${(error as Error).message}`);
      }
    }
    try {
      await this.deliverDue();
    } catch (error) {
      this.logger.warn(`due notifications not claimed: ${(error as Error).message}`);
    }
  }

  /** Fans out one batch of waiting events; answers how many it took. */
  async fanOut(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      // one replica fans out at a time, in id order: an event sees the alert groups its predecessors opened (a
      // recovery after its opening, a child's event after its parent's) — the others skip, and deliver meanwhile
      if (!(await this.repository.takeFanOutTurn(manager))) return 0;
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

  /** Claims and tries due deliveries while there are free slots. */
  private async deliverDue() {
    while (!this.stopped) {
      const free = CONCURRENT_TRIES - this.inFlight;
      if (free <= 0) return;
      const busy = [...this.inFlightByChannel]
        .filter(([lane, count]) => count >= TRIES_PER_CHANNEL && !lane.startsWith('audience:'))
        .map(([channelId]) => channelId);
      const claimed = await this.repository.claimDue(this.instance.id, free, LEASE_SECONDS, TRIES_PER_CHANNEL, busy);
      if (claimed.length === 0) return;
      // one read of the batch's channels, not one a try
      const ids = [...new Set(claimed.flatMap((delivery) => (delivery.channelId ? [delivery.channelId] : [])))];
      const channels = new Map(
        ids.length ? (await this.dataSource.getRepository(NotificationChannelEntity).findBy({ id: In(ids) })).map((c) => [c.id, c]) : [],
      );
      for (const delivery of claimed) {
        this.inFlight++;
        const lane = delivery.channelId ?? `audience:${delivery.audience}`;
        this.inFlightByChannel.set(lane, (this.inFlightByChannel.get(lane) ?? 0) + 1);
        // tracked: shutdown waits for a try going on (a bounded while) before the database closes
        void this.work
          .track(this.attempt(delivery, delivery.channelId ? channels.get(delivery.channelId) : undefined))
          .catch((error: Error) => this.logger.warn(`delivery ${delivery.id} not recorded: ${error.message}`))
          .finally(() => {
            this.inFlight--;
            const left = this.inFlightByChannel.get(lane)! - 1;
            if (left > 0) this.inFlightByChannel.set(lane, left);
            else this.inFlightByChannel.delete(lane);
            this.slotFreed();
          });
      }
    }
  }

  /**
   * One try of a leased delivery to its channel (none: deleted since), and its record: delivered, a retry at its time,
   * or failed for good.
   */
  private async attempt(delivery: NotificationDeliveryEntity, channel: NotificationChannelEntity | undefined): Promise<TestDeliveryView> {
    const audience = delivery.audience ? this.audiences.named(delivery.audience) : undefined;
    const renewal = setInterval(
      () => void this.repository.renewLease(delivery.id, this.instance.id, LEASE_SECONDS).catch(() => undefined),
      RENEW_MS,
    );
    let outcome;
    try {
      outcome = audience
        ? await audience.send(delivery)
        : channel
          ? await this.sender.send(this.secrets.target(channel), {
              deliveryId: delivery.id,
              type: delivery.eventType,
              occurredAt: delivery.occurredAt.toISOString(),
              data: delivery.payload,
            })
          : {
              ok: false,
              statusCode: null,
              durationMs: 0,
              error: delivery.audience ? `No audience named ${delivery.audience}` : 'The channel was deleted',
              retryable: false,
            };
    } finally {
      clearInterval(renewal);
    }
    const retry = !outcome.ok && outcome.retryable && delivery.attempts < delivery.maxAttempts;
    this.hubMetrics.notificationDeliveries.inc({ outcome: outcome.ok ? 'delivered' : retry ? 'retry' : 'failed' });
    await this.records.add({
      id: delivery.id,
      record: {
        status: outcome.ok ? 'delivered' : retry ? 'pending' : 'failed',
        statusCode: outcome.statusCode,
        durationMs: outcome.durationMs,
        lastError: outcome.error,
        nextAttemptAt: retry ? new Date(Date.now() + retryDelayMs(delivery.attempts)) : null,
      },
    });
    return {
      deliveryId: delivery.id,
      status: outcome.ok ? 'delivered' : 'failed',
      statusCode: outcome.statusCode,
      durationMs: Math.round(outcome.durationMs),
      error: outcome.error,
    };
  }

  /** "Send test": a `notification.test` delivery tried once, now, by this replica; logged like any other. */
  async sendTest(channel: { id: string; name: string }, requestedBy: string): Promise<TestDeliveryView> {
    const delivery = await this.repository.insertLeased(
      {
        eventId: null,
        eventType: 'notification.test',
        subject: channel.name,
        subjectKind: null,
        occurredAt: new Date(),
        payload: {
          message: `Test notification for channel '${channel.name}', sent by ${requestedBy}`,
          url: this.link(ROUTES.notifications.path),
        },
        channelId: channel.id,
        ruleId: null,
        ruleName: null,
      },
      this.instance.id,
      LEASE_SECONDS,
    );
    const found = await this.dataSource.getRepository(NotificationChannelEntity).findOneBy({ id: channel.id });
    return this.attempt(delivery, found ?? undefined);
  }

  /** Looks for breakers stuck open past each watching rule's minutes; the database keeps each finding once. */
  async sweepStuckOpen() {
    try {
      const rules = await this.dataSource.getRepository(NotificationRuleEntity).find({ where: { enabled: true } });
      for (const rule of rules.filter((candidate) => candidate.events.includes('breaker.stuck_open'))) {
        await this.repository.raiseStuckOpen(rule.id, rule.stuckOpenMinutes);
      }
    } catch (error) {
      this.logger.warn(`stuck-open sweep failed: ${(error as Error).message}`);
    }
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

/** The wait before the retry after try `attempt` (1-based), within ±20 %. */
export function retryDelayMs(attempt: number, random = Math.random): number {
  const base = DELIVERY_RETRY_DELAYS_S[Math.min(attempt, DELIVERY_RETRY_DELAYS_S.length) - 1]! * 1000;
  return Math.round(base * (1 - DELIVERY_RETRY_JITTER + 2 * DELIVERY_RETRY_JITTER * random()));
}
