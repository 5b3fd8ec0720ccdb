import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { ChannelType } from '@cbh/contracts';

/** Where notifications go. Its URL and secret are sealed (they carry credentials) and never sent back. */
@Entity('notification_channels')
export class NotificationChannelEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('text') type!: ChannelType;
  @Column('text', { array: true, default: () => "'{}'" }) recipients!: string[];
  @Column('text', { name: 'url_sealed', nullable: true }) urlSealed!: string | null;
  /** The URL's host alone, so people tell channels apart without seeing the URL. */
  @Column('text', { name: 'url_host', nullable: true }) urlHost!: string | null;
  @Column('text', { name: 'secret_sealed', nullable: true }) secretSealed!: string | null;
  @Column('uuid', { name: 'created_by', nullable: true }) createdBy!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
