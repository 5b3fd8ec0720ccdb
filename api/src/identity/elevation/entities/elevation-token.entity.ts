import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An e-mailed elevation link: usable once, until it expires or another is sent (an account keeps one). */
@Entity('elevation_tokens')
export class ElevationTokenEntity {
  /** sha256 of the token in the link; the token itself is never stored. */
  @PrimaryColumn('text', { name: 'token_hash' }) tokenHash!: string;
  @Column('uuid', { name: 'user_id' }) userId!: string;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
  @Column('timestamptz', { name: 'used_at', nullable: true }) usedAt!: Date | null;
  /** When it was sent: the next link waits out a cooldown from here. */
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
}
