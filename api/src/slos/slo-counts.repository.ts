import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { TOTALS_BUCKETS_AT } from '../breakers';
import { LATENCY_BUCKETS_SECONDS } from '../platform';

/** An agent's or scraped breaker's instance as it counts: [successes, failures, timeouts, rejections, latency sum, buckets…]. */
interface InstanceTotalsRow {
  config_id: number;
  instance: string;
  totals: number[];
  previous: string[] | null;
}

/** The latency bounds in ms, as the buckets count them: a latency SLO's threshold is read at the largest not above it. */
const BOUNDS_MS = LATENCY_BUCKETS_SECONDS.map((seconds) => Math.round(seconds * 1000));

/** How many latency buckets hold calls within `thresholdMs` (the calls a latency SLO counts good). */
export function bucketsWithin(thresholdMs: number): number {
  return BOUNDS_MS.filter((bound) => bound <= thresholdMs).length;
}

/** The advisory lock of the SLOs' counting (an arbitrary constant of this hub's). */
const SLO_COUNTING_LOCK = 0x63626802;

/** Whether the SLO row `s` names the breaker row `c`: by id, or as one of its service's. */
export const NAMES_BREAKER = `CASE WHEN s.indicator ? 'breakers'
  THEN c.id = ANY (ARRAY(SELECT jsonb_array_elements_text(s.indicator -> 'breakers')::int))
  ELSE c.service = s.indicator ->> 'service' END`;
/** The ids of the domains the SLO row `s` names. */
export const NAMED_DOMAINS = `ARRAY(SELECT jsonb_array_elements_text(s.indicator -> 'domains')::int)`;

/** The breakers an SLO's indicator names (of every SLO, or of the SLO ids in the array `ids`): by id, or every breaker of its service. */
const members = (ids: string) => `
  SELECT s.id AS slo_id, s.kind, s.indicator, c.id AS config_id
  FROM slos s JOIN circuit_breaker_configs c ON ${NAMES_BREAKER}
  WHERE s.kind IN ('breaker-calls', 'breaker-latency') AND (${ids}::int[] IS NULL OR s.id = ANY (${ids}::int[]))`;

/**
 * The SQL of the SLOs' counts, which TypeORM cannot say well: every SLO's good and all events per minute recomputed
 * from the hub's own figures (so a minute written twice holds the same numbers), rolled into hours, and the agents'
 * breakers' counters read into per-minute increases.
 */
