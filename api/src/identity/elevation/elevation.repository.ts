import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, IsNull } from 'typeorm';
import { UserEntity } from '../users/entities/user.entity';
import { ElevationAttemptEntity } from './entities/elevation-attempt.entity';
import { ElevationTokenEntity } from './entities/elevation-token.entity';
import { UsedTotpStepEntity } from './entities/used-totp-step.entity';

/** At most `max` failed tries within the window. */
export interface FailureLimit {
  max: number;
  windowMs: number;
}

/** A try or a link refused, for so long. */
export interface Refused {
  refused: true;
  retryAfterMs: number;
}

/** The columns the claims below return, as the database names them. */
interface ClaimedTokenRow {
  user_id: string;
}
interface TotpSecretRow {
  totp_secret: string;
}

/**
 * The elevation statements that must stay single statements on the database clock. A link, a TOTP step or
 * an account's first secret is claimed by one statement, so two requests racing on different replicas cannot
 * both win; the failure window is measured on the clock that set created_at.
 */
@Injectable()
export class ElevationRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Marks an e-mailed link used if it is unused and unexpired; the account it elevates, or null. */
  async claimEmailLink(tokenHash: string): Promise<string | null> {
    const { raw } = await this.dataSource
      .createQueryBuilder()
      .update(ElevationTokenEntity)
      .set({ usedAt: () => 'now()' })
      .where({ tokenHash, usedAt: IsNull() })
      .andWhere('expires_at > now()')
      .returning(['userId'])
      .execute();
    return (raw as ClaimedTokenRow[])[0]?.user_id ?? null;
  }

  /** Records a TOTP step as used by the account; false when it already was, so a code works once. */
  async claimTotpStep(userId: string, timeStep: number): Promise<boolean> {
    const { raw } = await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(UsedTotpStepEntity)
      .values({ userId, timeStep: String(timeStep) })
      .orIgnore()
      .returning(['timeStep'])
      .execute();
    return (raw as unknown[]).length > 0;
  }

  /** The account's TOTP secret; the candidate becomes it when the account has none yet. */
  totpSecretOf(userId: string, candidate: string): Promise<string> {
    return this.setTotpSecret(userId, 'COALESCE(totp_secret, :candidate)', { candidate });
  }

  /** Replaces the account's TOTP secret if it is still `current` (a concurrent replacement wins); the secret now kept. */
  replaceTotpSecret(userId: string, current: string, next: string): Promise<string> {
    return this.setTotpSecret(userId, 'CASE WHEN totp_secret = :current THEN :next ELSE totp_secret END', { current, next });
  }

  /** One statement that sets the account's TOTP secret to `expression` and answers the secret it now has. */
  private async setTotpSecret(userId: string, expression: string, parameters: Record<string, string>): Promise<string> {
    const { raw } = await this.dataSource
      .createQueryBuilder()
      .update(UserEntity)
      .set({ totpSecret: () => expression })
      .setParameters(parameters)
      .where({ id: userId })
      .returning(['totpSecret'])
      .execute();
    const [row] = raw as TotpSecretRow[];
    if (!row) throw new Error(`No user with id ${userId}`);
    return row.totp_secret;
  }

  /**
   * Records a try of the account as a failure before it is judged, unless `max` failures within the window
   * already stand: then nothing is written, and the answer is how long until the oldest leaves the window. Tries
   * are claimed one at a time per account (an advisory lock), so however many arrive at once, on however many
   * replicas, no more than `max` are judged. The account's tries older than the window go on the way.
   */
  claimAttempt(userId: string, method: string, limit: FailureLimit): Promise<{ refused: false; attemptId: string } | Refused> {
    return this.underAccountLock(userId, async (manager) => {
      await manager.query(
        'DELETE FROM elevation_attempts WHERE user_id = $1 AND created_at <= now() - make_interval(secs => $2 / 1000.0)',
        [userId, limit.windowMs],
      );
      const retryAfterMs = await this.failureWait(manager, userId, limit);
      if (retryAfterMs > 0) return { refused: true, retryAfterMs };
      const [row]: { id: string }[] = await manager.query(
        'INSERT INTO elevation_attempts (user_id, method, succeeded) VALUES ($1, $2, false) RETURNING id',
        [userId, method],
      );
      return { refused: false, attemptId: String(row!.id) };
    });
  }

  /** How long until the account's failures within the window fall under `max` (0: they are under it now). */
  failuresWait(userId: string, limit: FailureLimit): Promise<number> {
    return this.failureWait(this.dataSource.manager, userId, limit);
  }

  /**
   * Makes the link the account's only one, unless the account was sent one within the cooldown: then nothing is
   * written, and the answer is how long until it may ask again. Taken one at a time per account, as tries are.
   */
  issueEmailLink(userId: string, tokenHash: string, link: { ttlMs: number; cooldownMs: number }): Promise<{ refused: false } | Refused> {
    return this.underAccountLock(userId, async (manager) => {
      const [last]: { wait_ms: number | null }[] = await manager.query(
        `SELECT EXTRACT(EPOCH FROM max(created_at) + make_interval(secs => $2 / 1000.0) - now()) * 1000 AS wait_ms
           FROM elevation_tokens WHERE user_id = $1`,
        [userId, link.cooldownMs],
      );
      const retryAfterMs = Math.max(0, Number(last?.wait_ms ?? 0));
      if (retryAfterMs > 0) return { refused: true, retryAfterMs: Math.max(1, retryAfterMs) };
      // earlier links stop working: only the newest e-mail's link elevates
      await manager.query('DELETE FROM elevation_tokens WHERE user_id = $1', [userId]);
      await manager.query(
        `INSERT INTO elevation_tokens (token_hash, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3 / 1000.0))`,
        [tokenHash, userId, link.ttlMs],
      );
      return { refused: false };
    });
  }

  /** Marks a claimed try as the one that succeeded. */
  async markSucceeded(attemptId: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.getRepository(ElevationAttemptEntity).update({ id: attemptId }, { succeeded: true });
  }

  private async failureWait(manager: EntityManager, userId: string, limit: FailureLimit): Promise<number> {
    const [row]: { failures: number; wait_ms: number | null }[] = await manager.query(
      `SELECT count(*)::int AS failures,
              EXTRACT(EPOCH FROM min(created_at) + make_interval(secs => $2 / 1000.0) - now()) * 1000 AS wait_ms
         FROM elevation_attempts
        WHERE user_id = $1 AND NOT succeeded AND created_at > now() - make_interval(secs => $2 / 1000.0)`,
      [userId, limit.windowMs],
    );
    return row!.failures >= limit.max ? Math.max(1, Number(row!.wait_ms)) : 0;
  }

  /** Runs work in a transaction holding the account's elevation lock: one of the account's claims at a time, on every replica. */
  private underAccountLock<T>(userId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query("SELECT pg_advisory_xact_lock(hashtext('elevation:' || $1))", [userId]);
      return work(manager);
    });
  }
}
