import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { DnsRecordType, DnsRecordView } from '@cbh/contracts';
import { DomainEntity } from './domain.entity';

/**
 * A DNS record a round found. A record gone since stays, inactive. Unique on (domain_id, record_type, name,
 * md5(value)) — an expression index TypeORM cannot declare, created by the migration.
 */
@Entity('dns_records')
@Check('dns_records_record_type_check', `"record_type" IN ('A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS')`)
export class DnsRecordEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('integer', { name: 'domain_id' }) domainId!: number;

  // Declared for the foreign key only (deleting a domain deletes its records); never loaded.
  @ManyToOne(() => DomainEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'domain_id', foreignKeyConstraintName: 'dns_records_domain_id_fkey' })
  parent?: DomainEntity;
  @Column('text', { name: 'record_type' }) recordType!: DnsRecordType;
  @Column('text') name!: string;
  @Column('text') value!: string;

  /** Seconds. */
  @Column('integer') ttl!: number;
  @Column('boolean', { name: 'is_active', default: true }) isActive!: boolean;
  @Column('timestamptz', { name: 'last_seen_at', default: () => 'now()' }) lastSeenAt!: Date;
}

export function toDnsRecordView(row: DnsRecordEntity): DnsRecordView {
  return {
    id: row.id,
    domainId: row.domainId,
    recordType: row.recordType,
    name: row.name,
    value: row.value,
    ttl: row.ttl,
    isActive: row.isActive,
    lastSeenAt: row.lastSeenAt.toISOString(),
  };
}
