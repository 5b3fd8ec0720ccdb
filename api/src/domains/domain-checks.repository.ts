import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { hydrate, SqlRunner } from '../platform';
import { DomainMonitoringEntity } from './entities/domain-monitoring.entity';
import {
  ifDomainExists,
  INACTIVE_RECORDS_DAYS,
  RAW_RESULTS_HOURS,
  SLOW_RESPONSE_MS,
  UPTIME_WINDOW_DAYS,
  type UptimeCheck,
} from './domains.repository';

/** Uptime checks: each result, added to its bucket and the domain's figures in one statement, and their pruning. */
@Injectable()
export class DomainChecksRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sql: SqlRunner,
  ) {}

  /**
   * Records one uptime check in one statement: the raw result, its minute's bucket (added to, not replaced),
   * and the domain's monitoring row — last status, response time, uptime over the last 30 days of buckets,
   * the runs of failed and slow checks and when each run began. Returns that row, or null when the domain is gone.
   */
  async recordCheck(domainId: number, check: UptimeCheck): Promise<DomainMonitoringEntity | null> {
    const rows = await ifDomainExists(() =>
      this.sql.rows(
        // The statement's parts see the tables as they were before it, so the uptime adds this minute's
        // bucket as the upsert left it to the other minutes' buckets.
        `WITH check_row AS (
           SELECT $1::int AS domain_id, coalesce($2::timestamptz, now()) AS checked_at, $3::text AS status,
                  $4::int AS response_time_ms, $5::text AS error,
                  ($3 = 'up' AND coalesce($4::int, 0) > $6::int) AS slow
           WHERE EXISTS (SELECT 1 FROM domains WHERE id = $1)
         ), raw AS (
           INSERT INTO domain_check_results (domain_id, checked_at, status, response_time_ms, error)
           SELECT domain_id, checked_at, status, response_time_ms, error FROM check_row
         ), bucket AS (
           INSERT INTO domain_check_buckets AS b (domain_id, minute, checks, failures, total_response_ms)
           SELECT domain_id, date_trunc('minute', checked_at), 1, (status = 'down')::int,
                  CASE WHEN status = 'up' THEN coalesce(response_time_ms, 0) ELSE 0 END
           FROM check_row
           ON CONFLICT (domain_id, minute) DO UPDATE SET
             checks = b.checks + 1, failures = b.failures + EXCLUDED.failures,
             total_response_ms = b.total_response_ms + EXCLUDED.total_response_ms
           RETURNING minute, checks, failures
         ), uptime AS (
           SELECT round(100.0 * (sum(checks) - sum(failures)) / nullif(sum(checks), 0), 2)::float8 AS percentage
           FROM (
             SELECT checks, failures FROM domain_check_buckets
             WHERE domain_id = $1 AND minute > now() - make_interval(days => $7) AND minute NOT IN (SELECT minute FROM bucket)
             UNION ALL SELECT checks, failures FROM bucket
           ) counted
         )
         INSERT INTO domain_monitoring AS m (domain_id, monitoring_type, last_status, response_time_ms, uptime_percentage,
           last_check, consecutive_failures, consecutive_slow, failing_since, slow_since)
         SELECT c.domain_id, 'uptime', c.status, c.response_time_ms, u.percentage, c.checked_at,
                (c.status = 'down')::int, c.slow::int,
                CASE WHEN c.status = 'down' THEN c.checked_at END, CASE WHEN c.slow THEN c.checked_at END
         FROM check_row c, uptime u
         ON CONFLICT (domain_id, monitoring_type) DO UPDATE SET
           last_status = EXCLUDED.last_status, response_time_ms = EXCLUDED.response_time_ms,
           uptime_percentage = EXCLUDED.uptime_percentage, last_check = EXCLUDED.last_check,
           consecutive_failures = CASE WHEN EXCLUDED.last_status = 'down' THEN m.consecutive_failures + 1 ELSE 0 END,
           consecutive_slow = CASE WHEN EXCLUDED.consecutive_slow = 1 THEN m.consecutive_slow + 1 ELSE 0 END,
           failing_since = CASE WHEN EXCLUDED.last_status = 'down' THEN coalesce(m.failing_since, EXCLUDED.failing_since) END,
           slow_since = CASE WHEN EXCLUDED.consecutive_slow = 1 THEN coalesce(m.slow_since, EXCLUDED.slow_since) END
         RETURNING *`,
        [
          domainId,
          check.checkedAt?.toISOString() ?? null,
          check.status,
          check.responseTimeMs,
          check.error ?? null,
          SLOW_RESPONSE_MS,
          UPTIME_WINDOW_DAYS,
        ],
      ),
    );
    return rows[0] ? hydrate(this.dataSource, DomainMonitoringEntity, rows[0]) : null;
  }

  /** Deletes raw results older than 24 hours and inactive DNS records gone for a week; how many of each. */
  async pruneOld(): Promise<{ results: number; records: number }> {
    const results = await this.sql.affected(`DELETE FROM domain_check_results WHERE checked_at < now() - make_interval(hours => $1)`, [
      RAW_RESULTS_HOURS,
    ]);
    // a record gone for a week is history enough; without this a domain rotating TXT values grows without end
    const records = await this.sql.affected(
      `DELETE FROM dns_records WHERE NOT is_active AND last_seen_at < now() - make_interval(days => $1)`,
      [INACTIVE_RECORDS_DAYS],
    );
    return { results, records };
  }
}
