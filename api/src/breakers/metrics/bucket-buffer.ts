import type { CallOutcome } from '@cbh/breaker';
import type { MetricBucketCounts } from './metric-buckets.repository';

type Counts = Record<CallOutcome, number>;
export const emptyCounts = (): Counts => ({ success: 0, failure: 0, timeout: 0, 'short-circuited': 0, 'bulkhead-rejected': 0 });

/** A second is complete once the clock is this far past it: calls are recorded in the second they end. */
const SETTLED_AFTER_SECONDS = 5;
/** The most seconds kept while the database is away (200 breakers busy for 15 minutes); the oldest go first. */
export const MAX_BUFFERED_BUCKETS = 200 * 15 * 60;

interface Bucket {
  counts: Counts;
  /** Counted since the last successful write. */
  dirty: boolean;
}

/**
 * This replica's per-second call counts until the database has them. Each write carries a bucket's whole count
 * (the row is replaced, never added to), so a write that fails, or fails after committing, is simply made again:
 * an outage delays the buckets but neither loses nor doubles them. A bucket leaves memory once written and settled.
 */
export class BucketBuffer {
  private readonly buckets = new Map<string, Bucket>();
  /** Buckets dropped because an outage outlasted MAX_BUFFERED_BUCKETS. */
  dropped = 0;

  constructor(private readonly limit = MAX_BUFFERED_BUCKETS) {}

  get size() {
    return this.buckets.size;
  }

  count(configId: number, outcome: CallOutcome, now: number) {
    const key = `${configId}:${Math.floor(now / 1000)}`;
    let bucket = this.buckets.get(key);
    if (!bucket) {
      this.buckets.set(key, (bucket = { counts: emptyCounts(), dirty: true }));
      if (this.buckets.size > this.limit) this.dropOldest();
    }
    bucket.counts[outcome]++;
    bucket.dirty = true;
  }

  /**
   * Hands the buckets counted since their last write to `write` (whole counts), marks them written when it
   * resolves and keeps them for the next round when it rejects.
   */
  async flush(write: (buckets: MetricBucketCounts[]) => Promise<void>, now: number): Promise<void> {
    const taken = [...this.buckets.entries()].filter(([, bucket]) => bucket.dirty);
    if (taken.length > 0) {
      // marked clean before the write: a call counted meanwhile marks its bucket dirty again for the next round
      for (const [, bucket] of taken) bucket.dirty = false;
      try {
        await write(taken.map(([key, bucket]) => toRow(key, bucket.counts)));
      } catch (error) {
        for (const [, bucket] of taken) bucket.dirty = true;
        throw error;
      }
    }
    const settled = Math.floor(now / 1000) - SETTLED_AFTER_SECONDS;
    for (const [key, bucket] of this.buckets) if (!bucket.dirty && secondOf(key) < settled) this.buckets.delete(key);
  }

  private dropOldest() {
    // keys go in as their seconds begin, so the first key is among the oldest
    const oldest = this.buckets.keys().next().value;
    if (oldest !== undefined) {
      this.buckets.delete(oldest);
      this.dropped++;
    }
  }
}

const secondOf = (key: string) => Number(key.slice(key.indexOf(':') + 1));

function toRow(key: string, c: Counts): MetricBucketCounts {
  return {
    configId: Number(key.slice(0, key.indexOf(':'))),
    second: new Date(secondOf(key) * 1000),
    success: c.success,
    failure: c.failure,
    timeout: c.timeout,
    shortCircuited: c['short-circuited'],
    bulkheadRejected: c['bulkhead-rejected'],
  };
}
