import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Someone who asked for a page's incidents and maintenance by e-mail; mailed only once confirmed (double opt-in). */
@Entity('status_subscriptions')
export class StatusSubscriptionEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('integer', { name: 'page_id' }) pageId!: number;
  @Column('text') email!: string;
  /** component ids; empty: every component */
  @Column('integer', { array: true, default: () => "'{}'" }) components!: number[];
  @Column('timestamptz', { name: 'confirmed_at', nullable: true }) confirmedAt!: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
