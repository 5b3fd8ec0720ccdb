import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiTokenEntity } from './entities/api-token.entity';

/** A token as it is created: the expiry is reckoned on the database clock, the one every replica shares. */
export interface NewApiToken {
  userId: string;
  name: string;
  tokenHash: string;
  prefix: string;
  permissions: string[];
  remotes: string[] | null;
  expiresInDays: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RawRow = Record<string, any>;

/**
 * The token statements that must stay single statements or need SQL TypeORM does not say well: the per-account
 * cap taken one at a time, the once-a-minute last-use write, and the rate limit's adding upsert.
 */
@Injectable()
export class TokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get tokens() {
    return this.dataSource.getRepository(ApiTokenEntity);
  }

  findByHash(tokenHash: string): Promise<ApiTokenEntity | null> {
    return this.tokens.findOneBy({ tokenHash });
  }

  listOf(userId: string): Promise<ApiTokenEntity[]> {
    return this.tokens.find({ where: { userId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /**
   * Inserts the token unless its owner already holds `cap`. An account's creations are taken one at a time (an
   * advisory lock held until the transaction ends), so requests reaching several replicas at once cannot pass
   * the cap between them. 'gone': the owner was deleted meanwhile (a service account deleted by someone else).
   */
  async insertWithinCap(manager: EntityManager, token: NewApiToken, cap: number): Promise<ApiTokenEntity | 'full' | 'gone'> {
    await this.rows(manager, "SELECT pg_advisory_xact_lock(hashtext('api_tokens.add:' || $1))", [token.userId]);
    // the owner's row stays until the transaction ends, so the insert below cannot lose it
    const [owner] = await this.rows(manager, 'SELECT id FROM users WHERE id = $1 FOR KEY SHARE', [token.userId]);
    if (!owner) return 'gone';
    const [count] = await this.rows(manager, 'SELECT count(*)::int AS n FROM api_tokens WHERE user_id = $1', [token.userId]);
    if (count!.n >= cap) return 'full';
    const [row] = await this.rows(
      manager,
      `INSERT INTO api_tokens (user_id, name, token_hash, prefix, permissions, remotes, expires_at)
       VALUES ($1, $2, $3, $4, $5, $7, now() + make_interval(days => $6))
       RETURNING id`,
      [token.userId, token.name, token.tokenHash, token.prefix, token.permissions, token.expiresInDays, token.remotes],
    );
    return manager.getRepository(ApiTokenEntity).findOneByOrFail({ id: row!.id });
  }

  /** Deletes the token if `userId` owns it; the deleted row, or null (no such token, or someone else's). */
  async deleteOwned(manager: EntityManager, id: string, userId: string): Promise<ApiTokenEntity | null> {
    const repository = manager.getRepository(ApiTokenEntity);
    const token = await repository.findOneBy({ id, userId });
    if (!token) return null;
    await repository.delete({ id, userId });
    return token;
  }

  /** Deletes every token `userId` owns, in one statement (a token made meanwhile is taken too); the deleted rows. */
  async deleteAllOf(manager: EntityManager, userId: string): Promise<Pick<ApiTokenEntity, 'id' | 'name' | 'prefix'>[]> {
    const rows = await this.rows(manager, 'DELETE FROM api_tokens WHERE user_id = $1 RETURNING id, name, prefix', [userId]);
    return rows.map((row) => ({ id: String(row.id), name: String(row.name), prefix: String(row.prefix) }));
  }

  /**
   * Brings every token, of every account, that would outlive `maxDays` from now down to that, on the database clock
   * (tokens never outlive the organisation's policy); how many were shortened.
   */
  async capExpiry(manager: EntityManager, maxDays: number): Promise<number> {
    const rows = await this.rows(
      manager,
      `UPDATE api_tokens SET expires_at = now() + make_interval(days => $1)
       WHERE expires_at > now() + make_interval(days => $1)
       RETURNING id`,
      [maxDays],
    );
    return rows.length;
  }

  /** Which of these tokens still exist and have not expired (one query for every token socket of a replica). */
  async live(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.rows(this.dataSource.manager, 'SELECT id FROM api_tokens WHERE id = ANY($1::uuid[]) AND expires_at > now()', [
      ids,
    ]);
    return new Set(rows.map((row) => String(row.id)));
  }

  /**
   * Records a use, unless one was recorded in the last minute (by any replica): a busy token costs one write a
   * minute, not one per request.
   */
  async touch(id: string, from: string | null): Promise<void> {
    await this.rows(
      this.dataSource.manager,
      `UPDATE api_tokens SET last_used_at = now(), last_used_from = $2
       WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [id, from],
    );
  }

  /** Requests counted for one token in the minute starting at `windowStart`, by every replica. */
  async usage(id: string, windowStart: Date): Promise<number> {
    const [row] = await this.rows(
      this.dataSource.manager,
      'SELECT requests FROM api_token_usage WHERE token_id = $1 AND window_start = $2',
      [id, windowStart],
    );
    return row ? Number(row.requests) : 0;
  }

  /**
   * Adds a replica's counts for one minute in one statement and answers each token's total from every replica.
   * Tokens revoked meanwhile are left out (their rows are gone with them).
   */
  async addUsage(windowStart: Date, counts: ReadonlyMap<string, number>): Promise<Map<string, number>> {
    if (counts.size === 0) return new Map();
    const rows = await this.rows(
      this.dataSource.manager,
      `INSERT INTO api_token_usage (token_id, window_start, requests)
       SELECT t.id, $1, t.n FROM unnest($2::uuid[], $3::int[]) AS t (id, n) JOIN api_tokens ON api_tokens.id = t.id
       ON CONFLICT (token_id, window_start) DO UPDATE SET requests = api_token_usage.requests + EXCLUDED.requests
       RETURNING token_id, requests`,
      [windowStart, [...counts.keys()], [...counts.values()]],
    );
    return new Map(rows.map((row) => [String(row.token_id), Number(row.requests)]));
  }

  /** Forgets counts of minutes long past (only the current minute is ever read). */
  async pruneUsage(before: Date): Promise<void> {
    await this.rows(this.dataSource.manager, 'DELETE FROM api_token_usage WHERE window_start < $1', [before]);
  }

  /** The rows a statement returned, whatever its kind (TypeORM shapes an UPDATE's result differently from an INSERT's). */
  private async rows(manager: EntityManager, sql: string, params: unknown[]): Promise<RawRow[]> {
    const runner = manager.queryRunner ?? this.dataSource.createQueryRunner();
    try {
      return (await runner.query(sql, params, true)).records as RawRow[];
    } finally {
      if (!manager.queryRunner) await runner.release();
    }
  }
}
