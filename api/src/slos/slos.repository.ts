import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { BURN_RATE_WINDOW_MINUTES, BURN_RATE_WINDOWS, type BurnRateWindow, type GoodTotal, type SloIndicator } from '@cbh/contracts';
import { bucketsWithin, NAMED_DOMAINS, NAMES_BREAKER } from './slo-counts.repository';

const DAY_MS = 86_400_000;

/** An SLO's counts over each burn-rate window and over its own window. */
export interface SloWindows {
  sloId: number;
  window: GoodTotal;
  burn: Record<BurnRateWindow, GoodTotal>;
}

/** Burn-rate windows read from minutes (exact to the minute); the day and the three days from hours. */
const MINUTE_WINDOWS = BURN_RATE_WINDOWS.filter((window) => BURN_RATE_WINDOW_MINUTES[window] <= 360);
const HOUR_WINDOWS = BURN_RATE_WINDOWS.filter((window) => BURN_RATE_WINDOW_MINUTES[window] > 360);

/** The sums of one window: the rows whose key (minutes, hours since 1970) is within `span` keys of `now`'s. */
const sums = (table: 'm' | 'h', key: string, now: string, span: number, name: string) =>
  `coalesce(sum(${table}.good) FILTER (WHERE ${table}.${key} > ${now} - ${span}), 0)::float8 AS "g${name}",
   coalesce(sum(${table}.total) FILTER (WHERE ${table}.${key} > ${now} - ${span}), 0)::float8 AS "t${name}"`;

/**
 * The SLOs' SQL that TypeORM cannot say well. Their figures as the API and the alerts read them, in one aggregate
 * statement whatever the number of SLOs: the burn rates up to 6 hours from minutes, the day and three days from hours,
 * the SLO's own window from days — the whole days that began inside it, today's included (so a 30-day window counts
 * between 29 and 30 days, never more).
 */
