import type { CallOutcome } from '@cbh/breaker';
import { BUCKET_SLOTS, bucketOf } from '../../platform';

/** A max lives for one to two of these (Micrometer's timer max lives two minutes, over three rotating buffers). */
const MAX_ROTATE_MS = 60_000;

/** The slowest recent call: the max of the running minute and of the one before. */
class DecayingMax {
  private current = 0;
  private previous = 0;
  private rotateAt = 0;

  record(ms: number, now: number) {
    this.rotate(now);
    if (ms > this.current) this.current = ms;
  }

  read(now: number): number {
    this.rotate(now);
    return Math.max(this.current, this.previous);
  }

  private rotate(now: number) {
    if (now < this.rotateAt) return;
    // the running minute ended: it becomes the one before, unless it ended a minute or more ago
    this.previous = now - this.rotateAt < MAX_ROTATE_MS ? this.current : 0;
    this.current = 0;
    this.rotateAt = now + MAX_ROTATE_MS;
  }
}

/**
 * One breaker's calls on this replica since it started, in resilience4j's kinds: the calls timer (count, sum and
 * recent max of the successful and the failed calls; a timeout is a failed call, and the hub ignores no error, so
 * `ignored` stays 0), the refused calls, and the latencies of every call that ran as histogram buckets.
 */
export class CallCounters {
  /** successful, failed, ignored (RESILIENCE4J_CALL_KINDS' order) */
  readonly count = [0, 0, 0];
  readonly sumMs = [0, 0, 0];
  private readonly max = [new DecayingMax(), new DecayingMax(), new DecayingMax()];
  /** Calls per bucket of LATENCY_BUCKETS_SECONDS, then the slower ones (not cumulative). */
  readonly buckets = new Float64Array(BUCKET_SLOTS);
  /** Refused by the breaker (open). */
  notPermitted = 0;
  /** Refused by the bulkhead (full). */
  bulkheadRejected = 0;

  record(outcome: CallOutcome, latencyMs: number, now: number) {
    if (outcome === 'short-circuited') this.notPermitted++;
    else if (outcome === 'bulkhead-rejected') this.bulkheadRejected++;
    else {
      const kind = outcome === 'success' ? 0 : 1;
      this.count[kind]!++;
      this.sumMs[kind]! += latencyMs;
      this.max[kind]!.record(latencyMs, now);
      this.buckets[bucketOf(latencyMs)]!++;
    }
  }

  /** The slowest call of the kind in the last minute or two, in ms. */
  maxMs(kind: number, now: number): number {
    return this.max[kind]!.read(now);
  }
}
