import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A person's calendar of their own shifts, at a secret address: its token kept as a SHA-256 hash only. */
@Entity('on_call_feeds')
export class OnCallFeedEntity {
  @PrimaryColumn('uuid', { name: 'user_id' }) userId!: string;
  @Column('text', { name: 'token_hash' }) tokenHash!: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
