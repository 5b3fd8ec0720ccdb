import type { TokenVia } from '@cbh/contracts';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('audit_entries')
export class AuditEntryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id!: string;
  @Column('uuid', { name: 'actor_id', nullable: true }) actorId!: string | null;
  @Column('text', { name: 'actor_email', nullable: true }) actorEmail!: string | null;
  @Column('text') action!: string;
  @Column('text', { name: 'target_type', nullable: true }) targetType!: string | null;
  @Column('text', { name: 'target_id', nullable: true }) targetId!: string | null;
  @Column('jsonb', { nullable: true }) before!: object | null;
  @Column('jsonb', { nullable: true }) after!: object | null;
  @Column('text', { name: 'request_id', nullable: true }) requestId!: string | null;
  /** The personal access token the change was made through, if any. */
  @Column('jsonb', { nullable: true }) via!: TokenVia | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
