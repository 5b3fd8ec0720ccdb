import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BreakerConfigEntity } from '../../entities/breaker-config.entity';

/** The calls one replica made through one breaker during one second, by outcome. */
@Entity('metric_buckets')
@Index('metric_buckets_second', ['second'])
export class MetricBucketEntity {
  @PrimaryColumn('integer', { name: 'config_id' }) configId!: number;

  // Declared for the foreign key only (deleting a configuration deletes its figures); never loaded.
  @ManyToOne(() => BreakerConfigEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'config_id', foreignKeyConstraintName: 'metric_buckets_config_id_fkey' })
  config?: BreakerConfigEntity;
  @PrimaryColumn('timestamptz') second!: Date;
  @PrimaryColumn('uuid', { name: 'instance_id' }) instanceId!: string;
  @Column('integer', { default: 0 }) success!: number;
  @Column('integer', { default: 0 }) failure!: number;
  @Column('integer', { default: 0 }) timeout!: number;
  @Column('integer', { name: 'short_circuited', default: 0 }) shortCircuited!: number;
  @Column('integer', { name: 'bulkhead_rejected', default: 0 }) bulkheadRejected!: number;
}