@Injectable()
export class SloCountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** This transaction's turn to count, waited for: two replicas both believing they hold the role still count in turn. */
  async takeCountingTurn(manager: EntityManager): Promise<void> {
    await manager.query('SELECT pg_advisory_xact_lock($1)', [SLO_COUNTING_LOCK]);
  }

  /**
   * Reads the counters of the agents' and scraped breakers some SLO names, and adds what each instance counted since
   * its last reading to the breaker's minute `minute` (minutes since 1970). A first reading only remembers; a counter that went down (the
   * instance restarted) counts from zero. In one transaction with the readings, which holds the counting's lock (see
   * takeCountingTurn), so nothing counts twice.
   */
  async readInstanceCounters(manager: EntityManager, minute: number): Promise<number> {
    const rows: InstanceTotalsRow[] = await manager.query(
      `SELECT b.config_id, b.instance, b.totals, r.totals::text[] AS previous
       FROM breaker_instances b
       LEFT JOIN slo_instance_readings r ON r.config_id = b.config_id AND r.instance = b.instance
       WHERE b.config_id IN (SELECT config_id FROM (${members('NULL')}) m)`,
    );
    if (rows.length === 0) return 0;
    const increases = new Map<number, number[]>();
    for (const row of rows) {
      if (!row.previous) continue;
      const previous = row.previous.map(Number);
      const reset = row.totals.some((value, i) => value < (previous[i] ?? 0));
      const increase = row.totals.map((value, i) => (reset ? value : value - (previous[i] ?? 0)));
      const sum = increases.get(row.config_id) ?? new Array<number>(increase.length).fill(0);
      increase.forEach((value, i) => (sum[i] = (sum[i] ?? 0) + value));
      increases.set(row.config_id, sum);
    }
    const added = [...increases].filter(([, sum]) => sum.some((value, i) => i !== 4 && value > 0));
    if (added.length > 0) {
      await manager.query(
        `INSERT INTO slo_breaker_minutes AS m (config_id, minute, success, failure, timeout, rejected, latency)
         SELECT a.config_id, $1, a.totals[1], a.totals[2], a.totals[3], a.totals[4], a.totals[${TOTALS_BUCKETS_AT + 1}:]
         FROM jsonb_to_recordset($2::jsonb) AS a(config_id int, totals bigint[])
         ON CONFLICT (config_id, minute) DO UPDATE SET
           success = m.success + EXCLUDED.success, failure = m.failure + EXCLUDED.failure, timeout = m.timeout + EXCLUDED.timeout,
           rejected = m.rejected + EXCLUDED.rejected,
           latency = ARRAY(SELECT coalesce(x, 0) + coalesce(y, 0) FROM unnest(m.latency, EXCLUDED.latency) AS u(x, y))`,
        [minute, JSON.stringify(added.map(([configId, totals]) => ({ config_id: configId, totals: totals.map(Math.round) })))],
      );
    }
    await manager.query(
      `INSERT INTO slo_instance_readings AS r (config_id, instance, totals, read_at)
       SELECT a.config_id, a.instance, a.totals, now() FROM jsonb_to_recordset($1::jsonb) AS a(config_id int, instance text, totals bigint[])
       ON CONFLICT (config_id, instance) DO UPDATE SET totals = EXCLUDED.totals, read_at = EXCLUDED.read_at`,
      [JSON.stringify(rows.map((row) => ({ config_id: row.config_id, instance: row.instance, totals: row.totals.map(Math.round) })))],
    );
    return rows.length;
  }

  /**
   * Recomputes every SLO's (or `ids`') good and all events of each minute from minute `from` on (minutes since 1970),
   * then the hours and the days those minutes are in.
   */
  async recount(manager: EntityManager, from: number, ids: number[] | null = null): Promise<void> {
    const minuteOf = (column: string) => `floor(extract(epoch FROM ${column}) / 60)::int`;
    await manager.query(
      `WITH members AS (${members('$3')}),
       calls AS (
         SELECT config_id, ${minuteOf('second')} AS minute, sum(success)::bigint AS good,
                sum(success + failure + timeout + short_circuited + bulkhead_rejected)::bigint AS total
         FROM metric_buckets WHERE second >= to_timestamp($1::bigint * 60) GROUP BY 1, 2
         UNION ALL
         SELECT config_id, minute, success, success + failure + timeout + rejected FROM slo_breaker_minutes WHERE minute >= $1),
       counted AS (
         SELECT m.slo_id, c.minute, sum(c.good) AS good, sum(c.total) AS total
         FROM members m JOIN calls c ON c.config_id = m.config_id WHERE m.kind = 'breaker-calls' GROUP BY 1, 2
         UNION ALL
         SELECT m.slo_id, b.minute,
                sum((SELECT coalesce(sum(v), 0) FROM unnest(b.latency) WITH ORDINALITY AS u(v, i)
                     WHERE i <= (SELECT count(*) FROM unnest($2::int[]) AS bound WHERE bound <= (m.indicator ->> 'thresholdMs')::int))),
                sum((SELECT coalesce(sum(v), 0) FROM unnest(b.latency) AS v))
         FROM members m JOIN slo_breaker_minutes b ON b.config_id = m.config_id AND b.minute >= $1
         WHERE m.kind = 'breaker-latency' GROUP BY 1, 2
         UNION ALL
         SELECT s.id, ${minuteOf('d.minute')}, sum(d.checks - d.failures), sum(d.checks)
         FROM slos s JOIN domain_check_buckets d
           ON d.domain_id = ANY (${NAMED_DOMAINS})
          AND d.minute >= to_timestamp($1::bigint * 60)
         WHERE s.kind = 'domain-uptime' AND ($3::int[] IS NULL OR s.id = ANY ($3::int[])) GROUP BY 1, 2
         UNION ALL
         SELECT s.id, ${minuteOf('l.at')}, count(*) FILTER (WHERE l.ok), count(*)
         FROM slos s JOIN remote_loads l ON l.remote = s.indicator ->> 'remote' AND l.at >= to_timestamp($1::bigint * 60)
         WHERE s.kind = 'remote-loads' AND ($3::int[] IS NULL OR s.id = ANY ($3::int[])) GROUP BY 1, 2)
       INSERT INTO slo_minutes AS m (slo_id, minute, good, total)
       SELECT slo_id, minute, least(good, 2147483647), least(total, 2147483647) FROM counted WHERE total > 0
       ON CONFLICT (slo_id, minute) DO UPDATE SET good = EXCLUDED.good, total = EXCLUDED.total
         WHERE (m.good, m.total) IS DISTINCT FROM (EXCLUDED.good, EXCLUDED.total)`,
      [from, BOUNDS_MS, ids],
    );
    // integer division: the hour of a minute, the day of an hour; a row whose figures did not change is not rewritten
    await manager.query(
      `INSERT INTO slo_hours AS h (slo_id, hour, good, total)
       SELECT slo_id, minute / 60, sum(good), sum(total) FROM slo_minutes
       WHERE minute >= $1 / 60 * 60 AND ($2::int[] IS NULL OR slo_id = ANY ($2::int[])) GROUP BY 1, 2
       ON CONFLICT (slo_id, hour) DO UPDATE SET good = EXCLUDED.good, total = EXCLUDED.total
         WHERE (h.good, h.total) IS DISTINCT FROM (EXCLUDED.good, EXCLUDED.total)`,
      [from, ids],
    );
    await manager.query(
      `INSERT INTO slo_days AS d (slo_id, day, good, total)
       SELECT slo_id, hour / 24, sum(good), sum(total) FROM slo_hours
       WHERE hour >= $1 / 1440 * 24 AND ($2::int[] IS NULL OR slo_id = ANY ($2::int[])) GROUP BY 1, 2
       ON CONFLICT (slo_id, day) DO UPDATE SET good = EXCLUDED.good, total = EXCLUDED.total
         WHERE (d.good, d.total) IS DISTINCT FROM (EXCLUDED.good, EXCLUDED.total)`,
      [from, ids],
    );
  }

  /**
   * Minutes past 7 hours (the 6 h burn rate's), hours past 4 days (the 3 d burn rate's, and a whole day to roll up),
   * days past `dayCount` go; the agents' minutes after a day, readings of instances gone or silent for an hour.
   */
  async prune(nowMinute: number, dayCount: number): Promise<void> {
    await this.dataSource.query('DELETE FROM slo_minutes WHERE minute < $1', [nowMinute - 7 * 60]);
    await this.dataSource.query('DELETE FROM slo_breaker_minutes WHERE minute < $1', [nowMinute - 1440]);
    await this.dataSource.query('DELETE FROM slo_hours WHERE hour < $1', [Math.floor(nowMinute / 60) - 4 * 24]);
    await this.dataSource.query('DELETE FROM slo_days WHERE day < $1', [Math.floor(nowMinute / 1440) - dayCount]);
    await this.dataSource.query(
      `DELETE FROM slo_instance_readings r WHERE read_at < now() - interval '1 hour'
         OR NOT EXISTS (SELECT 1 FROM breaker_instances b WHERE b.config_id = r.config_id AND b.instance = r.instance)`,
    );
  }
}
