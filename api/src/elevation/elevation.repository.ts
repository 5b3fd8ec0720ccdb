import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { UserEntity } from '../users/entities/user.entity';
import { ElevationAttemptEntity } from './entities/elevation-attempt.entity';
import { ElevationTokenEntity } from './entities/elevation-token.entity';
import { UsedTotpStepEntity } from './entities/used-totp-step.entity';

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

  /** How many attempts of the account failed within the last minutes. */
  countRecentFailures(userId: string, minutes: number): Promise<number> {
    return this.dataSource
      .getRepository(ElevationAttemptEntity)
      .createQueryBuilder('attempt')
      .where({ userId, succeeded: false })
      .andWhere('attempt.createdAt > now() - make_interval(mins => :minutes)', { minutes })
      .getCount();
  }
}
