import {
  type BeforeApplicationShutdown,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { PeriodicWork, type Repeating } from '../../platform';
import { PgSessionStore, SEEN_FLUSH_EVERY_MS } from './session-store';
import { SessionsRepository } from './sessions.repository';
import { SignInAttemptsRepository } from './sign-in-attempts.repository';
import { KNOWN_ADDRESS_MS, SIGN_IN_ATTEMPTS_KEPT_MS } from './sign-in-limits';

const PRUNE_EVERY_MS = 10 * 60_000;

/** A report that could not be written is dropped: the session's next request reports again. */
const seenNotWritten = (logger: Logger) => (error: Error) => logger.warn(`last seen times not written: ${error.message}`);

/**
 * Clears out what sign-in leaves behind once it counts for nothing: expired and idle sessions, attempts older than
 * every limit's window, addresses not signed in from for long. Every replica prunes: a delete that finds its rows
 * gone deletes nothing, so nothing needs claiming. It also writes when this replica's sessions were last seen.
 */
@Injectable()
export class AuthHousekeeping implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(AuthHousekeeping.name);
  private pruning?: Repeating;
  private seenFlushing?: Repeating;

  constructor(
    private readonly work: PeriodicWork,
    private readonly sessions: SessionsRepository,
    private readonly attempts: SignInAttemptsRepository,
    private readonly store: PgSessionStore,
  ) {}

  onApplicationBootstrap() {
    this.pruning = this.work.every(
      PRUNE_EVERY_MS,
      () => this.prune(),
      (error) => this.logger.warn(`not pruned: ${error.message}`),
    );
    this.seenFlushing = this.work.every(SEEN_FLUSH_EVERY_MS, () => this.store.flushSeen(), seenNotWritten(this.logger));
  }

  /** What this replica saw last is written before it goes, while the database is still there. */
  async beforeApplicationShutdown() {
    await this.seenFlushing?.stop();
    await this.store.flushSeen().catch(seenNotWritten(this.logger));
  }

  onApplicationShutdown() {
    void this.pruning?.stop();
  }

  /** One round of pruning; how many rows of each kind went. */
  async prune(): Promise<{ sessions: number; attempts: number; addresses: number }> {
    const idleMs = this.store.idleCutoffMs();
    // idle sessions' sockets were closed by the sockets' own check of the table (live), which leaves them out too
    const sessions = (await this.sessions.deleteExpired()) + (idleMs === null ? 0 : (await this.sessions.deleteIdle(idleMs)).length);
    const { attempts, addresses } = await this.attempts.prune(SIGN_IN_ATTEMPTS_KEPT_MS, KNOWN_ADDRESS_MS);
    return { sessions, attempts, addresses };
  }
}
