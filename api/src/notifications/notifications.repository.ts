import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  DELIVERY_MAX_ATTEMPTS,
  type DeliveryQuery,
  type DeliveryStatus,
  type NotificationEventType,
  type RaisedEventType,
  type WebhookBody,
  type NotificationSubjectKind,
} from '@cbh/contracts';
import { NotificationDeliveryEntity } from './entities/notification-delivery.entity';
import type { OutboxEvent } from './rule-matching';

/** The advisory lock of the events' fan-out (an arbitrary constant of this hub's). */
const FAN_OUT_LOCK = 0x63626801;

/** Deliveries one INSERT writes: about 14 parameters each, well under PostgreSQL's 65,535 a statement. */
const INSERT_BATCH = 500;

/** A delivery as the outbox writes it. */
export interface NewDelivery {
  eventId: string | null;
  eventType: NotificationEventType;
  subject: string;
  subjectKind: NotificationSubjectKind | null;
  occurredAt: Date;
  payload: WebhookBody['data'];
  channelId: string | null;
  /** a delivery to an audience's recipient rather than a channel (outbox-audiences.ts) */
  audience?: string | null;
  recipient?: string | null;
  ruleId: string | null;
  ruleName: string | null;
  status: Extract<DeliveryStatus, 'pending' | 'muted' | 'suppressed'>;
  lastError?: string | null;
  /** a message of an alert group, sent by this escalation step (from 1) */
  alertGroupId?: number | null;
  step?: number | null;
}

/** How one try ended, as the worker records it. */
export interface TryRecord {
  status: Extract<DeliveryStatus, 'pending' | 'delivered' | 'failed'>;
  statusCode: number | null;
  durationMs: number;
  lastError: string | null;
  nextAttemptAt: Date | null;
}

interface EventRow {
  id: string;
  type: RaisedEventType;
  subject_kind: NotificationSubjectKind;
  subject_id: number;
  subject_name: string;
  occurred_at: Date;
  received_at: Date;
  data: Record<string, unknown>;
  rule_id: string | null;
}

export interface DeliveryRow extends NotificationDeliveryEntity {
  channelName: string;
}

/**
 * The outbox's SQL that TypeORM cannot say well: taking waiting events with SKIP LOCKED, the minimum interval's
 * atomic claim, leases on due deliveries, and the log's keyset pages.
 */
