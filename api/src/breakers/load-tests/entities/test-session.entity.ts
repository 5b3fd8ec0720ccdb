import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { TestSessionView } from '@cbh/contracts';
import { BreakerConfigEntity } from '../../entities/breaker-config.entity';
import { UserEntity } from '../../../identity';

export type TestSessionStatus = TestSessionView['status'];

/** A load test: while running, exactly one replica (the owner) drives it and keeps its heartbeat fresh. */
@Entity('test_sessions')
@Check('test_sessions_status_check', `"status" IN ('running', 'completed', 'stopped')`)
// At most one running session per configuration; starting a second one fails with a unique violation.
@Index('test_sessions_one_running', ['configId'], { unique: true, where: `"status" = 'running'` })
export class TestSessionEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('integer', { name: 'config_id' }) configId!: number;

  // Declared for the foreign key only (deleting a configuration deletes its sessions); never loaded.
  @ManyToOne(() => BreakerConfigEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'config_id', foreignKeyConstraintName: 'test_sessions_config_id_fkey' })
  config?: BreakerConfigEntity;
  @Column('integer', { name: 'failure_rate' }) failureRate!: number;
  @Column('integer', { name: 'request_rate' }) requestRate!: number;
  @Column('integer', { name: 'duration_minutes' }) durationMinutes!: number;
  @Column('text') status!: TestSessionStatus;
  @Column('timestamptz', { name: 'started_at', default: () => 'now()' }) startedAt!: Date;
  @Column('timestamptz', { name: 'ends_at' }) endsAt!: Date;
  @Column('timestamptz', { name: 'stopped_at', nullable: true }) stoppedAt!: Date | null;

  /** The replica driving the session. */
  @Column('uuid', { name: 'owner_instance', nullable: true }) ownerInstance!: string | null;

  /** Refreshed by the owner; a running session whose heartbeat is old is taken over by another replica. */
  @Column('timestamptz', { name: 'heartbeat_at', default: () => 'now()' }) heartbeatAt!: Date;
  @Column('uuid', { name: 'created_by', nullable: true }) createdBy!: string | null;

  // Declared for the foreign key only (a removed user leaves the session without its creator); never loaded.
  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'test_sessions_created_by_fkey' })
  creator?: UserEntity;
}

export function toTestSessionView(session: TestSessionEntity): TestSessionView {
  return {
    id: session.id,
    configId: session.configId,
    failureRate: session.failureRate,
    requestRate: session.requestRate,
    duration: session.durationMinutes,
    status: session.status,
    startedAt: session.startedAt.toISOString(),
    endsAt: session.endsAt.toISOString(),
    stoppedAt: session.stoppedAt?.toISOString() ?? null,
  };
}
