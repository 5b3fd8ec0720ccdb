import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A time when notifications about some (or all) breakers and domains are muted, once or every week. */
@Entity('maintenance_windows')
export class MaintenanceWindowEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('timestamptz', { name: 'starts_at' }) startsAt!: Date;
  @Column('timestamptz', { name: 'ends_at' }) endsAt!: Date;
  @Column('boolean', { name: 'repeat_weekly' }) repeatWeekly!: boolean;
  @Column('text', { array: true }) breakers!: string[];
  @Column('text', { array: true }) domains!: string[];
  @Column('uuid', { name: 'created_by', nullable: true }) createdBy!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
