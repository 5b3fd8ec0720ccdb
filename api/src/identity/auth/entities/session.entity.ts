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
  /** A session row is written first at sign-in (a new id, against fixation), so its creation is the sign-in. */
  @Column('timestamptz', { name: 'signed_in_at', default: () => 'now()' }) signedInAt!: Date;
  /** Written at most once a minute per session (see SessionActivity), never per request. */
  @Column('timestamptz', { name: 'last_seen_at', default: () => 'now()' }) lastSeenAt!: Date;
  /** Bounded to USER_AGENT_MAX_LENGTH characters. */
  @Column('text', { name: 'user_agent', nullable: true }) userAgent!: string | null;
  @Column('text', { nullable: true }) address!: string | null;
}
