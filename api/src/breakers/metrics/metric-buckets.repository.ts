import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { MetricBucketEntity } from './entities/metric-bucket.entity';

/** One replica's whole count for one breaker and second (a write replaces the bucket's row, never adds to it). */
export type MetricBucketCounts = Omit<MetricBucketEntity, 'instanceId' | 'config'>;

/** A backlog after an outage is written in statements of this many rows. */
const ROWS_PER_STATEMENT = 5000;

@Injectable()
export class MetricBucketsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Writes instanceId's whole count of each bucket (replacing what an earlier write of the same bucket stored), in
   * as few statements as the batch needs: a write repeated after a failure stores the same numbers, never double.
   * Buckets of a breaker deleted in the meantime are dropped, as its buckets went with it.
   */
  async writeCounts(instanceId: string, buckets: MetricBucketCounts[]): Promise<void> {
    for (let start = 0; start < buckets.length; start += ROWS_PER_STATEMENT) {
      const rows = buckets.slice(start, start + ROWS_PER_STATEMENT).map((bucket) => ({
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
           success = EXCLUDED.success, failure = EXCLUDED.failure, timeout = EXCLUDED.timeout,
           short_circuited = EXCLUDED.short_circuited, bulkhead_rejected = EXCLUDED.bulkhead_rejected`,
        [instanceId, JSON.stringify(rows)],
      );
    }
  }
}
