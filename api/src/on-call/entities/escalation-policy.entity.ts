import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { CreateEscalationPolicy } from '@cbh/contracts';

/** Who is told, step by step, while an alert group fires: each step's channels, people or schedule, then its wait. */
@Entity('escalation_policies')
export class EscalationPolicyEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('jsonb') steps!: CreateEscalationPolicy['steps'];
  @Column('integer', { default: 0 }) repeat!: number;
  @Column('uuid', { name: 'created_by', nullable: true }) createdBy!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