@Injectable()
export class SlosRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Every SLO's windows (or those of `ids`), at `now`. */
  async windows(now: Date, ids?: number[], manager: EntityManager = this.dataSource.manager): Promise<SloWindows[]> {
    const minute = Math.floor(now.getTime() / 60_000);
    const rows: Record<string, number>[] = await manager.query(
      `WITH s AS (SELECT id, rtrim(slo_window, 'd')::int AS days FROM slos WHERE $2::int[] IS NULL OR id = ANY ($2::int[])),
       m AS (SELECT m.slo_id, ${MINUTE_WINDOWS.map((window) => sums('m', 'minute', '$1', BURN_RATE_WINDOW_MINUTES[window], window)).join(', ')}
             FROM slo_minutes m JOIN s ON s.id = m.slo_id WHERE m.minute > $1 - 360 GROUP BY m.slo_id),
       h AS (SELECT h.slo_id, ${HOUR_WINDOWS.map((window) => sums('h', 'hour', '$3', BURN_RATE_WINDOW_MINUTES[window] / 60, window)).join(', ')}
             FROM slo_hours h JOIN s ON s.id = h.slo_id WHERE h.hour > $3 - 72 GROUP BY h.slo_id),
       d AS (SELECT d.slo_id, sum(d.good)::float8 AS gw, sum(d.total)::float8 AS tw
             FROM slo_days d JOIN s ON s.id = d.slo_id WHERE d.day > $4 - s.days GROUP BY d.slo_id)
       SELECT s.id, m.*, h.*, d.* FROM s LEFT JOIN m ON m.slo_id = s.id LEFT JOIN h ON h.slo_id = s.id LEFT JOIN d ON d.slo_id = s.id`,
      [minute, ids ?? null, Math.floor(minute / 60), Math.floor(minute / 1440)],
    );
    return rows.map((row) => ({
      sloId: Number(row.id),
      window: { good: row.gw ?? 0, total: row.tw ?? 0 },
      burn: Object.fromEntries(
        BURN_RATE_WINDOWS.map((window) => [window, { good: row[`g${window}`] ?? 0, total: row[`t${window}`] ?? 0 }]),
      ) as Record<BurnRateWindow, GoodTotal>,
    }));
  }

  /** An SLO's days (UTC) from `from` up to `to`, oldest first. */
  async days(sloId: number, from: Date, to: Date): Promise<{ day: Date; good: number; total: number }[]> {
    return (await this.daysOf([sloId], from, to)).get(sloId) ?? [];
  }

  /** Some SLOs' days (UTC) from `from` up to `to`, oldest first, by SLO id (one without days is absent). */
  async daysOf(sloIds: number[], from: Date, to: Date): Promise<Map<number, { day: Date; good: number; total: number }[]>> {
    const rows: { slo_id: number; day: number; good: string; total: string }[] = await this.dataSource.query(
      'SELECT slo_id, day, good, total FROM slo_days WHERE slo_id = ANY ($1::int[]) AND day >= $2 AND day < $3 ORDER BY slo_id, day',
      [sloIds, Math.floor(from.getTime() / DAY_MS), Math.ceil(to.getTime() / DAY_MS)],
    );
    const days = new Map<number, { day: Date; good: number; total: number }[]>();
    for (const row of rows) {
      const list = days.get(row.slo_id) ?? [];
      list.push({ day: new Date(row.day * DAY_MS), good: Number(row.good), total: Number(row.total) });
      days.set(row.slo_id, list);
    }
    return days;
  }

  /**
   * The ids of a service's SLOs: those whose indicator names the service, and those naming breakers by id of which one
   * is the service's (an agent's or scrape target's breaker reporting it).
   */
  async ofService(service: string): Promise<number[]> {
    const rows: { id: number }[] = await this.dataSource.query(
      `SELECT s.id FROM slos s
       WHERE s.service = $1
          OR (s.kind IN ('breaker-calls', 'breaker-latency') AND s.indicator ? 'breakers' AND EXISTS (
                SELECT 1 FROM circuit_breaker_configs c WHERE c.service = $1 AND ${NAMES_BREAKER}))`,
      [service],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Who spent an SLO's budget since `from`: its breakers (the hub's own by their metric buckets, agents' by the minutes
   * counted for SLOs), its domains, or the remote's versions; most bad events first, ten at most.
   */
  async contributors(
    slo: { id: number; kind: string; indicator: SloIndicator },
    from: Date,
  ): Promise<{ kind: 'breaker' | 'domain' | 'version'; id: string; name: string; bad: number; total: number }[]> {
    const query =
      slo.kind === 'domain-uptime'
        ? `SELECT 'domain' AS kind, d.id::text AS id, d.domain AS name, sum(b.failures)::float8 AS bad, sum(b.checks)::float8 AS total
           FROM slos s JOIN domain_check_buckets b
             ON b.domain_id = ANY (${NAMED_DOMAINS}) AND b.minute >= $2
           JOIN domains d ON d.id = b.domain_id WHERE s.id = $1 GROUP BY d.id, d.domain`
        : slo.kind === 'breaker-latency'
          ? `SELECT 'breaker' AS kind, c.id::text AS id, c.name,
                    sum(lat.total - lat.good)::float8 AS bad, sum(lat.total)::float8 AS total
             FROM slos s JOIN circuit_breaker_configs c ON ${NAMES_BREAKER}
             JOIN slo_breaker_minutes b ON b.config_id = c.id AND b.minute >= floor(extract(epoch FROM $2::timestamptz) / 60)
             CROSS JOIN LATERAL (
               SELECT coalesce(sum(v) FILTER (WHERE i <= $3), 0) AS good, coalesce(sum(v), 0) AS total
               FROM unnest(b.latency) WITH ORDINALITY AS u(v, i)) lat
             WHERE s.id = $1 GROUP BY c.id, c.name`
          : slo.kind === 'remote-loads'
            ? `SELECT 'version' AS kind, coalesce(l.version_id::text, 'deployed') AS id,
                    CASE WHEN l.version_id IS NULL THEN 'the deployed build' ELSE 'version ' || l.version_id END AS name,
                    (count(*) FILTER (WHERE NOT l.ok))::float8 AS bad, count(*)::float8 AS total
             FROM slos s JOIN remote_loads l ON l.remote = s.indicator ->> 'remote' AND l.at >= $2 WHERE s.id = $1 GROUP BY l.version_id`
            : `WITH members AS (
               SELECT c.id, c.name FROM slos s JOIN circuit_breaker_configs c ON ${NAMES_BREAKER} WHERE s.id = $1),
             calls AS (
               SELECT config_id, sum(failure + timeout + short_circuited + bulkhead_rejected) AS bad,
                      sum(success + failure + timeout + short_circuited + bulkhead_rejected) AS total
               FROM metric_buckets WHERE second >= $2 AND config_id IN (SELECT id FROM members) GROUP BY 1
               UNION ALL
               SELECT config_id, sum(failure + timeout + rejected), sum(success + failure + timeout + rejected)
               FROM slo_breaker_minutes WHERE minute >= floor(extract(epoch FROM $2::timestamptz) / 60) AND config_id IN (SELECT id FROM members) GROUP BY 1)
             SELECT 'breaker' AS kind, m.id::text AS id, m.name, sum(c.bad)::float8 AS bad, sum(c.total)::float8 AS total
             FROM members m JOIN calls c ON c.config_id = m.id GROUP BY m.id, m.name`;
    const params: unknown[] = [slo.id, from];
    if (slo.indicator.kind === 'breaker-latency') params.push(bucketsWithin(slo.indicator.thresholdMs));
    return this.dataSource.query(`SELECT * FROM (${query}) x WHERE bad > 0 ORDER BY bad DESC, name LIMIT 10`, params);
  }

  /** Which of `ids` exist, among the hub's breakers or domains. */
  async existing(manager: EntityManager, what: 'breaker' | 'domain', ids: number[]): Promise<Set<number>> {
    const table = what === 'domain' ? 'domains' : 'circuit_breaker_configs';
    const rows: { id: number }[] = await manager.query(`SELECT id FROM ${table} WHERE id = ANY ($1::int[])`, [ids]);
    return new Set(rows.map((row) => row.id));
  }

  /** A breaker's service (null: the hub's own), or undefined when there is no such breaker. */
  async serviceOf(breakerId: number): Promise<string | null | undefined> {
    const [row]: { service: string | null }[] = await this.dataSource.query('SELECT service FROM circuit_breaker_configs WHERE id = $1', [
      breakerId,
    ]);
    return row ? row.service : undefined;
  }

  /** Forgets an SLO's counts (its indicator changed: they counted something else). */
  async forgetCounts(manager: EntityManager, sloId: number): Promise<void> {
    await manager.query('DELETE FROM slo_minutes WHERE slo_id = $1', [sloId]);
    await manager.query('DELETE FROM slo_hours WHERE slo_id = $1', [sloId]);
    await manager.query('DELETE FROM slo_days WHERE slo_id = $1', [sloId]);
  }
}
