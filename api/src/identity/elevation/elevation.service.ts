import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { BadRequestException, ForbiddenException, GoneException, Inject, Injectable } from '@nestjs/common';
import { generate, generateSecret, verify } from 'otplib';
import { DataSource } from 'typeorm';
import { PERMISSIONS, type OtpView } from '@cbh/contracts';
import { AuditService } from '../audit/audit.service';
import type { AppRequest, SessionUser } from '../auth/session-user';
import { APP_CONFIG, type AppConfig, MailService, RealtimeBus, RetryLater, SecretBox } from '../../platform';
import { UserDirectory } from '../auth/user-directory.service';
import { toUserView, UserEntity } from '../users/entities/user.entity';
import { ElevationRepository } from './elevation.repository';

const FAILURE_WINDOW_MINUTES = 15;
const FAILURE_LIMIT = { max: 5, windowMs: FAILURE_WINDOW_MINUTES * 60_000 };
/** A link lives 15 minutes; the next may be asked for a minute after it, and replaces it. */
const EMAIL_LINK = { ttlMs: 15 * 60_000, cooldownMs: 60_000 };
/** ±1 step of 30 s (RFC 6238's recommended allowance for clock drift). */
const TOTP_PERIOD_SECONDS = 30;
const TOTP_TOLERANCE_SECONDS = TOTP_PERIOD_SECONDS;
const sha256 = (value: string) => createHash('sha256').update(value).digest();

export type ElevationResult = { status: 'elevated' } | { status: 'email_sent'; message: string };

const tooManyFailures = (retryAfterMs: number) =>
  new RetryLater(`Too many failed attempts. Try again within ${FAILURE_WINDOW_MINUTES} minutes.`, Math.ceil(retryAfterMs / 1000));

