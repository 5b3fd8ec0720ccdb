import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { CreateSchedule } from '@cbh/contracts';

/** Who is on call when: rotations and overrides in the schedule's time zone (see on-call-at.ts). */
@Entity('on_call_schedules')
export class ScheduleEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('text', { name: 'time_zone' }) timeZone!: string;
  @Column('jsonb', { default: () => "'[]'" }) rotations!: CreateSchedule['rotations'];
  @Column('jsonb', { default: () => "'[]'" }) overrides!: CreateSchedule['overrides'];
  @Column('uuid', { name: 'created_by', nullable: true }) createdBy!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
