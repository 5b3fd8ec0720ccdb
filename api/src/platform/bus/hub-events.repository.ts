import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/** An event of the hub that notification rules may route: its type, what it is about, and its data. */
export interface HubEvent {
  type: string;
  subject: { kind: string; id: number; name: string };
  data: object;
  /** Raised once whatever raises it again (another replica judging the same thing): a second raise with this key does nothing. */
  dedupeKey?: string;
}

/**
 * The durable side of the bus: events written to `notification_events`, which wake the notification outbox on
 * every replica (a trigger NOTIFYs `notifications-due`). A context raises its events here rather than calling the
 * notifications context, so the arrows keep pointing down; a breaker's transition and a domain alert arrive in the
 * same table by database triggers.
 */
@Injectable()
export class HubEvents {
  constructor(private readonly dataSource: DataSource) {}

  async raise(event: HubEvent): Promise<void> {
    await this.raiseIn(this.dataSource.manager, event);
  }

  /** Many raised in one statement (an escalation turn's), in a transaction; none may carry a dedupe key. */
  async raiseAllIn(manager: EntityManager, events: readonly Omit<HubEvent, 'dedupeKey'>[]): Promise<void> {
    if (events.length === 0) return;
    await manager.query(
      `INSERT INTO notification_events (type, subject_kind, subject_id, subject_name, occurred_at, data)
       SELECT e.type, e.kind, e.id, e.name, now(), e.data
       FROM jsonb_to_recordset($1::jsonb) AS e(type text, kind text, id integer, name text, data jsonb)`,
      [JSON.stringify(events.map(({ type, subject, data }) => ({ type, kind: subject.kind, id: subject.id, name: subject.name, data })))],
    );
  }

  /** Raised in a transaction: the event exists exactly when what it tells of was stored. */
  async raiseIn(manager: EntityManager, { type, subject, data, dedupeKey }: HubEvent): Promise<void> {
    await manager.query(
      `INSERT INTO notification_events (type, subject_kind, subject_id, subject_name, occurred_at, data, dedupe_key)
       VALUES ($1, $2, $3, $4, now(), $5::jsonb, $6)
       ON CONFLICT (dedupe_key) DO NOTHING`,
      [type, subject.kind, subject.id, subject.name, JSON.stringify(data), dedupeKey ?? null],
    );
  }
}
