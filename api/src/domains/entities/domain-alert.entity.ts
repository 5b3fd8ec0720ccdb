import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { AlertSeverity, AlertStatus, DomainAlertType, DomainAlertView } from '@cbh/contracts';
import { DomainEntity } from './domain.entity';

/** Something about a domain that needs attention; resolved by hand or by the check that sees it pass. */
@Entity('domain_alerts')
@Check('domain_alerts_severity_check', `"severity" IN ('critical', 'high', 'medium', 'low')`)
@Check('domain_alerts_status_check', `"status" IN ('open', 'resolved')`)
// Each condition is raised once, whichever replica sees it first: a second insert with the key does nothing.
@Index('domain_alerts_dedupe', ['domainId', 'dedupeKey'], { unique: true, where: `"dedupe_key" IS NOT NULL` })
@Index('domain_alerts_open', ['domainId', 'alertType'], { where: `"status" = 'open'` })
@Index('domain_alerts_triggered_at', ['triggeredAt'])
export class DomainAlertEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('integer', { name: 'domain_id' }) domainId!: number;

  // Declared for the foreign key only (deleting a domain deletes its alerts); never loaded.
  @ManyToOne(() => DomainEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'domain_id', foreignKeyConstraintName: 'domain_alerts_domain_id_fkey' })
  parent?: DomainEntity;
  @Column('text', { name: 'alert_type' }) alertType!: DomainAlertType;
  @Column('text') severity!: AlertSeverity;
  @Column('text', { default: 'open' }) status!: AlertStatus;
  @Column('timestamptz', { name: 'triggered_at', default: () => 'now()' }) triggeredAt!: Date;
  @Column('timestamptz', { name: 'resolved_at', nullable: true }) resolvedAt!: Date | null;
  @Column('text') message!: string;

  /** Names the condition, e.g. 'certificate-expiring-14:<fingerprint>'; never shown. */
  @Column('text', { name: 'dedupe_key', nullable: true }) dedupeKey!: string | null;
}

export function toAlertView(row: DomainAlertEntity): DomainAlertView {
  return {
    id: row.id,
    domainId: row.domainId,
    alertType: row.alertType,
    severity: row.severity,
    status: row.status,
    triggeredAt: row.triggeredAt.toISOString(),
    message: row.message,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
  };
}
