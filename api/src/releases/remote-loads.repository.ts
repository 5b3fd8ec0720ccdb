import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A version's loads as the release screen shows them. */
export interface LoadFigures {
  count: number;
  failed: number;
  /** People who loaded it in the last half hour: who runs this version now. */
  activeVisitors: number;
  p50Ms: number | null;
  p95Ms: number | null;
  /** Errors the version's code threw after it rendered (not loads). */
  errorsAfterRender: number;
}

export interface LoadRow {
  remote: string;
  versionId: number | null;
  ok: boolean;
  reason: string | null;
  loadMs: number | null;
  visitor: string | null;
  /** An error the version's code threw after it rendered, not a load. */
  afterRender: boolean;
}

/** The remote loads pages report: written in batches, read as figures per version (percentiles in SQL). */
@Injectable()
export class RemoteLoadsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(rows: readonly LoadRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.dataSource.query(
      `INSERT INTO remote_loads (remote, version_id, ok, reason, load_ms, visitor, after_render)
       SELECT r.remote, r.version_id, r.ok, r.reason, r.load_ms, r.visitor, r.after_render
       FROM jsonb_to_recordset($1::jsonb) AS r(remote text, version_id int, ok boolean, reason text, load_ms int, visitor text, after_render boolean)
       WHERE r.version_id IS NULL OR EXISTS (SELECT 1 FROM remote_versions v WHERE v.id = r.version_id AND v.remote = r.remote)`,
      [
        JSON.stringify(
          rows.map((row) => ({
            remote: row.remote,
            version_id: row.versionId,
            ok: row.ok,
            reason: row.reason,
            load_ms: row.loadMs,
            visitor: row.visitor,
            after_render: row.afterRender,
          })),
        ),
      ],
    );
  }

  /** Each version's loads, failures and time to first render (p50, p95), since `since` when given. */
  async figures(versionIds: readonly number[], since?: Date): Promise<Map<number, LoadFigures>> {
    if (versionIds.length === 0) return new Map();
    const rows = (await this.dataSource.query(
      `SELECT version_id, count(*) FILTER (WHERE NOT after_render)::int AS count,
              count(*) FILTER (WHERE NOT ok AND NOT after_render)::int AS failed,
              count(*) FILTER (WHERE after_render)::int AS after_render,
              count(DISTINCT visitor) FILTER (WHERE at > now() - interval '30 minutes')::int AS active,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY load_ms) FILTER (WHERE ok) AS p50,
              percentile_cont(0.95) WITHIN GROUP (ORDER BY load_ms) FILTER (WHERE ok) AS p95
       FROM remote_loads WHERE version_id = ANY($1::int[]) AND ($2::timestamptz IS NULL OR at >= $2)
       GROUP BY version_id`,
      [versionIds, since ?? null],
    )) as {
      version_id: number;
      count: number;
      failed: number;
      after_render: number;
      active: number;
      p50: number | null;
      p95: number | null;
    }[];
    return new Map(
      rows.map((row) => [
        row.version_id,
        {
          count: row.count,
          failed: row.failed,
          activeVisitors: row.active,
          p50Ms: row.p50 === null ? null : Math.round(row.p50),
          p95Ms: row.p95 === null ? null : Math.round(row.p95),
          errorsAfterRender: row.after_render,
        },
      ]),
    );
  }

  /**
   * How many people loaded a version since `since`, and how many of them are failing: judged by each person's latest
   * load, so one whose later load rendered (a reload after a passing glitch) is failing no more. Errors after render
   * are not loads: they are the SLOs' to judge (CanaryJudges), not this count's.
   */
  async visitors(versionId: number, since: Date): Promise<{ count: number; failed: number }> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*)::int AS count, count(*) FILTER (WHERE NOT ok)::int AS failed
       FROM (SELECT DISTINCT ON (visitor) ok FROM remote_loads
             WHERE version_id = $1 AND at >= $2 AND visitor IS NOT NULL AND NOT after_render ORDER BY visitor, at DESC, id DESC) latest`,
      [versionId, since],
    )) as { count: number; failed: number }[];
    return row ?? { count: 0, failed: 0 };
  }

  /**
   * Ends a canary if it is still the one given, in one statement: of the replicas that judge it failing at the same
   * moment, one ends it. True for that one.
   */
  async endCanary(remote: string, versionId: number): Promise<boolean> {
    const [, count] = (await this.dataSource.query(
      `UPDATE remote_releases SET canary_version_id = NULL, canary_percent = 0, canary_started_at = NULL, canary_slo_ids = '{}', updated_at = now(), updated_by = NULL
       WHERE remote = $1 AND canary_version_id = $2`,
      [remote, versionId],
    )) as [unknown, number];
    return count === 1;
  }

  /** Loads older than the retention: the figures are about recent releases; and load reports counted in minutes past. */
  async prune(before: Date): Promise<void> {
    await this.dataSource.query('DELETE FROM remote_loads WHERE at < $1', [before]);
    await this.dataSource.query("DELETE FROM remote_load_reports WHERE window_start < now() - interval '1 hour'");
  }

  /**
   * Counts one load report of an account in the current minute of the database clock, over every replica, in one
   * statement: the account's reports this minute, this one included, and the seconds left in the minute.
   */
  async countReport(userId: string): Promise<{ reports: number; secondsLeft: number }> {
    const [row] = (await this.dataSource.query(
      `INSERT INTO remote_load_reports (user_id, window_start, reports) VALUES ($1, date_trunc('minute', now()), 1)
       ON CONFLICT (user_id, window_start) DO UPDATE SET reports = remote_load_reports.reports + 1
       RETURNING reports, ceil(extract(epoch FROM date_trunc('minute', now()) + interval '1 minute' - now()))::int AS "secondsLeft"`,
      [userId],
    )) as { reports: number; secondsLeft: number }[];
    return row!;
  }
}
