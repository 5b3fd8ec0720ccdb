import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { DomainEntity } from './domain.entity';

/** A domain's uptime checks during one minute, added up: the uptime percentage's source, kept as check-result retention says. */
@Entity('domain_check_buckets')
@Index('domain_check_buckets_minute', ['minute'])
export class DomainCheckBucketEntity {
  @PrimaryColumn('integer', { name: 'domain_id' }) domainId!: number;

  // Declared for the foreign key only (deleting a domain deletes its buckets); never loaded.
  @ManyToOne(() => DomainEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'domain_id', foreignKeyConstraintName: 'domain_check_buckets_domain_id_fkey' })
  parent?: DomainEntity;
  @PrimaryColumn('timestamptz') minute!: Date;
  @Column('integer', { default: 0 }) checks!: number;
  @Column('integer', { default: 0 }) failures!: number;

  /** Of the successful checks only, so that timeouts do not inflate the average. */
  @Column('integer', { name: 'total_response_ms', default: 0 }) totalResponseMs!: number;
}