@Injectable()
export class NotificationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** This transaction's turn to fan out, unless another replica's transaction has it (then false, at once). */
  async takeFanOutTurn(manager: EntityManager): Promise<boolean> {
    const [row]: { taken: boolean }[] = await manager.query('SELECT pg_try_advisory_xact_lock($1) AS taken', [FAN_OUT_LOCK]);
    return row?.taken === true;
  }

  /** Up to `limit` events no replica has fanned out yet, locked for this transaction; others skip them. */
  async takeWaitingEvents(manager: EntityManager, limit: number): Promise<OutboxEvent[]> {
    const rows: EventRow[] = await manager.query(
      `SELECT id, type, subject_kind, subject_id, subject_name, occurred_at, received_at, data, rule_id
       FROM notification_events WHERE dispatched_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
    return rows.map((row) => ({
      id: String(row.id),
      type: row.type,
      subjectKind: row.subject_kind,
      subjectId: row.subject_id,
      subjectName: row.subject_name,
      occurredAt: row.occurred_at,
      receivedAt: row.received_at,
      data: row.data,
      ruleId: row.rule_id,
    }));
  }

  /**
   * Wakes the outbox on every replica when the transaction commits (PostgreSQL holds a NOTIFY until then): to fan
   * events out, or to try deliveries written.
   */
  async wakeAtCommit(manager: EntityManager, kind: 'notifications-due' | 'deliveries-due'): Promise<void> {
    await manager.query(`SELECT pg_notify('cbh_events', $1)`, [JSON.stringify({ origin: 'database', internal: kind, data: null })]);
  }

  async markDispatched(manager: EntityManager, ids: string[]) {
    if (ids.length) await manager.query('UPDATE notification_events SET dispatched_at = now() WHERE id = ANY($1::bigint[])', [ids]);
  }

  /** Openings of a breaker within `minutes` up to an event's moment (that opening included). */
  async openingsBefore(manager: EntityManager, breakerId: number, at: Date, minutes: number): Promise<number> {
    const [row]: { count: string }[] = await manager.query(
      `SELECT count(*) AS count FROM notification_events
       WHERE subject_kind = 'breaker' AND subject_id = $1 AND type = 'breaker.opened'
         AND occurred_at > $2::timestamptz - make_interval(mins => $3) AND occurred_at <= $2::timestamptz`,
      [breakerId, at, minutes],
    );
    return Number(row?.count ?? 0);
  }

  /**
   * Claims the rule's right to notify about a subject now: true when it last did so at least `minutes` before `at`
   * (or never), and then `at` is the new last time. One statement, so two replicas cannot both win. With no interval
   * every event passes, whatever order replicas fan events out in.
   */
  async claimInterval(
    manager: EntityManager,
    ruleId: string,
    subject: string,
    eventType: string,
    at: Date,
    minutes: number,
  ): Promise<boolean> {
    if (minutes === 0) return true;
    const rows: unknown[] = await manager.query(
      `INSERT INTO notification_throttle (rule_id, subject, event_type, last_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (rule_id, subject, event_type) DO UPDATE SET last_at = EXCLUDED.last_at
       WHERE notification_throttle.last_at <= EXCLUDED.last_at - make_interval(mins => $5)
       RETURNING 1`,
      [ruleId, subject, eventType, at, minutes],
    );
    return rows.length > 0;
  }

  /** Writes deliveries a few hundred to a statement: one statement's parameters are bounded (65,535 in PostgreSQL). */
  async insertDeliveries(manager: EntityManager, deliveries: NewDelivery[]): Promise<void> {
    for (let start = 0; start < deliveries.length; start += INSERT_BATCH) {
      await manager
        .createQueryBuilder()
        .insert()
        .into(NotificationDeliveryEntity)
        .values(
          deliveries.slice(start, start + INSERT_BATCH).map((delivery) => ({
            ...delivery,
            lastError: delivery.lastError ?? null,
            audience: delivery.audience ?? null,
            recipient: delivery.recipient ?? null,
            alertGroupId: delivery.alertGroupId ?? null,
            step: delivery.step ?? null,
            attempts: 0,
            maxAttempts: DELIVERY_MAX_ATTEMPTS,
            nextAttemptAt: delivery.status === 'pending' ? () => 'now()' : null,
          })),
        )
        .execute();
    }
  }

  /** A delivery tried once, now, by this replica (a channel's test): written already leased to it. */
  async insertLeased(delivery: Omit<NewDelivery, 'status'>, owner: string, leaseSeconds: number): Promise<NotificationDeliveryEntity> {
    const [row]: Record<string, unknown>[] = await this.dataSource.query(
      `INSERT INTO notification_deliveries (event_type, subject, subject_kind, occurred_at, payload, channel_id, rule_id, rule_name,
         status, attempts, max_attempts, lease_owner, lease_until)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'delivering', 1, 1, $9, now() + make_interval(secs => $10))
       RETURNING *`,
      [
        delivery.eventType,
        delivery.subject,
        delivery.subjectKind,
        delivery.occurredAt,
        JSON.stringify(delivery.payload),
        delivery.channelId,
        delivery.ruleId,
        delivery.ruleName,
        owner,
        leaseSeconds,
      ],
    );
    return this.dataSource.getRepository(NotificationDeliveryEntity).create(fromColumns(row!));
  }

  /**
   * Leases up to `limit` deliveries that are due (or whose holder's lease lapsed: that replica died mid-try) to this
   * replica for `leaseSeconds`, counting the try: of one channel, as many as leave this replica at most `perChannel` in
   * flight (`inFlight`: its tries going on, by channel), so one slow receiver cannot hold every slot, however its
   * deliveries fall due across claims.
   */
  async claimDue(
    owner: string,
    limit: number,
    leaseSeconds: number,
    perChannel: number,
    inFlight: ReadonlyMap<string, number>,
  ): Promise<NotificationDeliveryEntity[]> {
    const [rows]: [Record<string, unknown>[], number] = await this.dataSource.query(
      `WITH held AS (SELECT * FROM unnest($5::uuid[], $6::int[]) AS h(channel_id, tries))
       UPDATE notification_deliveries d
       SET status = 'delivering', lease_owner = $1, lease_until = now() + make_interval(secs => $3), attempts = d.attempts + 1
       WHERE d.id IN (
         SELECT ranked.id FROM (
           SELECT due.id, due.channel_id, due.next_attempt_at,
             row_number() OVER (PARTITION BY due.channel_id ORDER BY due.next_attempt_at NULLS FIRST) AS place
           FROM (
             SELECT id, channel_id, next_attempt_at FROM notification_deliveries
             WHERE ((status = 'pending' AND next_attempt_at <= now()) OR (status = 'delivering' AND lease_until < now()))
               AND (channel_id IS NULL OR channel_id NOT IN (SELECT channel_id FROM held WHERE tries >= $4))
             ORDER BY next_attempt_at NULLS FIRST LIMIT 500 FOR UPDATE SKIP LOCKED) due) ranked
         LEFT JOIN held ON held.channel_id = ranked.channel_id
         WHERE ranked.place <= $4 - COALESCE(held.tries, 0) ORDER BY ranked.next_attempt_at NULLS FIRST LIMIT $2)
       RETURNING d.*`,
      [owner, limit, leaseSeconds, perChannel, [...inFlight.keys()], [...inFlight.values()]],
    );
    return rows.map((row) => this.dataSource.getRepository(NotificationDeliveryEntity).create(fromColumns(row)));
  }

  /** Keeps a try's lease while it goes on; false once another replica took the delivery over. */
  async renewLease(id: string, owner: string, leaseSeconds: number): Promise<boolean> {
    const [, count]: [unknown, number] = await this.dataSource.query(
      `UPDATE notification_deliveries SET lease_until = now() + make_interval(secs => $3)
       WHERE id = $1 AND lease_owner = $2 AND status = 'delivering'`,
      [id, owner, leaseSeconds],
    );
    return count > 0;
  }

  /**
   * Records tries' ends in one statement, each only if this replica still holds its lease (else another replica took
   * the delivery over): answers, per try, whether it was recorded.
   */
  async recordTries(owner: string, tries: { id: string; record: TryRecord }[]): Promise<boolean[]> {
    const [rows]: [{ id: string }[], number] = await this.dataSource.query(
      `UPDATE notification_deliveries d
       SET status = t.status, status_code = t.status_code, duration_ms = t.duration_ms, last_error = t.last_error,
           next_attempt_at = t.next_attempt_at, delivered_at = CASE WHEN t.status = 'delivered' THEN now() ELSE d.delivered_at END,
           lease_owner = NULL, lease_until = NULL
       FROM unnest($2::uuid[], $3::text[], $4::int[], $5::int[], $6::text[], $7::timestamptz[])
         AS t(id, status, status_code, duration_ms, last_error, next_attempt_at)
       WHERE d.id = t.id AND d.lease_owner = $1 AND d.status = 'delivering'
       RETURNING d.id`,
      [
        owner,
        tries.map((one) => one.id),
        tries.map((one) => one.record.status),
        tries.map((one) => one.record.statusCode),
        tries.map((one) => Math.round(one.record.durationMs)),
        tries.map((one) => one.record.lastError),
        tries.map((one) => one.record.nextAttemptAt),
      ],
    );
    const recorded = new Set(rows.map((row) => row.id));
    return tries.map((one) => recorded.has(one.id));
  }

  /** A failed delivery gets one more try, now; null when there is no such failed delivery. */
  async retryFailed(id: string): Promise<boolean> {
    const [, count]: [unknown, number] = await this.dataSource.query(
      `UPDATE notification_deliveries SET status = 'pending', next_attempt_at = now(), max_attempts = attempts + 1
       WHERE id = $1 AND status = 'failed'`,
      [id],
    );
    return count > 0;
  }

  /** The next time a waiting delivery is due, to sleep until then. */
  async nextDue(): Promise<Date | null> {
    const [row]: { at: Date | null }[] = await this.dataSource.query(
      `SELECT least(
         (SELECT min(next_attempt_at) FROM notification_deliveries WHERE status = 'pending'),
         (SELECT min(lease_until) FROM notification_deliveries WHERE status = 'delivering')) AS at`,
    );
    return row?.at ?? null;
  }

  /** Each channel's latest delivery that was tried (not muted or suppressed). */
  async lastDeliveries(
    channelIds: string[],
    withDomainEvents: boolean,
  ): Promise<Map<string, { status: DeliveryStatus; at: string; statusCode: number | null }>> {
    const found = new Map<string, { status: DeliveryStatus; at: string; statusCode: number | null }>();
    if (channelIds.length === 0) return found;
    const rows: { channel_id: string; status: DeliveryStatus; at: Date; status_code: number | null }[] = await this.dataSource.query(
      `SELECT DISTINCT ON (channel_id) channel_id, status, coalesce(delivered_at, created_at) AS at, status_code
       FROM notification_deliveries WHERE channel_id = ANY($1::uuid[]) AND status NOT IN ('muted', 'suppressed')
         AND ($2 OR event_type NOT LIKE 'domain.%')
       ORDER BY channel_id, seq DESC`,
      [channelIds, withDomainEvents],
    );
    for (const row of rows) found.set(row.channel_id, { status: row.status, at: row.at.toISOString(), statusCode: row.status_code });
    return found;
  }

  /** One page of the log, newest first, below the cursor; domain events only for those who may read them. */
  async page(query: DeliveryQuery, withDomainEvents: boolean): Promise<{ rows: DeliveryRow[]; more: boolean }> {
    const builder = this.deliveriesWithChannelName()
      .orderBy('d.seq', 'DESC')
      .limit(query.limit + 1);
    if (query.before) builder.andWhere('d.seq < :before', { before: query.before });
    if (query.channelId) builder.andWhere('d.channel_id = :channelId', { channelId: query.channelId });
    if (query.event) builder.andWhere('d.event_type = :event', { event: query.event });
    if (query.status) builder.andWhere('d.status = :status', { status: query.status });
    if (!withDomainEvents) builder.andWhere("d.event_type NOT LIKE 'domain.%'");
    const rows = await this.rowsOf(builder);
    return { rows: rows.slice(0, query.limit), more: rows.length > query.limit };
  }

  async delivery(id: string): Promise<DeliveryRow | null> {
    const [row] = await this.rowsOf(this.deliveriesWithChannelName().where('d.id = :id', { id }));
    return row ?? null;
  }

  /** Deliveries (as `d`) with their channel's name, which the log shows. */
  private deliveriesWithChannelName() {
    return this.dataSource
      .getRepository(NotificationDeliveryEntity)
      .createQueryBuilder('d')
      .innerJoin('notification_channels', 'c', 'c.id = d.channel_id')
      .addSelect('c.name', 'channel_name');
  }

  private async rowsOf(builder: ReturnType<NotificationsRepository['deliveriesWithChannelName']>): Promise<DeliveryRow[]> {
    const { entities, raw } = await builder.getRawAndEntities<{ channel_name: string }>();
    return entities.map((entity, index) => Object.assign(entity, { channelName: raw[index]!.channel_name }));
  }

  /**
   * Raises `breaker.stuck_open` for the rule's breakers that opened at least `minutes` ago and have not been CLOSED
   * since: once per opening and rule (its dedupe key), whichever replica's sweep finds it first.
   */
  async raiseStuckOpen(ruleId: string, minutes: number): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO notification_events (type, subject_kind, subject_id, subject_name, occurred_at, data, rule_id, dedupe_key)
       SELECT 'breaker.stuck_open', 'breaker', c.id, c.name, now(),
              jsonb_build_object('breaker', jsonb_build_object('id', c.id, 'name', c.name, 'type', c.type, 'source', c.source, 'service', c.service),
                                 'openedAt', o.at, 'minutes', $2::int),
              $1::uuid, 'stuck:' || $1 || ':' || c.id || ':' || (extract(epoch FROM o.at) * 1000)::bigint
       FROM circuit_breaker_configs c
       JOIN LATERAL (SELECT at FROM breaker_transitions t WHERE t.config_id = c.id AND t.from_state = 'CLOSED' AND t.to_state = 'OPEN'
                     ORDER BY at DESC LIMIT 1) o ON true
       WHERE o.at <= now() - make_interval(mins => $2)
         AND NOT EXISTS (SELECT 1 FROM breaker_transitions t WHERE t.config_id = c.id AND t.to_state = 'CLOSED' AND t.at > o.at)
       ON CONFLICT (dedupe_key) DO NOTHING`,
      [ruleId, minutes],
    );
  }
}

