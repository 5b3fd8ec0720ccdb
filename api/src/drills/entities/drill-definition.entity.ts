import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { DrillDefinitionExpectation, DrillDefinitionStep } from '@cbh/contracts';

/** A saved drill: its breakers by name (ids differ between hubs), resolved to ids only when it runs. */
@Entity('drill_definitions')
export class DrillDefinitionEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') name!: string;
  @Column('jsonb') steps!: DrillDefinitionStep[];
  @Column('jsonb', { default: [] }) expectations!: DrillDefinitionExpectation[];
  @Column('uuid', { name: 'created_by', nullable: true }) createdBy!: string | null;
  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' }) updatedAt!: Date;
}
