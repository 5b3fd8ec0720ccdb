import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { BreakerStateName, JournalEntry } from '@cbh/contracts';

/** The transition journal: every state change of every breaker on every replica, kept with its configuration. */
@Entity('breaker_transitions')
export class BreakerTransitionEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id!: string;
  @Column('integer', { name: 'config_id' }) configId!: number;
  @Column('text', { name: 'from_state' }) from!: BreakerStateName;
  @Column('text', { name: 'to_state' }) to!: BreakerStateName;
  @Column('text') reason!: string;
  @Column('uuid', { name: 'instance_id', nullable: true }) instanceId!: string | null;
  /** The service instance an agent's or scraped breaker moved on. */
  @Column('text', { name: 'service_instance', nullable: true }) serviceInstance!: string | null;
  @Column('timestamptz') at!: Date;
}

export function toJournalEntry(row: BreakerTransitionEntity): JournalEntry {
  return {
    id: Number(row.id),
    configId: row.configId,
    from: row.from,
    to: row.to,
    reason: row.reason,
    instanceId: row.instanceId,
    serviceInstance: row.serviceInstance,
    at: row.at.toISOString(),
  };
}
