import { Column, CreateDateColumn, Entity, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { AlertSeverity, BreakerTypeName, RuleEventType } from '@cbh/contracts';

/** Which events go to which channels, with filters and a minimum interval per subject. */
@Entity('notification_rules')
export class NotificationRuleEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('boolean') enabled!: boolean;
  @Column('text', { array: true }) events!: RuleEventType[];
  @Column('text', { array: true }) breakers!: string[];
  @Column('text', { name: 'breaker_types', array: true }) breakerTypes!: BreakerTypeName[];
  @Column('text', { array: true }) domains!: string[];
  @Column('text', { array: true }) severities!: AlertSeverity[];
  @Column('integer', { name: 'min_interval_minutes' }) minIntervalMinutes!: number;
  @Column('integer', { name: 'stuck_open_minutes' }) stuckOpenMinutes!: number;
  @Column('integer', { name: 'flapping_openings' }) flappingOpenings!: number;
  @Column('integer', { name: 'flapping_minutes' }) flappingMinutes!: number;
  /** alert groups open under this policy for the events the rule lets through (the on-call context fires its steps) */
  @Column('uuid', { name: 'escalation_policy_id', nullable: true }) escalationPolicyId!: string | null;
  @Column('uuid', { name: 'created_by', nullable: true }) createdBy!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}

/** A channel of a rule; deleting either removes the pair. */
@Entity('notification_rule_channels')
export class NotificationRuleChannelEntity {
  @PrimaryColumn('uuid', { name: 'rule_id' }) ruleId!: string;
  @PrimaryColumn('uuid', { name: 'channel_id' }) channelId!: string;
}
