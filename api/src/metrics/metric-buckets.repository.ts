import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { MetricBucketEntity } from './entities/metric-bucket.entity';

/** One replica's counts for one breaker and second, to be added to that bucket. */
export type MetricBucketCounts = Omit<MetricBucketEntity, 'instanceId' | 'config'>;

@Injectable()
export class MetricBucketsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Adds the counts to instanceId's buckets in one statement, however many there are: a bucket written by an
   * earlier flush (same breaker, second and replica) is incremented rather than replaced. Counts of a breaker
   * deleted in the meantime are dropped, as its buckets went with it.
   */
  async addCounts(instanceId: string, buckets: MetricBucketCounts[]): Promise<void> {
    if (buckets.length === 0) return;
    const rows = buckets.map((bucket) => ({
      config_id: bucket.configId,
      second: bucket.second.toISOString(),
      success: bucket.success,
      failure: bucket.failure,
      timeout: bucket.timeout,
      short_circuited: bucket.shortCircuited,
      bulkhead_rejected: bucket.bulkheadRejected,
    }));
    await this.dataSource.query(
      `INSERT INTO metric_buckets (config_id, second, instance_id, success, failure, timeout, short_circuited, bulkhead_rejected)
       SELECT r.config_id, r.second, $1, r.success, r.failure, r.timeout, r.short_circuited, r.bulkhead_rejected
       FROM jsonb_to_recordset($2::jsonb) AS r(config_id int, second timestamptz, success int, failure int, timeout int, short_circuited int, bulkhead_rejected int)
       WHERE EXISTS (SELECT 1 FROM circuit_breaker_configs c WHERE c.id = r.config_id)
       ON CONFLICT (config_id, second, instance_id) DO UPDATE SET
         success = metric_buckets.success + EXCLUDED.success, failure = metric_buckets.failure + EXCLUDED.failure,
         timeout = metric_buckets.timeout + EXCLUDED.timeout, short_circuited = metric_buckets.short_circuited + EXCLUDED.short_circuited,
         bulkhead_rejected = metric_buckets.bulkhead_rejected + EXCLUDED.bulkhead_rejected`,
      [instanceId, JSON.stringify(rows)],
    );
  }
}
