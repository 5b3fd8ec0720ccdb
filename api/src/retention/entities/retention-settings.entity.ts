import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { PruneCounts, RetentionView } from '@cbh/contracts';

/** The one row of retention settings (its key is always true), with the daily prune's claim and last outcome. */
@Entity('retention_settings')
export class RetentionSettingsEntity {
  @PrimaryColumn('boolean', { default: true }) id!: boolean;
  @Column('integer', { name: 'audit_days' }) auditDays!: number;
  @Column('integer', { name: 'check_result_days' }) checkResultDays!: number;
  @Column('integer', { name: 'transition_days' }) transitionDays!: number;
  @Column('integer', { name: 'notification_days' }) notificationDays!: number;

  /** Set while a replica prunes: the others leave the prune to it until it finishes (or its claim lapses). */
  @Column('timestamptz', { name: 'pruning_since', nullable: true }) pruningSince!: Date | null;
  @Column('timestamptz', { name: 'last_pruned_at', nullable: true }) lastPrunedAt!: Date | null;
  @Column('jsonb', { name: 'last_pruned', nullable: true }) lastPruned!: PruneCounts | null;
}

export function toRetentionView(row: RetentionSettingsEntity): RetentionView {
  return {
    auditDays: row.auditDays,
    checkResultDays: row.checkResultDays,
    transitionDays: row.transitionDays,
    notificationDays: row.notificationDays,
    lastPrunedAt: row.lastPrunedAt?.toISOString() ?? null,
    lastPruned: row.lastPruned,
  };
}
