import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { BreakerStateName, DrillFault, DrillState, DrillVerdict } from '@cbh/contracts';

/** A step as stored: its breaker by id, and when it runs (ISO 8601), fixed when the drill starts. */
export interface StoredStep {
  index: number;
  breakerId: number;
  fault: DrillFault;
  instances: 'all' | number;
  durationSeconds: number;
  startsAt: string;
  endsAt: string;
}

/** An expectation as stored, with its judgement so far. */
export interface StoredExpectation {
  breakerId: number;
  state: BreakerStateName;
  withinSeconds: number;
  after: 'start' | 'end';
  result: DrillVerdict;
  tookSeconds: number | null;
}

/** A drill: its steps run one after the other from its start; `told` once drill.finished went out. */
@Entity('drills')
export class DrillEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') name!: string;
  @Column('text', { default: 'running' }) state!: DrillState;
  @Column('timestamptz', { name: 'started_at', default: () => 'now()' }) startedAt!: Date;
  @Column('timestamptz', { name: 'ends_at' }) endsAt!: Date;
  @Column('timestamptz', { name: 'ended_at', nullable: true }) endedAt!: Date | null;
  @Column('uuid', { name: 'started_by', nullable: true }) startedBy!: string | null;
  @Column('uuid', { name: 'stopped_by', nullable: true }) stoppedBy!: string | null;
  @Column('jsonb') steps!: StoredStep[];
  @Column('jsonb', { default: [] }) expectations!: StoredExpectation[];
  @Column('text', { default: 'pending' }) verdict!: DrillVerdict;
  @Column('boolean', { default: false }) told!: boolean;
}
