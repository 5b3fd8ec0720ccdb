import type { SessionData } from 'express-session';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One express-session session; the user id is a column of its own so an account's sessions can be ended together. */
@Entity('sessions')
export class SessionEntity {
  @PrimaryColumn('text') sid!: string;

  /** Empty until someone signs in with the session. */
  @Column('uuid', { name: 'user_id', nullable: true }) userId!: string | null;
  @Column('jsonb') data!: SessionData;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
}
