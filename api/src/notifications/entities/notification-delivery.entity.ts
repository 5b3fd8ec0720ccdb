import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { DeliveryStatus, NotificationEventType, NotificationSubjectKind, WebhookBody } from '@cbh/contracts';

/** One event for one channel: what is sent (the same on every try), its status, and its last try. */
@Entity('notification_deliveries')
export class NotificationDeliveryEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  /** Insertion order: the log's newest-first order and its page cursor. */
  @Column({ type: 'bigint', insert: false, update: false }) seq!: string;
  @Column('bigint', { name: 'event_id', nullable: true }) eventId!: string | null;
  @Column('text', { name: 'event_type' }) eventType!: NotificationEventType;
  @Column('text') subject!: string;
  @Column('text', { name: 'subject_kind', nullable: true }) subjectKind!: NotificationSubjectKind | null;
  @Column('timestamptz', { name: 'occurred_at' }) occurredAt!: Date;
  @Column('jsonb') payload!: WebhookBody['data'];
  /** The channel it goes to; null for a delivery to an audience's recipient (a status page's subscriber). */
  @Column('uuid', { name: 'channel_id', nullable: true }) channelId!: string | null;
  /** The audience that addresses it (see outbox-audiences.ts), and its recipient there. */
  @Column('text', { nullable: true }) audience!: string | null;
  @Column('text', { nullable: true }) recipient!: string | null;
  @Column('uuid', { name: 'rule_id', nullable: true }) ruleId!: string | null;
  /** Kept so the log still names a rule deleted since. */
  @Column('text', { name: 'rule_name', nullable: true }) ruleName!: string | null;
  /** a message of an alert group, and the escalation step (from 1) that sent it */
  @Column('integer', { name: 'alert_group_id', nullable: true }) alertGroupId!: number | null;
  @Column('integer', { nullable: true }) step!: number | null;
  @Column('text') status!: DeliveryStatus;
  @Column('integer') attempts!: number;
  @Column('integer', { name: 'max_attempts' }) maxAttempts!: number;
  @Column('timestamptz', { name: 'next_attempt_at', nullable: true }) nextAttemptAt!: Date | null;
  @Column('uuid', { name: 'lease_owner', nullable: true }) leaseOwner!: string | null;
  @Column('timestamptz', { name: 'lease_until', nullable: true }) leaseUntil!: Date | null;
  @Column('integer', { name: 'status_code', nullable: true }) statusCode!: number | null;
  @Column('integer', { name: 'duration_ms', nullable: true }) durationMs!: number | null;
  @Column('text', { name: 'last_error', nullable: true }) lastError!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column('timestamptz', { name: 'delivered_at', nullable: true }) deliveredAt!: Date | null;
}
