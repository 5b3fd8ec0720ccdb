import type { BreakerSettings } from '@cbh/contracts';

/** Decides when a closed breaker opens, and for how long. */
export interface TripPolicy {
  /** Records a call made while closed; true when the breaker should open now. */
  record(success: boolean, durationMs: number, now: number): boolean;
  /** Why the last record() that returned true opened the breaker, in words for the journal. */
  tripReason(): string;
  openDuration(): number;
  /** The breaker opened (after a trip in the closed state or a failed trial). */
  opened(now: number): void;
  /** The breaker closed again after successful trials. */
  closed(now: number): void;
  reset(): void;
}

/** simple and bulkhead: N consecutive failures open it; failures older than recoveryTime are forgotten. */
export class ConsecutiveFailures implements TripPolicy {
  private failures = 0;
  private lastFailureAt = 0;

  constructor(private readonly settings: BreakerSettings) {}

  /** Failures in a row so far (what a learner watches climb towards the threshold). */
  get consecutiveFailures(): number {
    return this.failures;
  }

  record(success: boolean, _durationMs: number, now: number): boolean {
    if (success) {
      this.failures = 0;
      return false;
    }
    if (this.failures > 0 && now - this.lastFailureAt > this.settings.recoveryTime) this.failures = 0;
    this.failures++;
    this.lastFailureAt = now;
    return this.failures >= this.settings.failureThreshold;
  }

  tripReason(): string {
    return `${this.failures} consecutive failure${this.failures === 1 ? '' : 's'}`;
  }

  openDuration(): number {
    return this.settings.timeout;
  }

  opened(): void {
    this.failures = 0;
  }

  closed(): void {
    this.failures = 0;
  }

  reset(): void {
    this.failures = 0;
  }
}

const BUCKET_MS = 1000;

/**
 * adaptive: failure rate (slow calls count as failures) over a sliding window of recoveryTime, in one-second
 * buckets. See the README for the rule.
 */
export class AdaptiveFailureRate implements TripPolicy {
  readonly lowestThreshold: number;
  readonly highestThreshold: number;
  threshold: number;
  private duration: number;
  private lastClosedAt = Number.NEGATIVE_INFINITY;
  private readonly calls: Int32Array;
  private readonly failures: Int32Array;
  private readonly stamps: Float64Array;
  private lastTrip = '';

  constructor(private readonly settings: BreakerSettings) {
    this.lowestThreshold = Math.max(1, settings.failureThreshold - 2);
    this.highestThreshold = settings.failureThreshold + 3;
    this.threshold = settings.failureThreshold;
    this.duration = settings.timeout / 2;
    const buckets = Math.max(1, Math.ceil(settings.recoveryTime / BUCKET_MS));
    this.calls = new Int32Array(buckets);
    this.failures = new Int32Array(buckets);
    this.stamps = new Float64Array(buckets).fill(-1);
  }

  /** The failure rate that opens the breaker, from the current effective threshold. */
  get tripRate(): number {
    return Math.min(1, this.threshold / 10);
  }

  record(success: boolean, durationMs: number, now: number): boolean {
    const failed = !success || durationMs > (this.settings.slowCallDuration ?? 1000);
    const second = Math.floor(now / BUCKET_MS);
    const slot = second % this.calls.length;
    if (this.stamps[slot] !== second) {
      this.stamps[slot] = second;
      this.calls[slot] = 0;
      this.failures[slot] = 0;
    }
    this.calls[slot]!++;
    if (failed) this.failures[slot]!++;
    if (!failed) return false;

    const oldest = second - this.calls.length + 1;
    let calls = 0;
    let failures = 0;
    for (let i = 0; i < this.calls.length; i++) {
      if (this.stamps[i]! >= oldest) {
        calls += this.calls[i]!;
        failures += this.failures[i]!;
      }
    }
    const trips = calls >= (this.settings.minimumCalls ?? 10) && failures / calls >= this.tripRate;
    if (trips) this.lastTrip = `failure rate ${Math.round((100 * failures) / calls)}% over ${calls} calls`;
    return trips;
  }

  tripReason(): string {
    return this.lastTrip;
  }

  openDuration(): number {
    return this.duration;
  }

  opened(now: number): void {
    // Tripping again within one window of the last recovery: back off (longer open, lower threshold).
    if (now - this.lastClosedAt <= this.settings.recoveryTime) {
      this.duration = Math.min(this.settings.timeout, this.duration * 2);
      this.threshold = Math.max(this.lowestThreshold, this.threshold - 1);
    }
    this.clearWindow();
  }

  closed(now: number): void {
    // A clean recovery: shorter open periods and a more tolerant threshold next time.
    this.lastClosedAt = now;
    this.duration = Math.max(this.settings.timeout / 2, this.duration / 2);
    this.threshold = Math.min(this.highestThreshold, this.threshold + 1);
  }

  reset(): void {
    this.threshold = this.settings.failureThreshold;
    this.duration = this.settings.timeout / 2;
    this.lastClosedAt = Number.NEGATIVE_INFINITY;
    this.clearWindow();
  }

  private clearWindow() {
    this.stamps.fill(-1);
  }
}
