import { Injectable } from '@nestjs/common';
import type { SessionData } from 'express-session';
import { DataSource } from 'typeorm';
import { SessionEntity } from './entities/session.entity';

/** The sessions table, for the session store. A read checks expiry against the database clock, the one every replica shares. */
@Injectable()
export class SessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get sessions() {
    return this.dataSource.getRepository(SessionEntity);
  }

  /** The session's data, or null when there is no such session or it has expired. */
  async findLive(sid: string): Promise<SessionData | null> {
    const row = await this.sessions
      .createQueryBuilder('session')
      .select(['session.sid', 'session.data'])
      .where('session.sid = :sid', { sid })
      .andWhere('session.expiresAt > now()')
      .getOne();
    return row?.data ?? null;
  }

  /** Which of these sessions still exist and have not expired (one query for every socket of a replica). */
  async live(sids: readonly string[]): Promise<Set<string>> {
    if (sids.length === 0) return new Set();
    const rows = await this.sessions
      .createQueryBuilder('session')
      .select('session.sid', 'sid')
      .where('session.sid IN (:...sids)', { sids })
      .andWhere('session.expiresAt > now()')
      .getRawMany<{ sid: string }>();
    return new Set(rows.map((row) => row.sid));
  }

  /** Writes the session in one statement, replacing what an earlier save of the same sid left. */
  async save(session: SessionEntity): Promise<void> {
    await this.sessions.upsert(session, { conflictPaths: ['sid'] });
  }

  async delete(sid: string): Promise<void> {
    await this.sessions.delete({ sid });
  }

  /**
   * Deletes the account's sessions beyond its newest `keep` in one statement and returns their ids. Newest by
   * expiry, which is fixed at sign-in; expired ones go first.
   */
  async deleteOldestOfUser(userId: string, keep: number): Promise<string[]> {
    const [rows]: [Pick<SessionEntity, 'sid'>[], number] = await this.dataSource.query(
      `DELETE FROM sessions WHERE sid IN (
         SELECT sid FROM sessions WHERE user_id = $1 ORDER BY expires_at DESC, sid OFFSET $2)
       RETURNING sid`,
      [userId, keep],
    );
    return rows.map((row) => row.sid);
  }

  /** Deletes the sessions that have expired (nobody can use them any more); how many. */
  async deleteExpired(): Promise<number> {
    const { affected } = await this.sessions.createQueryBuilder().delete().where('expires_at <= now()').execute();
    return affected ?? 0;
  }

  /** Deletes every session of an account in one statement and returns their ids. */
  async deleteForUser(userId: string): Promise<string[]> {
    const { raw } = await this.sessions.createQueryBuilder().delete().where({ userId }).returning(['sid']).execute();
    return (raw as Pick<SessionEntity, 'sid'>[]).map((row) => row.sid);
  }
}
