import type { BreakerOverride, BreakerSettings, BreakerStateName } from '@cbh/contracts';
import { Bulkhead } from './bulkhead';
import { BreakerRejectedError } from './rejection';
import { AdaptiveFailureRate, ConsecutiveFailures, type TripPolicy } from './trip-policies';
import { systemClock, type Admission, type Clock, type Transition } from './types';

/** The reason of a transition taken because another replica's breaker opened. */
export const PEER_REASON = 'opened on another replica';
/** The reason of a transition taken because another replica's breaker closed after its trial calls. */
export const PEER_CLOSE_REASON = 'closed on another replica';

/**
 * A circuit breaker as a pure state machine: the caller asks `admit()`, makes the call, then `record()`s the
 * outcome (or lets `execute()` do all three). Time comes from the injected clock; nothing here does I/O.
 * Reading never changes it: an open breaker whose timeout has passed moves to HALF_OPEN in `admit()` (so in
 * `execute()`) or in `tick()`, which whoever shows the state calls when the open period ends.
 */
export class CircuitBreaker {
  private current: BreakerStateName = 'CLOSED';
  private manual: BreakerOverride = 'none';
  private openUntil = 0;
  private openedAt = 0;
  private changedAt: number | null = null;
  private followingPeer = false;
  private trialsInFlight = 0;
  private trialSuccesses = 0;
  private readonly listeners = new Set<(transition: Transition) => void>();
  readonly policy: TripPolicy;
  private readonly bulkhead: Bulkhead;
  /** Only the adaptive type judges calls by their duration (slow calls count as failures). */
  private readonly timesCalls: boolean;
  private readonly shortCircuited = new BreakerRejectedError('short-circuited');
  private readonly bulkheadFull = new BreakerRejectedError('bulkhead-rejected');

  constructor(
    readonly settings: BreakerSettings,
    private readonly clock: Clock = systemClock,
  ) {
    this.policy = settings.type === 'adaptive' ? new AdaptiveFailureRate(settings) : new ConsecutiveFailures(settings);
    this.bulkhead = settings.type === 'bulkhead' ? new Bulkhead(settings.maxConcurrentCalls ?? 10, settings.maxQueue ?? 0) : new Bulkhead();
    this.timesCalls = settings.type === 'adaptive';
  }

  /** CLOSED, OPEN or HALF_OPEN, as the breaker stands; reading it changes nothing (see tick()). */
  get state(): BreakerStateName {
    if (this.manual === 'forced-open') return 'OPEN';
    if (this.manual !== 'none') return 'CLOSED';
    return this.current;
  }

  /** Applies the passing of time: an open breaker whose timeout has passed moves to HALF_OPEN. */
  tick(now?: number): BreakerStateName {
    if (this.manual === 'none' && this.current === 'OPEN') {
      // the clock is read only for an open breaker: the closed path of admit() stays free of it
      const at = now ?? this.clock.now();
      if (at >= this.openUntil) {
        this.moveTo('HALF_OPEN', `open period of ${Math.round((this.openUntil - this.openedAt) / 1000)} s elapsed`, at);
      }
    }
    return this.state;
  }

  /** Whether this breaker is open (or testing recovery) only because another replica's breaker opened. */
  get followsPeer(): boolean {
    return this.followingPeer;
  }

  /**
   * Takes up an override and the time of the last move as they were before this breaker was built (a replica
   * starting, a configuration replaced): no transition, nothing for the journal.
   */
  restore({ override, lastTransitionAt }: { override?: BreakerOverride; lastTransitionAt?: number | null }): void {
    if (override !== undefined) this.manual = override;
    if (lastTransitionAt !== undefined) this.changedAt = lastTransitionAt;
  }

  /** When the shown state last changed (ms since epoch), or null if it never has. */
  get lastTransitionAt(): number | null {
    return this.changedAt;
  }

  get override(): BreakerOverride {
    return this.manual;
  }

  /** When an open breaker lets the next trial call through (ms since epoch), or null when it is not open. */
  get nextAttemptAt(): number | null {
    return this.current === 'OPEN' && this.manual === 'none' ? this.openUntil : null;
  }

  get callsInFlight(): number {
    return this.bulkhead.callsInFlight;
  }

