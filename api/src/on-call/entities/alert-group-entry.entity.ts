import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { AlertGroupEntryKind, AlertGroupSubject } from '@cbh/contracts';

/** One line of an alert group's timeline: an event, a step fired, an acknowledgement… */
@Entity('alert_group_entries')
export class AlertGroupEntryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id!: string;
  @Column('integer', { name: 'group_id' }) groupId!: number;
  @Column('timestamptz', { default: () => 'now()' }) at!: Date;
  @Column('text') kind!: AlertGroupEntryKind;
  @Column('text') text!: string;
  @Column('text', { name: 'event_type', nullable: true }) eventType!: string | null;
  @Column('integer', { nullable: true }) step!: number | null;
  @Column('text', { nullable: true }) actor!: string | null;
  @Column('jsonb', { nullable: true }) subject!: { kind: AlertGroupSubject; id: number; name: string } | null;
}
