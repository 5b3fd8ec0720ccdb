import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { DELIVERY_RETRY_DELAYS_S, DELIVERY_RETRY_JITTER, DELIVERY_TIMEOUT_MS, ROUTES, type TestDeliveryView } from '@cbh/contracts';
import {
  APP_CONFIG,
  type AppConfig,
  GroupCommit,
  HubMetrics,
  IDLE_LOOK_MS,
  InstanceRegistry,
  PeriodicWork,
  RealtimeBus,
  type Repeating,
} from '../platform';
import { ChannelSecrets } from './channel-secrets';
import { NotificationChannelEntity } from './entities/notification-channel.entity';
import type { NotificationDeliveryEntity } from './entities/notification-delivery.entity';
import { NotificationRuleEntity } from './entities/notification-rule.entity';
import { NotificationsRepository, type TryRecord } from './notifications.repository';
import { OutboxAudiences } from './outbox-audiences';
import { EVENTS_PER_TURN, OutboxFanOut } from './outbox-fan-out';
import { ChannelSender } from './senders/channel-sender';

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
/**
 * How often a replica looks for due deliveries while it tries some, or while one is due that it could not take. One
 * that knows of nothing due looks again IDLE_LOOK_MS later unwoken: events and deliveries written on any replica wake
 * it over the bus, a retry's or a lease's time is slept until.
 */
const POLL_MS = 1000;
/** How often breakers stuck open are looked for. */
const STUCK_SWEEP_MS = 30_000;

/**
 * The notification outbox, on every replica:
 * - **Fan-out** (OutboxFanOut): events written by the database's triggers are taken in id order, each by one replica
 *   (row locks with SKIP LOCKED), and turned into deliveries in the same transaction that marks them dispatched: once each.
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
  /** Tries in flight on this replica, per channel (an audience's deliveries have none and are not counted here). */
  private readonly inFlightByChannel = new Map<string, number>();
  private turns?: Repeating;
  private sweeping?: Repeating;
  /** Whether the next turn fans out: woken by new events, or once nextFanOutAt has passed. */
  private fanOutWanted = true;
  /** IDLE_LOOK_MS after the last fan-out; POLL_MS after one that failed or found another replica fanning out. */
  private nextFanOutAt = 0;
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
    private readonly fanOut: OutboxFanOut,
  ) {}

  onModuleInit() {
    // turn() reports its own failures
    this.turns = this.work.whenDue({ soonestMs: 50 }, () => this.turn());
    // events written on any replica, or told while the listener was away: fanned out now
    this.bus.whenTold(['notifications-due'], () => this.wake());
    // deliveries written (an escalation's step, another replica's fan-out): tried now, by whichever replica has room
    // (after a reconnection, wake() above looks for them too)
    this.bus.subscribeInternal('deliveries-due', () => void this.turns?.runAgain());
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

  /** A delivery made due now outside a transaction (a retry asked for): every replica's outbox looks at once. */
  async deliveryDue(): Promise<void> {
    await this.bus.publishInternal('deliveries-due', null).catch(() => this.wake());
  }

  /** A try ended: its slot takes the next due delivery. No fan-out for it — events wake the outbox themselves. */
  private slotFreed() {
    void this.turns?.runAgain();
  }

  /**
   * Events fanned out to deliveries (when woken for them, or once every IDLE_LOOK_MS), then the due deliveries tried;
   * answers when to look again: in a poll while tries go on or something failed, else when the next retry or lease
   * falls due (null: nothing waits).
   */
  private async turn(): Promise<number | null> {
    let retry = false;
    if (this.fanOutWanted || Date.now() >= this.nextFanOutAt) {
      this.fanOutWanted = false;
      this.nextFanOutAt = Date.now() + IDLE_LOOK_MS;
      // apart: a fan-out that fails (the database away) must not hold back deliveries already written
      try {
        let taken: number | null;
        while ((taken = await this.fanOut.batch()) === EVENTS_PER_TURN && !this.stopped);
        // another replica fans out now: events written after it read them are this replica's to look for, in a poll
        // (the other may stop before its next turn) — not at every freed slot meanwhile
        if (taken === null) retry = true;
      } catch (error) {
        retry = true;
        this.logger.warn(`notification events not fanned out: ${(error as Error).message}`);
      }
      if (retry) this.nextFanOutAt = Date.now() + POLL_MS;
    }
    try {
      await this.deliverDue();
      if (retry || this.inFlight > 0) return Date.now() + POLL_MS;
      const next = await this.repository.nextDue();
      if (next === null) return null;
      // one due already but not taken (another replica's claim had it locked): looked at again in a poll
      const now = Date.now();
      return next.getTime() > now ? next.getTime() : now + POLL_MS;
    } catch (error) {
      this.logger.warn(`due notifications not claimed: ${(error as Error).message}`);
      return Date.now() + POLL_MS;
    }
  }

  /** Claims and tries due deliveries while there are free slots. */
  private async deliverDue() {
    while (!this.stopped) {
      const free = CONCURRENT_TRIES - this.inFlight;
      if (free <= 0) return;
      // the channels' tries going on here as the claim starts: it tops each up to TRIES_PER_CHANNEL, never past it
      const channelTries = new Map(this.inFlightByChannel);
      const claimed = await this.repository.claimDue(this.instance.id, free, LEASE_SECONDS, TRIES_PER_CHANNEL, channelTries);
      if (claimed.length === 0) return;
      // one read of the batch's channels, not one a try
      const ids = [...new Set(claimed.flatMap((delivery) => (delivery.channelId ? [delivery.channelId] : [])))];
      const channels = new Map(
        ids.length ? (await this.dataSource.getRepository(NotificationChannelEntity).findBy({ id: In(ids) })).map((c) => [c.id, c]) : [],
      );
      for (const delivery of claimed) {
        this.inFlight++;
        const channelId = delivery.channelId;
        if (channelId) this.inFlightByChannel.set(channelId, (this.inFlightByChannel.get(channelId) ?? 0) + 1);
        // tracked: shutdown waits for a try going on (a bounded while) before the database closes
        void this.work
          .track(this.attempt(delivery, channelId ? channels.get(channelId) : undefined))
          .catch((error: Error) => this.logger.warn(`delivery ${delivery.id} not recorded: ${error.message}`))
          .finally(() => {
            this.inFlight--;
            if (channelId) {
              const left = this.inFlightByChannel.get(channelId)! - 1;
              if (left > 0) this.inFlightByChannel.set(channelId, left);
              else this.inFlightByChannel.delete(channelId);
            }
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
          url: `${this.config.PUBLIC_URL}${ROUTES.notifications.path}`,
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
}

/** The wait before the retry after try `attempt` (1-based), within ±20 %. */
export function retryDelayMs(attempt: number, random = Math.random): number {
  const base = DELIVERY_RETRY_DELAYS_S[Math.min(attempt, DELIVERY_RETRY_DELAYS_S.length) - 1]! * 1000;
  return Math.round(base * (1 - DELIVERY_RETRY_JITTER + 2 * DELIVERY_RETRY_JITTER * random()));
}
