import { Logger } from '@nestjs/common';
import type { TokensRepository } from './tokens.repository';

/** Where the shared counts are kept: a token's (api_token_usage), or another key's such as an account's. */
export type SharedCounts = Pick<TokensRepository, 'usage' | 'addUsage' | 'pruneUsage'>;

const WINDOW_MS = 60_000;
/** A replica adds its counts to the shared ones at most this often: one write a second, not one per request. */
const FLUSH_EVERY_MS = 1000;
/** Counts of past minutes are deleted this often (by whichever replica flushes). */
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * The per-token rate limit, shared by every replica: a fixed window of one minute whose counts live in
 * PostgreSQL (api_token_usage). A replica counts requests in memory and adds them to the table at most once a
 * second, learning every replica's total from the same statement; the first request of a token in a minute reads
 * the total, so a token that used its minute on one replica is refused on the next at once. The hot path is in
 * memory. What it costs: replicas learn each other's new counts once a second, so a burst spread over several
 * replicas can pass the limit by what they let through in that second.
 */
export class TokenRateLimiter {
  private readonly logger = new Logger(TokenRateLimiter.name);
  private windowStart = 0;
  /** Every replica's count of each token in this window, as last read. */
  private readonly known = new Map<string, number>();
  private readonly reading = new Map<string, Promise<void>>();
  /** Counted here since the last flush. */
  private pending = new Map<string, number>();
  private flushTimer?: NodeJS.Timeout;
  private prunedAt = 0;

  constructor(
    private readonly repository: SharedCounts,
    private readonly limit: () => number,
  ) {}

  /** Counts a request of the token: 0 when it may go on, else the seconds until its next window (Retry-After). */
  async take(tokenId: string, now = Date.now()): Promise<number> {
    this.roll(now);
    if (!this.known.has(tokenId)) await this.readTotal(tokenId);
    this.roll(Date.now());
    return this.count(tokenId);
  }

  /**
   * take() without waiting, for a token whose total this minute is known here (all but its first request of a
   * minute on this replica): its answer, or undefined when take() must read the total first.
   */
  takeCounted(tokenId: string, now = Date.now()): number | undefined {
    this.roll(now);
    return this.known.has(tokenId) ? this.count(tokenId) : undefined;
  }

  private count(tokenId: string): number {
    const used = (this.known.get(tokenId) ?? 0) + (this.pending.get(tokenId) ?? 0);
    if (used >= this.limit()) return Math.max(1, Math.ceil((this.windowStart + WINDOW_MS - Date.now()) / 1000));
    this.pending.set(tokenId, (this.pending.get(tokenId) ?? 0) + 1);
    this.flushTimer ??= setTimeout(() => void this.flush(), FLUSH_EVERY_MS).unref();
    return 0;
  }

  /** A revoked token's counts go with it. */
  forget(tokenId: string) {
    this.known.delete(tokenId);
    this.pending.delete(tokenId);
  }

  stop() {
    clearTimeout(this.flushTimer);
  }

  private roll(now: number) {
    const start = now - (now % WINDOW_MS);
    if (start === this.windowStart) return;
    // the counts of the minute that ended are written before the new minute's are kept apart from them
    if (this.pending.size > 0) void this.flush();
    this.windowStart = start;
    this.known.clear();
  }

  private readTotal(tokenId: string): Promise<void> {
    let read = this.reading.get(tokenId);
    if (!read) {
      const windowStart = this.windowStart;
      read = this.repository
        .usage(tokenId, new Date(windowStart))
        .then(
          (total) => {
            if (windowStart === this.windowStart) this.known.set(tokenId, Math.max(total, this.known.get(tokenId) ?? 0));
          },
          (error: Error) => {
            // the database is away: this replica counts from zero rather than retry on every request of the minute
            this.logger.warn(`token usage not read: ${error.message}`);
            if (windowStart === this.windowStart && !this.known.has(tokenId)) this.known.set(tokenId, 0);
          },
        )
        .finally(() => this.reading.delete(tokenId));
      this.reading.set(tokenId, read);
    }
    return read;
  }

  async flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const counts = this.pending;
    const windowStart = this.windowStart;
    this.pending = new Map();
    if (counts.size === 0) return;
    try {
      const totals = await this.repository.addUsage(new Date(windowStart), counts);
      if (windowStart !== this.windowStart) return;
      for (const [id, total] of totals) this.known.set(id, total);
      if (windowStart - this.prunedAt >= PRUNE_EVERY_MS) {
        this.prunedAt = windowStart;
        await this.repository.pruneUsage(new Date(windowStart - WINDOW_MS));
      }
    } catch (error) {
      // the database is away: these requests go uncounted across replicas (each replica still counts its own)
      this.logger.warn(`token usage not recorded: ${(error as Error).message}`);
      if (windowStart === this.windowStart) for (const [id, n] of counts) this.known.set(id, (this.known.get(id) ?? 0) + n);
    }
  }
}
