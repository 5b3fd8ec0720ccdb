/**
 * Sliding-window limit on sign-in attempts per key (client address + e-mail, and client address alone).
 * Kept in memory: each replica limits on its own.
 */
export class AttemptLimiter {
  private readonly attempts = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Milliseconds until the key may try again, or 0 when it may now. */
  retryAfter(key: string, now = Date.now()): number {
    const recent = this.recent(key, now);
    return recent.length >= this.max ? recent[0]! + this.windowMs - now : 0;
  }

  record(key: string, now = Date.now()) {
    this.recent(key, now).push(now);
  }

  /** The key's attempts still inside the window, older ones dropped. */
  private recent(key: string, now: number): number[] {
    const recent = (this.attempts.get(key) ?? []).filter((at) => at > now - this.windowMs);
    this.attempts.set(key, recent);
    return recent;
  }

  reset(key: string) {
    this.attempts.delete(key);
  }
}
