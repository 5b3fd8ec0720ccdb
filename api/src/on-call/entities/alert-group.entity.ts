import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { AlertGroupState, AlertGroupSubject } from '@cbh/contracts';

/**
 * An alert group: the events of one subject (and of subjects depending on it) that a rule naming an escalation
 * policy routed, while it is open. The escalation's next step (0-based, counting on through the policy's repeats)
 * and its time are stored here and claimed by one replica (escalation-runner.service.ts).
 */
@Entity('alert_groups')
export class AlertGroupEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text', { name: 'subject_kind' }) subjectKind!: AlertGroupSubject;
  @Column('integer', { name: 'subject_id' }) subjectId!: number;
  @Column('text', { name: 'subject_name' }) subjectName!: string;
  @Column('text', { nullable: true }) service!: string | null;
  @Column('text') title!: string;
  @Column('text') state!: AlertGroupState;
  @Column('uuid', { name: 'escalation_policy_id', nullable: true }) escalationPolicyId!: string | null;
  @Column('uuid', { name: 'rule_id', nullable: true }) ruleId!: string | null;
  /** the event that opened it: what every step's message tells */
  @Column('text', { name: 'opening_type' }) openingType!: string;
  @Column('jsonb', { name: 'opening_data' }) openingData!: Record<string, unknown>;
  @Column('integer', { name: 'next_step' }) nextStep!: number;
  @Column('timestamptz', { name: 'next_step_at', nullable: true }) nextStepAt!: Date | null;
  @Column('integer', { name: 'event_count' }) eventCount!: number;
  @Column('integer', { name: 'caused_count' }) causedCount!: number;
  @Column('timestamptz', { name: 'opened_at' }) openedAt!: Date;
  @Column('timestamptz', { name: 'acknowledged_at', nullable: true }) acknowledgedAt!: Date | null;
  @Column('text', { name: 'acknowledged_by', nullable: true }) acknowledgedBy!: string | null;
  @Column('timestamptz', { name: 'resolved_at', nullable: true }) resolvedAt!: Date | null;
  @Column('text', { name: 'resolved_by', nullable: true }) resolvedBy!: string | null;
  @Column('timestamptz', { name: 'silenced_until', nullable: true }) silencedUntil!: Date | null;
}
