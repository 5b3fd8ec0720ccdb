import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { ComponentState, IncidentImpact, IncidentStatus } from '@cbh/contracts';

/** An incident on a page: while open, the states it sets by hand win over what the breakers and domains say. */
@Entity('status_incidents')
export class IncidentEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('integer', { name: 'page_id' }) pageId!: number;
  @Column('text') title!: string;
  @Column('text') impact!: IncidentImpact;
  /** the last update's */
  @Column('text') status!: IncidentStatus;
  @Column('jsonb', { default: () => "'[]'" }) components!: { id: number; state: ComponentState }[];
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column('timestamptz', { name: 'resolved_at', nullable: true }) resolvedAt!: Date | null;
}

@Entity('status_incident_updates')
export class IncidentUpdateEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('integer', { name: 'incident_id' }) incidentId!: number;
  @Column('text') status!: IncidentStatus;
  @Column('text') message!: string;
  @Column('text', { nullable: true }) author!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
