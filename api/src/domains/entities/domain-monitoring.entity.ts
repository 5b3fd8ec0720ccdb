import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import type { DomainMonitoringView, MonitoringType, UptimeStatus } from '@cbh/contracts';
import { DomainEntity } from './domain.entity';

/** A domain's uptime summary, rewritten by every check; the history is in the results and buckets. */
@Entity('domain_monitoring')
@Unique('domain_monitoring_domain_id_type_key', ['domainId', 'monitoringType'])
export class DomainMonitoringEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('integer', { name: 'domain_id' }) domainId!: number;

  // Declared for the foreign key only (deleting a domain deletes its monitoring); never loaded.
  @ManyToOne(() => DomainEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'domain_id', foreignKeyConstraintName: 'domain_monitoring_domain_id_fkey' })
  parent?: DomainEntity;
  @Column('text', { name: 'monitoring_type', default: 'uptime' }) monitoringType!: MonitoringType;
  @Column('text', { name: 'last_status', nullable: true }) lastStatus!: UptimeStatus | null;
  @Column('integer', { name: 'response_time_ms', nullable: true }) responseTimeMs!: number | null;

  /** Over the last 30 days of buckets. */
  @Column('double precision', { name: 'uptime_percentage', nullable: true }) uptimePercentage!: number | null;
  @Column('timestamptz', { name: 'last_check', nullable: true }) lastCheck!: Date | null;

  /** Counted so that an alert waits for several checks in a row rather than one blip. */
  @Column('integer', { name: 'consecutive_failures', default: 0 }) consecutiveFailures!: number;
  @Column('integer', { name: 'consecutive_slow', default: 0 }) consecutiveSlow!: number;

  /** When the current run of failed (slow) checks began: names one outage, e.g. in an alert's dedupe key. */
  @Column('timestamptz', { name: 'failing_since', nullable: true }) failingSince!: Date | null;
  @Column('timestamptz', { name: 'slow_since', nullable: true }) slowSince!: Date | null;
}

export function toMonitoringView(row: DomainMonitoringEntity): DomainMonitoringView {
  return {
    id: row.id,
    domainId: row.domainId,
    monitoringType: row.monitoringType,
    lastStatus: row.lastStatus,
    responseTime: row.responseTimeMs,
    uptimePercentage: row.uptimePercentage,
    lastCheck: row.lastCheck?.toISOString() ?? null,
  };
}
