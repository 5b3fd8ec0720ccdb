import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { DomainVerificationView, VerificationStatus } from '@cbh/contracts';
import { DomainEntity } from './domain.entity';

/** A domain's proof of ownership: the TXT record to publish, and what the last look-up found. */
@Entity('domain_verifications')
@Check('domain_verifications_status_check', `"status" IN ('pending', 'verifying', 'verified', 'failed')`)
export class DomainVerificationEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('integer', { name: 'domain_id', unique: true }) domainId!: number;

  // Declared for the foreign key only (deleting a domain deletes its verification); never loaded.
  @ManyToOne(() => DomainEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'domain_id', foreignKeyConstraintName: 'domain_verifications_domain_id_fkey' })
  parent?: DomainEntity;
  @Column('text', { name: 'record_name' }) recordName!: string;
  @Column('text', { name: 'record_value' }) recordValue!: string;
  @Column('text', { default: 'pending' }) status!: VerificationStatus;
  @Column('text', { nullable: true }) reason!: string | null;
  @Column('timestamptz', { name: 'checked_at', nullable: true }) checkedAt!: Date | null;
  @Column('timestamptz', { name: 'verified_at', nullable: true }) verifiedAt!: Date | null;
}

export function toVerificationView(row: DomainVerificationEntity): DomainVerificationView {
  return {
    id: row.id,
    domainId: row.domainId,
    recordName: row.recordName,
    recordValue: row.recordValue,
    status: row.status,
    reason: row.reason,
    checkedAt: row.checkedAt?.toISOString() ?? null,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
  };
}