  onTransition(listener: (transition: Transition) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** May a call go ahead now? A permitted call must be followed by exactly one record(). */
  admit(): Admission {
    if (this.bulkhead.full) return 'bulkhead-rejected';
    const admission = this.admitByState();
    if (admission === 'permitted') this.bulkhead.acquire();
    return admission;
  }

  /** The outcome of a permitted call and how long it took. */
  record(success: boolean, durationMs = 0): void {
    this.bulkhead.release();
    if (this.manual !== 'none') return;
    // The common case, a success while closed, needs no clock reading.
    if (success && this.current === 'CLOSED' && !this.timesCalls) {
      this.policy.record(true, durationMs, 0);
      return;
    }
    const now = this.clock.now();
    if (this.current === 'HALF_OPEN') {
      this.trialsInFlight = Math.max(0, this.trialsInFlight - 1);
      if (!success) return this.open(now, 'trial call failed');
      if (++this.trialSuccesses >= this.settings.successThreshold) {
        this.policy.closed(now);
        this.moveTo('CLOSED', `${this.trialSuccesses} trial call(s) succeeded`, now);
      }
      return;
    }
    if (this.current === 'CLOSED' && this.policy.record(success, durationMs, now)) this.open(now, this.policy.tripReason());
  }

  /**
   * Runs fn through the breaker; a call that may not run is rejected at once with BreakerRejectedError. The
   * hot path allocates nothing of its own: the outcome handlers are made once per breaker, and so are the
   * rejection errors (their stack says where the breaker was built, not where the call was refused).
   */
  execute<T>(fn: () => Promise<T>): Promise<T> {
    const admission = this.admit();
    if (admission === 'permitted') {
      if (!this.timesCalls) return fn().then(this.succeeded as (value: T) => T, this.failed);
      const started = this.clock.now();
      return fn().then(
        (value) => {
          this.record(true, this.clock.now() - started);
          return value;
        },
        (error: unknown) => {
          this.record(false, this.clock.now() - started);
          throw error;
        },
      );
    }
    if (admission === 'bulkhead-rejected' && this.bulkhead.canQueue) return this.queue(fn);
    return Promise.reject(admission === 'bulkhead-rejected' ? this.bulkheadFull : this.shortCircuited);
  }

  /** Waits for a slot, handed over already counted in flight, then runs fn. */
  private async queue<T>(fn: () => Promise<T>): Promise<T> {
    await this.bulkhead.waitForSlot();
    if (this.admitByState() !== 'permitted') {
      this.bulkhead.release();
      throw this.shortCircuited;
    }
    return fn().then(this.succeeded as (value: T) => T, this.failed);
  }

  private readonly succeeded = (value: unknown) => {
    this.record(true);
    return value;
  };

  private readonly failed = (error: unknown): never => {
    this.record(false);
    throw error;
  };

  /** Another replica's breaker for the same configuration opened: open here too, until the same moment. */
  openUntilFromPeer(until: number): void {
    if (this.manual !== 'none' || this.current === 'OPEN' || until <= this.clock.now()) return;
    const now = this.clock.now();
    this.policy.opened(now);
    this.openedAt = now;
    this.openUntil = until;
    this.moveTo('OPEN', PEER_REASON, now);
    this.followingPeer = true;
  }

  /**
   * Another replica's breaker closed after its trial calls: a breaker testing recovery here closes too, and so
   * does one open only because it followed a peer (its own open period may end later than the peer's).
   */
  closeFromPeer(): void {
    if (this.manual !== 'none') return;
    if (this.current !== 'HALF_OPEN' && !(this.current === 'OPEN' && this.followingPeer)) return;
    const now = this.clock.now();
    this.policy.closed(now);
    this.moveTo('CLOSED', PEER_CLOSE_REASON, now);
  }

  /** Refuses every call until reset or forced closed; the reason names who did it, for the journal. */
  forceOpen(reason = 'forced open'): void {
    this.setOverride('forced-open', reason);
  }

  /** Lets every call through and opens on no failure, until reset. */
  forceClosed(reason = 'forced closed'): void {
    this.setOverride('forced-closed', reason);
  }

  /** Lets every call through and records nothing, until reset. */
  disable(reason = 'disabled'): void {
    this.setOverride('disabled', reason);
  }

  /** Back to CLOSED with every count and override cleared. */
  reset(reason = 'reset'): void {
    const before = this.state;
    this.manual = 'none';
    this.current = 'CLOSED';
    this.followingPeer = false;
    this.trialsInFlight = 0;
    this.trialSuccesses = 0;
    this.policy.reset();
    if (before !== 'CLOSED') this.emit(before, 'CLOSED', reason, this.clock.now());
  }

  private admitByState(): Admission {
    if (this.manual === 'forced-open') return 'short-circuited';
    if (this.manual !== 'none') return 'permitted';
    if (this.current === 'CLOSED') return 'permitted';
    if (this.tick() === 'OPEN') return 'short-circuited';
    if (this.trialsInFlight + this.trialSuccesses >= this.settings.successThreshold) return 'short-circuited';
    this.trialsInFlight++;
    return 'permitted';
  }

  private open(now: number, reason: string) {
    this.followingPeer = false;
    this.policy.opened(now);
    this.openedAt = now;
    this.openUntil = now + this.policy.openDuration();
    this.moveTo('OPEN', reason, now);
  }

  private moveTo(to: BreakerStateName, reason: string, now = this.clock.now()) {
    const from = this.current;
    if (to === 'CLOSED') this.followingPeer = false;
    this.current = to;
    this.trialsInFlight = 0;
    this.trialSuccesses = 0;
    if (from !== to) this.emit(from, to, reason, now);
  }

  private setOverride(override: BreakerOverride, reason: string) {
    const before = this.state;
    this.manual = override;
    const after = this.state;
    if (before !== after) this.emit(before, after, reason, this.clock.now());
  }

  private emit(from: BreakerStateName, to: BreakerStateName, reason: string, at: number) {
    this.changedAt = at;
    for (const listener of this.listeners) listener({ from, to, reason, at });
  }
}
