import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** One limit: at most `max` failures per key within the window. */
export interface AttemptRule {
  key: string;
  max: number;
}

const hash = (key: string) => createHash('sha256').update(key).digest('hex');

/**
 * Sliding-window limits on failed sign-ins, kept in PostgreSQL: every replica counts the same failures, and a
 * restart forgives none. Keys (client address and e-mail, or the address alone) are stored hashed. The database
 * clock measures the window, the one clock every replica shares.
 */
@Injectable()
export class SignInAttemptsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Milliseconds until every rule allows another try, or 0 when they all do now. The attempt being judged is
   * already recorded (see record): attempts made at the same moment on several replicas all count, so a burst
   * cannot slip past the limit between a check and a record.
   */
  async retryAfter(rules: readonly AttemptRule[], windowMs: number): Promise<number> {
    const rows: { key_hash: string; failures: number; wait_ms: number }[] = await this.dataSource.query(
      `SELECT key_hash, count(*)::int AS failures,
              GREATEST(0, EXTRACT(EPOCH FROM (min(at) + make_interval(secs => $2 / 1000.0) - now())) * 1000)::int AS wait_ms
         FROM sign_in_attempts
        WHERE key_hash = ANY($1) AND at > now() - make_interval(secs => $2 / 1000.0)
        GROUP BY key_hash`,
      [rules.map((rule) => hash(rule.key)), windowMs],
    );
    const waits = rules.map((rule) => {
      const row = rows.find((entry) => entry.key_hash === hash(rule.key));
      return row && row.failures > rule.max ? Math.max(1, row.wait_ms) : 0;
    });
    return Math.max(0, ...waits);
  }

  /**
   * Counts an attempt against every key before it is judged, and clears out attempts that left the window; the
   * rows' ids, to forget them when the attempt succeeds.
   */
  async record(keys: readonly string[], windowMs: number): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      'INSERT INTO sign_in_attempts (key_hash) SELECT unnest($1::text[]) RETURNING id',
      [keys.map(hash)],
    );
    await this.dataSource.query(
      `DELETE FROM sign_in_attempts WHERE id IN (
         SELECT id FROM sign_in_attempts WHERE at <= now() - make_interval(secs => $1 / 1000.0) LIMIT 500)`,
      [windowMs],
    );
    return rows.map((row) => String(row.id));
  }

  /** Forgets the rows of an attempt that succeeded. */
  async forget(ids: readonly string[]): Promise<void> {
    await this.dataSource.query('DELETE FROM sign_in_attempts WHERE id = ANY($1::bigint[])', [ids]);
  }

  /** Forgets a key's failures (a successful sign-in clears its account's count). */
  async reset(key: string): Promise<void> {
    await this.dataSource.query('DELETE FROM sign_in_attempts WHERE key_hash = $1', [hash(key)]);
  }
}