/** A raw row's snake_case columns as the entity's properties. */
function fromColumns(row: Record<string, unknown>): Partial<NotificationDeliveryEntity> {
  return {
    id: row.id as string,
    seq: String(row.seq),
    eventId: row.event_id === null ? null : String(row.event_id),
    eventType: row.event_type as NotificationEventType,
    subject: row.subject as string,
    subjectKind: row.subject_kind as NotificationSubjectKind | null,
    occurredAt: row.occurred_at as Date,
    payload: row.payload as WebhookBody['data'],
    channelId: row.channel_id as string | null,
    audience: (row.audience ?? null) as string | null,
    recipient: (row.recipient ?? null) as string | null,
    alertGroupId: (row.alert_group_id ?? null) as number | null,
    step: (row.step ?? null) as number | null,
    ruleId: row.rule_id as string | null,
    ruleName: row.rule_name as string | null,
    status: row.status as DeliveryStatus,
    attempts: row.attempts as number,
    maxAttempts: row.max_attempts as number,
    nextAttemptAt: row.next_attempt_at as Date | null,
    leaseOwner: row.lease_owner as string | null,
    leaseUntil: row.lease_until as Date | null,
    statusCode: row.status_code as number | null,
    durationMs: row.duration_ms as number | null,
    lastError: row.last_error as string | null,
    createdAt: row.created_at as Date,
    deliveredAt: row.delivered_at as Date | null,
  };
}
