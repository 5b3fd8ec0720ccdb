import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { SessionsRepository } from './sessions.repository';
import { SignInAttemptsRepository } from './sign-in-attempts.repository';
import { KNOWN_ADDRESS_MS, SIGN_IN_ATTEMPTS_KEPT_MS } from './sign-in-limits';

const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Clears out what sign-in leaves behind once it counts for nothing: expired sessions, attempts older than every
 * limit's window, addresses not signed in from for long. Every replica prunes: a delete that finds its rows gone
 * deletes nothing, so nothing needs claiming.
 */
@Injectable()
export class AuthHousekeeping implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AuthHousekeeping.name);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly sessions: SessionsRepository,
    private readonly attempts: SignInAttemptsRepository,
  ) {}

  onApplicationBootstrap() {
    this.timer = setInterval(
      () => void this.prune().catch((error: Error) => this.logger.warn(`not pruned: ${error.message}`)),
      PRUNE_EVERY_MS,
    );
    this.timer.unref();
  }

  onApplicationShutdown() {
    clearInterval(this.timer);
  }

  /** One round of pruning; how many rows of each kind went. */
  async prune(): Promise<{ sessions: number; attempts: number; addresses: number }> {
    const sessions = await this.sessions.deleteExpired();
    const { attempts, addresses } = await this.attempts.prune(SIGN_IN_ATTEMPTS_KEPT_MS, KNOWN_ADDRESS_MS);
    return { sessions, attempts, addresses };
  }
}
