import { Injectable } from '@nestjs/common';
import { hydrate, type RawRow } from '../../platform';
import { DataSource } from 'typeorm';
import { TestSessionEntity } from './entities/test-session.entity';

/** What a session is started with; it runs from now until durationMinutes later. */
export type NewTestSession = Pick<
  TestSessionEntity,
  'configId' | 'failureRate' | 'requestRate' | 'durationMinutes' | 'ownerInstance' | 'createdBy'
>;

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

/**
 * The test_sessions statements that decide something for every replica at once. Several replicas share the
 * table, so starting, stopping, taking over and keeping a session are each one statement on the database
 * clock: the database lets exactly one replica win, where a read followed by a write would let two.
 */
@Injectable()
export class TestSessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Inserts a running session ending durationMinutes after the database's now. 'busy' when the breaker already runs
   * one (the partial unique index admits one, whichever replica starts it), 'gone' when the breaker was just
   * deleted, and 'per-user' or 'total' when starting it would pass a limit on sessions running at once: starts are
   * taken one at a time (an advisory lock), so replicas starting together cannot pass it between them.
   */
  async insertRunning(
    session: NewTestSession,
    limits: { perUser: number; total: number },
  ): Promise<TestSessionEntity | 'busy' | 'gone' | 'per-user' | 'total'> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        await manager.query("SELECT pg_advisory_xact_lock(hashtext('test_sessions.start'))");
        const [counts]: { total: number; mine: number }[] = await manager.query(
          `SELECT count(*)::int AS total, (count(*) FILTER (WHERE created_by = $1))::int AS mine
             FROM test_sessions WHERE status = 'running'`,
          [session.createdBy],
        );
        if (counts!.mine >= limits.perUser) return 'per-user';
        if (counts!.total >= limits.total) return 'total';
        const rows: RawRow[] = await manager.query(
          `INSERT INTO test_sessions (config_id, failure_rate, request_rate, duration_minutes, status, ends_at, owner_instance, created_by)
           VALUES ($1, $2, $3, $4, 'running', now() + make_interval(mins => $4), $5, $6) RETURNING *`,
          [session.configId, session.failureRate, session.requestRate, session.durationMinutes, session.ownerInstance, session.createdBy],
        );
        return hydrate(this.dataSource, TestSessionEntity, rows[0]!);
      });
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return 'busy';
      if ((error as { code?: string }).code === FOREIGN_KEY_VIOLATION) return 'gone';
      throw error;
    }
  }

  /** Stops the session if it is running; null when it is not (already ended, or no such session). */
  async stopRunning(id: number): Promise<TestSessionEntity | null> {
    const [rows]: [RawRow[], number] = await this.dataSource.query(
      `UPDATE test_sessions SET status = 'stopped', stopped_at = now() WHERE id = $1 AND status = 'running' RETURNING *`,
      [id],
    );
    return rows[0] ? hydrate(this.dataSource, TestSessionEntity, rows[0]) : null;
  }

  /**
   * Makes ownerInstance the owner of every running session whose heartbeat is older than silentSeconds
   * (its replica stopped or crashed), and returns them: each orphan goes to exactly one claiming replica.
   */
  async claimOrphans(ownerInstance: string, silentSeconds: number): Promise<TestSessionEntity[]> {
    const [rows]: [RawRow[], number] = await this.dataSource.query(
      `UPDATE test_sessions SET owner_instance = $1, heartbeat_at = now()
       WHERE status = 'running' AND heartbeat_at < now() - make_interval(secs => $2) RETURNING *`,
      [ownerInstance, silentSeconds],
    );
    return rows.map((row) => hydrate(this.dataSource, TestSessionEntity, row));
  }

  /** Lets go of every running session the instance drives, as if its heartbeat had lapsed; their ids. */
  async release(ownerInstance: string): Promise<number[]> {
    const [rows]: [{ id: number }[], number] = await this.dataSource.query(
      `UPDATE test_sessions SET heartbeat_at = now() - interval '1 day'
       WHERE status = 'running' AND owner_instance = $1 RETURNING id`,
      [ownerInstance],
    );
    return rows.map((row) => Number(row.id));
  }

  /**
   * Refreshes the heartbeat of a running session still owned by ownerInstance; false when it is not (stopped
   * elsewhere, ended, or taken over by another replica), and the caller must stop driving it.
   */
  async heartbeat(id: number, ownerInstance: string): Promise<boolean> {
    const result = await this.dataSource
      .getRepository(TestSessionEntity)
      .update({ id, status: 'running', ownerInstance }, { heartbeatAt: () => 'now()' });
    return result.affected === 1;
  }
}
