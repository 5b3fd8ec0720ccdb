import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { BreakerOverride, BreakerSettings, BreakerTypeName } from '@cbh/contracts';

@Entity('circuit_breaker_configs')
export class BreakerConfigEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') name!: string;
  @Column('text') type!: BreakerTypeName;
  @Column('integer', { name: 'failure_threshold' }) failureThreshold!: number;
  @Column('integer', { name: 'timeout_ms' }) timeout!: number;
  @Column('integer', { name: 'recovery_time_ms' }) recoveryTime!: number;
  @Column('integer', { name: 'success_threshold' }) successThreshold!: number;
  @Column('integer', { name: 'max_concurrent_calls', nullable: true }) maxConcurrentCalls!: number | null;
  @Column('integer', { name: 'max_queue', nullable: true }) maxQueue!: number | null;
  @Column('integer', { name: 'minimum_calls', nullable: true }) minimumCalls!: number | null;
  @Column('integer', { name: 'slow_call_ms', nullable: true }) slowCallDuration!: number | null;
  /** An operator's manual override, applied by every replica until reset. */
  @Column('text', { default: 'none' }) override!: BreakerOverride;
  /** Raised by every change, under the row's lock: the order replicas apply changes in. */
  @Column('integer', { default: 0 }) version!: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}

/** What a breaker is built from: a configuration row, or its view as another replica announced it. */
export type BreakerConfigFields = Pick<
  BreakerConfigEntity,
  | 'id'
  | 'name'
  | 'type'
  | 'failureThreshold'
  | 'timeout'
  | 'recoveryTime'
  | 'successThreshold'
  | 'maxConcurrentCalls'
  | 'maxQueue'
  | 'minimumCalls'
  | 'slowCallDuration'
  | 'override'
  | 'version'
>;

export function toBreakerSettings(config: BreakerConfigFields): BreakerSettings {
  return {
    type: config.type,
    failureThreshold: config.failureThreshold,
    timeout: config.timeout,
    recoveryTime: config.recoveryTime,
    successThreshold: config.successThreshold,
    maxConcurrentCalls: config.maxConcurrentCalls ?? undefined,
    maxQueue: config.maxQueue ?? undefined,
    minimumCalls: config.minimumCalls ?? undefined,
    slowCallDuration: config.slowCallDuration ?? undefined,
  };
}
