import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** One limit on the failures counted against a key within a window. */
export interface AttemptRule {
  key: string;
  /** Failures within the window that hold nothing back. */
  free: number;
  windowMs: number;
  /**
   * Without: past `free`, tries wait until the oldest failure leaves the window. With: each failure past `free`
   * makes the next try wait firstWaitMs after it, doubling with every further failure, at most maxWaitMs.
   */
  backoff?: { firstWaitMs: number; maxWaitMs: number };
}

/** An attempt let through to be judged (the rows counting it), or refused for so long. */
export type Admission = { admitted: true; attempt: string[] } | { admitted: false; retryAfterMs: number };

interface KeyFailures {
  key_hash: string;
  failures: number;
  oldest_age_ms: number;
  latest_age_ms: number;
}

const hash = (key: string) => createHash('sha256').update(key).digest('hex');

/** How long a rule still holds the next try back, given the failures counted against its key. */
function waitOf(rule: AttemptRule, counted: KeyFailures | undefined): number {
  if (!counted || counted.failures < rule.free) return 0;
  if (!rule.backoff) return rule.windowMs - counted.oldest_age_ms;
  const { firstWaitMs, maxWaitMs } = rule.backoff;
  return Math.min(firstWaitMs * 2 ** (counted.failures - rule.free), maxWaitMs) - counted.latest_age_ms;
}

/**
 * Limits on failed sign-ins, kept in PostgreSQL: every replica counts the same failures, and a restart forgives
 * none. Keys (client address and e-mail, the address alone, the e-mail alone) are stored hashed. The database
 * clock measures the windows, the one clock every replica shares.
 */
@Injectable()
export class SignInAttemptsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Lets an attempt be judged if every rule allows it, counting it first. A refused attempt leaves no row: once a
   * limit is reached, trying again grows nothing. An admitted one is judged again with its own rows counted in:
   * attempts made at the same moment on several replicas have all been recorded by then, so a burst cannot slip
   * past a limit between a check and a record; one that finds itself past it takes its rows back.
   */
  async admit(rules: readonly AttemptRule[]): Promise<Admission> {
    const before = await this.retryAfter(rules, []);
    if (before > 0) return { admitted: false, retryAfterMs: before };
    const attempt = await this.record(rules.map((rule) => rule.key));
    const after = await this.retryAfter(rules, attempt);
    if (after === 0) return { admitted: true, attempt };
    await this.forget(attempt);
    return { admitted: false, retryAfterMs: after };
  }

  /** Milliseconds until every rule allows another try, or 0 when they all do now; `own` rows are not counted. */
  private async retryAfter(rules: readonly AttemptRule[], own: readonly string[]): Promise<number> {
    const counted: KeyFailures[] = await this.dataSource.query(
      `SELECT rule.key_hash, count(attempt.id)::int AS failures,
              COALESCE(EXTRACT(EPOCH FROM now() - min(attempt.at)) * 1000, 0)::float8 AS oldest_age_ms,
              COALESCE(EXTRACT(EPOCH FROM now() - max(attempt.at)) * 1000, 0)::float8 AS latest_age_ms
         FROM unnest($1::text[], $2::float8[]) AS rule (key_hash, window_ms)
         LEFT JOIN sign_in_attempts attempt
                ON attempt.key_hash = rule.key_hash
               AND attempt.at > now() - make_interval(secs => rule.window_ms / 1000.0)
               AND attempt.id <> ALL ($3::bigint[])
        GROUP BY rule.key_hash`,
      [rules.map((rule) => hash(rule.key)), rules.map((rule) => rule.windowMs), own],
    );
    const waits = rules.map((rule) =>
      waitOf(
        rule,
        counted.find((row) => row.key_hash === hash(rule.key)),
      ),
    );
    return Math.max(0, ...waits.map((wait) => (wait > 0 ? Math.max(1, wait) : 0)));
  }

  /** Counts an attempt against every key; the rows' ids. */
  private async record(keys: readonly string[]): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      'INSERT INTO sign_in_attempts (key_hash) SELECT unnest($1::text[]) RETURNING id',
      [keys.map(hash)],
    );
    return rows.map((row) => String(row.id));
  }

  /** Forgets the rows of an attempt (one that succeeded, or was refused after all). */
  async forget(ids: readonly string[]): Promise<void> {
    await this.dataSource.query('DELETE FROM sign_in_attempts WHERE id = ANY($1::bigint[])', [ids]);
  }

  /** Forgets a key's failures (a successful sign-in clears its client's count for the account). */
  async reset(key: string): Promise<void> {
    await this.dataSource.query('DELETE FROM sign_in_attempts WHERE key_hash = $1', [hash(key)]);
  }

  /** Whether the key (an address and an e-mail) signed in successfully within the last keptMs. */
  async isKnownAddress(key: string, keptMs: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      'SELECT 1 FROM sign_in_known_addresses WHERE key_hash = $1 AND signed_in_at > now() - make_interval(secs => $2 / 1000.0)',
      [hash(key), keptMs],
    );
    return rows.length > 0;
  }

  /** Remembers that the key (an address and an e-mail) signed in successfully now. */
  async rememberAddress(key: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO sign_in_known_addresses (key_hash) VALUES ($1)
       ON CONFLICT (key_hash) DO UPDATE SET signed_in_at = now()`,
      [hash(key)],
    );
  }

  /** Deletes the attempts older than attemptsKeptMs and the known addresses older than addressesKeptMs; how many of each. */
  async prune(attemptsKeptMs: number, addressesKeptMs: number): Promise<{ attempts: number; addresses: number }> {
    const [, attempts]: [unknown, number] = await this.dataSource.query(
      'DELETE FROM sign_in_attempts WHERE at <= now() - make_interval(secs => $1 / 1000.0)',
      [attemptsKeptMs],
    );
    const [, addresses]: [unknown, number] = await this.dataSource.query(
      'DELETE FROM sign_in_known_addresses WHERE signed_in_at <= now() - make_interval(secs => $1 / 1000.0)',
      [addressesKeptMs],
    );
    return { attempts, addresses };
  }
}
