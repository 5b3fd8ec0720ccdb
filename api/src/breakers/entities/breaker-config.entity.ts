import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { BreakerOverride, BreakerSettings, BreakerSource, BreakerTypeName } from '@cbh/contracts';

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
  /** Where the breaker runs: the hub's own engine, or a service's (reported by its agent, or scraped). */
  @Column('text', { default: 'hub' }) source!: BreakerSource;
  /** The service an agent or scraped breaker belongs to (the service account's or the scrape target's name). */
  @Column('text', { nullable: true }) service!: string | null;
  @Column('text', { nullable: true }) library!: string | null;
  @Column('text', { name: 'library_type', nullable: true }) libraryType!: string | null;
  /** The settings the service last reported, in its library's words. */
  @Column('jsonb', { name: 'reported_settings', nullable: true }) reportedSettings!: LibrarySettings | null;
  /** The settings an operator set, pushed to every instance until changed. */
  @Column('jsonb', { name: 'library_settings', nullable: true }) librarySettings!: LibrarySettings | null;
  /** Raised by every operator's change of an agent's breaker: the order the instances apply controls in. */
  @Column('integer', { default: 0 }) revision!: number;
  /** The revision of the last Reset of an agent's breaker. */
  @Column('integer', { name: 'reset_revision', default: 0 }) resetRevision!: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}

export type LibrarySettings = Record<string, number | string | boolean>;

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
