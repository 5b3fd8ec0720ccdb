import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { DomainCheckView, UptimeStatus } from '@cbh/contracts';
import { DomainEntity } from './domain.entity';

/** One uptime check as it happened; kept 24 hours (the buckets keep the counts longer). */
@Entity('domain_check_results')
@Index('domain_check_results_domain', ['domainId', 'checkedAt'])
@Index('domain_check_results_checked_at', ['checkedAt'])
export class DomainCheckResultEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id!: string;
  @Column('integer', { name: 'domain_id' }) domainId!: number;

  // Declared for the foreign key only (deleting a domain deletes its results); never loaded.
  @ManyToOne(() => DomainEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'domain_id', foreignKeyConstraintName: 'domain_check_results_domain_id_fkey' })
  parent?: DomainEntity;
  @Column('timestamptz', { name: 'checked_at', default: () => 'now()' }) checkedAt!: Date;
  @Column('text') status!: UptimeStatus;
  @Column('integer', { name: 'response_time_ms', nullable: true }) responseTimeMs!: number | null;
  @Column('text', { nullable: true }) error!: string | null;
}

export function toCheckView(row: DomainCheckResultEntity): DomainCheckView {
  return { checkedAt: row.checkedAt.toISOString(), status: row.status, responseTime: row.responseTimeMs, error: row.error };
}
