import { Injectable } from '@nestjs/common';
import type { SessionData } from 'express-session';
import { DataSource, type EntityManager } from 'typeorm';
import { SessionEntity } from './entities/session.entity';

/** The sessions table, for the session store. A read checks expiry against the database clock, the one every replica shares. */
@Injectable()
export class SessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get sessions() {
    return this.dataSource.getRepository(SessionEntity);
  }

  /** The session's data and when it was last seen, or null when there is no such session or it has expired. */
  async findLive(sid: string): Promise<{ data: SessionData; lastSeenAt: Date } | null> {
    const row = await this.sessions
      .createQueryBuilder('session')
      .select(['session.sid', 'session.data', 'session.lastSeenAt'])
      .where('session.sid = :sid', { sid })
      .andWhere('session.expiresAt > now()')
      .getOne();
    return row ? { data: row.data, lastSeenAt: row.lastSeenAt } : null;
  }

  /**
   * Which of these sessions still exist, have not expired and, with an idle limit (ms), were seen within it (one
   * query for every socket of a replica).
   */
  async live(sids: readonly string[], idleMs: number | null): Promise<Set<string>> {
    if (sids.length === 0) return new Set();
    const query = this.sessions
      .createQueryBuilder('session')
      .select('session.sid', 'sid')
      .where('session.sid IN (:...sids)', { sids })
      .andWhere('session.expiresAt > now()');
    if (idleMs !== null) query.andWhere(`session.lastSeenAt > now() - :idleMs * interval '1 millisecond'`, { idleMs });
    const rows = await query.getRawMany<{ sid: string }>();
    return new Set(rows.map((row) => row.sid));
  }

  /** An account's live sessions (at most SESSIONS_PER_ACCOUNT), newest sign-in first; idleMs as for live(). */
  async listOfUser(userId: string, idleMs: number | null): Promise<SessionEntity[]> {
    const query = this.sessions
      .createQueryBuilder('session')
      .select(['session.sid', 'session.signedInAt', 'session.lastSeenAt', 'session.expiresAt', 'session.userAgent', 'session.address'])
      .where('session.userId = :userId', { userId })
      .andWhere('session.expiresAt > now()')
      .orderBy('session.signedInAt', 'DESC')
      .addOrderBy('session.sid');
    if (idleMs !== null) query.andWhere(`session.lastSeenAt > now() - :idleMs * interval '1 millisecond'`, { idleMs });
    return query.getMany();
  }

  /** The ids of an account's sessions, expired or not (at most SESSIONS_PER_ACCOUNT). */
  async sidsOfUser(userId: string): Promise<string[]> {
    return (await this.sessions.find({ select: { sid: true }, where: { userId } })).map((row) => row.sid);
  }

  /** Deletes these sessions of the account (others' are left alone) and returns the ids it deleted. */
  async deleteOfUser(userId: string, sids: readonly string[]): Promise<string[]> {
    if (sids.length === 0) return [];
    const { raw } = await this.sessions
      .createQueryBuilder()
      .delete()
      .where('user_id = :userId AND sid IN (:...sids)', { userId, sids })
      .returning(['sid'])
      .execute();
    return (raw as Pick<SessionEntity, 'sid'>[]).map((row) => row.sid);
  }

  /**
   * Records when sessions were last seen, each at most once a minute: a row seen less than a minute ago keeps its
   * time, and one already idle longer than `idleMs` is not brought back by a late report. Times travel as ages (ms
   * before now), so the row holds the database's clock, which every replica shares.
   */
  async recordSeen(seen: ReadonlyMap<string, number>, idleMs: number | null): Promise<void> {
    if (seen.size === 0) return;
    const now = Date.now();
    await this.dataSource.query(
      `UPDATE sessions SET last_seen_at = seen.at
         FROM (SELECT sid, now() - age * interval '1 millisecond' AS at
                 FROM unnest($1::text[], $2::double precision[]) AS reported (sid, age)) AS seen
        WHERE sessions.sid = seen.sid
          AND sessions.last_seen_at < seen.at - interval '1 minute'
          AND ($3::double precision IS NULL OR sessions.last_seen_at > now() - $3 * interval '1 millisecond')`,
      [[...seen.keys()], [...seen.values()].map((at) => now - at), idleMs],
    );
  }

  /** Deletes the session if it has not been seen for `idleMs`; whether it did (once, however many replicas ask). */
  async deleteIfIdle(sid: string, idleMs: number): Promise<boolean> {
    const { affected } = await this.sessions
      .createQueryBuilder()
      .delete()
      .where(`sid = :sid AND last_seen_at <= now() - :idleMs * interval '1 millisecond'`, { sid, idleMs })
      .execute();
    return (affected ?? 0) > 0;
  }

  /** Deletes the signed-in sessions not seen for `idleMs`; their ids. */
  async deleteIdle(idleMs: number): Promise<string[]> {
    const { raw } = await this.sessions
      .createQueryBuilder()
      .delete()
      .where(`user_id IS NOT NULL AND last_seen_at <= now() - :idleMs * interval '1 millisecond'`, { idleMs })
      .returning(['sid'])
      .execute();
    return (raw as Pick<SessionEntity, 'sid'>[]).map((row) => row.sid);
  }

  /**
   * Writes the session in one statement, replacing what an earlier save of the same sid left; when it signed in and
   * was last seen are the row's own, set when it is first written.
   */
  async save(session: Pick<SessionEntity, 'sid' | 'userId' | 'data' | 'expiresAt' | 'userAgent' | 'address'>): Promise<void> {
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

  /** Deletes every session of an account in one statement and returns their ids; in `manager`'s transaction when given. */
  async deleteForUser(userId: string, manager: EntityManager = this.dataSource.manager): Promise<string[]> {
    const { raw } = await manager.getRepository(SessionEntity).createQueryBuilder().delete().where({ userId }).returning(['sid']).execute();
    return (raw as Pick<SessionEntity, 'sid'>[]).map((row) => row.sid);
  }
}
