import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A status page: what the people who depend on a service see at /status/{slug}. */
@Entity('status_pages')
export class StatusPageEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') slug!: string;
  @Column('text') title!: string;
  @Column('text', { nullable: true }) description!: string | null;
  /** Public: anyone may read it; otherwise only the signed-in holders of dashboard_view. */
  @Column('boolean', { default: false }) public!: boolean;
  @Column('text', { name: 'accent_color', nullable: true }) accentColor!: string | null;
  @Column('uuid', { name: 'created_by', nullable: true }) createdBy!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