@Injectable()
export class ElevationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly elevationRepository: ElevationRepository,
    private readonly audit: AuditService,
    private readonly mail: MailService,
    private readonly directory: UserDirectory,
    private readonly bus: RealtimeBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.totpBox = new SecretBox(config.SESSION_SECRET, 'totp-secret');
  }

  /** Seals the accounts' TOTP secrets at rest. */
  private readonly totpBox: SecretBox;

  async requestEmailLink(req: AppRequest): Promise<ElevationResult> {
    const user = req.user!;
    const failuresWait = await this.elevationRepository.failuresWait(user.id, FAILURE_LIMIT);
    if (failuresWait > 0) throw tooManyFailures(failuresWait);
    const token = randomBytes(32).toString('base64url');
    const issued = await this.elevationRepository.issueEmailLink(user.id, sha256(token).toString('hex'), EMAIL_LINK);
    if (issued.refused) {
      const seconds = Math.ceil(issued.retryAfterMs / 1000);
      throw new RetryLater(`A verification link was sent to ${user.email} moments ago; ask for another in ${seconds} s.`, seconds);
    }
    await this.mail.send({
      to: user.email,
      subject: 'Confirm your super admin access',
      text: `Follow this link within 15 minutes to become super admin of Circuit Breaker Hub:\n${this.config.PUBLIC_URL}/api/auth/elevate/verify/${token}\n\nIt works once, and only until another link is sent. If you did not ask for this, ignore this e-mail.`,
      secrets: [token],
    });
    await this.audit.record(req, {
      action: 'auth.elevation-requested',
      targetType: 'user',
      targetId: user.id,
      after: { method: 'email_verification' },
    });
    return { status: 'email_sent', message: `A verification link was sent to ${user.email}` };
  }

  /** Following the e-mailed link: single use, 15 minutes, and only the newest link sent. */
  async confirmEmailLink(req: AppRequest, token: string): Promise<void> {
    const userId = await this.elevationRepository.claimEmailLink(sha256(token).toString('hex'));
    if (!userId) throw new GoneException('This verification link is invalid, was already used or has expired');
    const user = await this.directory.get(userId);
    if (!user || !user.isActive) throw new GoneException('This account can no longer be elevated');
    await this.elevate(req, user, 'email_verification', null);
  }

  async withMasterKey(req: AppRequest, masterKey: string): Promise<ElevationResult> {
    const user = req.user!;
    if (!this.config.MASTER_KEY) throw new BadRequestException('Master key elevation is not configured on this server');
    const attemptId = await this.claimAttempt(user.id, 'master_key');
    // Compare digests so the comparison takes the same time whatever the length or content of the guess.
    if (!timingSafeEqual(sha256(masterKey), sha256(this.config.MASTER_KEY))) {
      return this.fail(req, user, 'master_key', 'Invalid master key');
    }
    await this.elevate(req, user, 'master_key', attemptId);
    return { status: 'elevated' };
  }

  async withOtp(req: AppRequest, code: string): Promise<ElevationResult> {
    const user = req.user!;
    const attemptId = await this.claimAttempt(user.id, 'time_based_otp');
    const result = await verify({ secret: await this.secretOf(user.id), token: code, epochTolerance: TOTP_TOLERANCE_SECONDS });
    if (!result.valid) return this.fail(req, user, 'time_based_otp', 'Invalid or expired code');
    const firstUse = await this.elevationRepository.claimTotpStep(user.id, (result as { timeStep: number }).timeStep);
    if (!firstUse) return this.fail(req, user, 'time_based_otp', 'This code was already used; wait for the next one');
    await this.elevate(req, user, 'time_based_otp', attemptId);
    return { status: 'elevated' };
  }

  /** The current code and the seconds it stays valid (shown as a teaching aid). */
  async currentOtp(user: SessionUser): Promise<OtpView> {
    if (!this.config.ELEVATION_OTP_DISPLAY) throw new ForbiddenException('Showing the one-time code is turned off on this server');
    const otp = await generate({ secret: await this.secretOf(user.id) });
    return { otp, timeLeft: TOTP_PERIOD_SECONDS - (Math.floor(Date.now() / 1000) % TOTP_PERIOD_SECONDS) };
  }

  /**
   * The account's TOTP secret, kept sealed (SecretBox under SESSION_SECRET). A secret kept in clear before is sealed
   * on first use; one sealed under another SESSION_SECRET cannot be read and is replaced by a new one.
   */
  private async secretOf(userId: string): Promise<string> {
    const stored = await this.elevationRepository.totpSecretOf(userId, this.totpBox.seal(generateSecret()));
    const opened = this.totpBox.open(stored);
    if (opened !== null) return opened;
    const plain = SecretBox.isSealed(stored) ? generateSecret() : stored;
    const kept = await this.elevationRepository.replaceTotpSecret(userId, stored, this.totpBox.seal(plain));
    return this.totpBox.open(kept) ?? plain;
  }

  /**
   * Counts a guess as failed before judging it (see ElevationRepository.claimAttempt): at most five are judged in
   * 15 minutes, however many arrive at once. Refused guesses write nothing.
   */
  private async claimAttempt(userId: string, method: string): Promise<string> {
    const claim = await this.elevationRepository.claimAttempt(userId, method, FAILURE_LIMIT);
    if (claim.refused) throw tooManyFailures(claim.retryAfterMs);
    return claim.attemptId;
  }

  /** A judged guess that failed: it already counts (claimAttempt); audited and answered. */
  private async fail(req: AppRequest, user: SessionUser, method: string, message: string): Promise<never> {
    await this.audit.record(req, {
      action: 'auth.elevation-failed',
      targetType: 'user',
      targetId: user.id,
      after: { method, reason: message },
    });
    throw new ForbiddenException(message);
  }

  /** Makes the account super admin; the guess that did it (attemptId, none for a link) no longer counts as failed. */
  private async elevate(req: AppRequest, user: SessionUser, method: string, attemptId: string | null) {
    await this.dataSource.transaction(async (manager) => {
      const users = manager.getRepository(UserEntity);
      const before = toUserView(await users.findOneByOrFail({ id: user.id }));
      await users.update({ id: user.id }, { role: 'super_admin', permissions: [...PERMISSIONS] });
      const after = toUserView(await users.findOneByOrFail({ id: user.id }));
      if (attemptId) await this.elevationRepository.markSucceeded(attemptId, manager);
      await this.audit.record(
        req,
        { action: 'auth.elevate', targetType: 'user', targetId: user.id, actor: user, before, after: { ...after, method } },
        manager,
      );
    });
    this.directory.evict(user.id);
    // the account's other tabs and the user managers see the new role without a reload
    await this.bus.publish({ type: 'userChanged', data: { userId: user.id } });
  }
}
