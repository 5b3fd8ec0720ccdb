import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { BreakerOverride, BreakerStateName, BreakerStats, BreakerTypeName } from '@cbh/contracts';
import { METRICS_WINDOW_SECONDS } from '@cbh/breaker';
import { hydrate, type RawRow } from '../../platform';
import { BreakerConfigEntity, type LibrarySettings } from '../entities/breaker-config.entity';
import {
  keepRecent,
  spanOf,
  totalsOf,
  withNewest,
  type InstanceChange,
  type InstanceRow,
  type InstanceTotals,
  type StoredPeriod,
} from './instance-periods';

/** An existing row's reported library and settings differ from the report's, and were last written a minute ago or more. */
const STALE = `((c.library, c.library_type, c.reported_settings) IS DISTINCT FROM (EXCLUDED.library, EXCLUDED.library_type, EXCLUDED.reported_settings)
  AND c.updated_at < now() - interval '1 minute')`;

/** A breaker a service reported or a scrape found, as its configuration row is to be. */
export interface ReportedBreaker {
  name: string;
  type: BreakerTypeName;
  library: string;
  libraryType: string;
  settings: LibrarySettings | null;
}

/** One instance's report of one breaker: its state and the period that just ended. */
export type InstanceReport = Omit<InstanceRow, 'periods' | 'totals' | 'writes'> & { period: StoredPeriod };

/** A move a service reported, journalled with the instance it happened on. */
export interface ReportedMove {
  configId: number;
  from: BreakerStateName;
  to: BreakerStateName;
  reason: string;
  at: string;
  serviceInstance: string | null;
}

/** Moves as the rows of breaker_transitions, for jsonb_to_recordset; `n` numbers them within a report, `k` the report in a batch. */
export function moveRecords(moves: readonly ReportedMove[], k: number | null = null) {
  return moves.map((move, i) => ({
    k,
    config_id: move.configId,
    from_state: move.from,
    to_state: move.to,
    reason: move.reason,
    service_instance: move.serviceInstance,
    at: move.at,
    n: i + 1,
  }));
}

/** How long an instance's periods are kept in its row at least: the wall's rolling window. */
export const INSTANCE_SPAN_MS = METRICS_WINDOW_SECONDS * 1000;

/**
 * Writes instance rows from `$1` (instanceRecords), `$2` now and `$3` INSTANCE_SPAN_MS; `where` adds a condition on
 * the record `r` (its report's number `r.k` in a batch, for its claim). Each write marks the row with its
 * transaction (written_by), which the figures read by, counts itself (writes) and keeps the period it added (newest).
 * Each record is a JSON array (InstanceRecord), read by position: a batch of 40 reports carries 800 of them, and as
 * objects their keys were a third of the statement's bytes, and writing them (JSON.stringify, then the driver's
 * Buffer.byteLength) took 1.8 µs each against 0.6 as arrays; PostgreSQL read such a batch alone in 9.5 ms against 11–12.
 */
export const INSTANCE_UPSERT = (where: string) =>
  `INSERT INTO breaker_instances AS b (config_id, instance, state, override, reported_at, period_ms, last_move_at, periods, totals, newest)
   SELECT r.config_id, r.instance, r.state, r.override, to_timestamp(r.reported_at / 1000.0), r.period_ms,
          to_timestamp(r.last_move_at / 1000.0), jsonb_build_array(r.period), r.totals, r.period
   FROM jsonb_array_elements($1::jsonb) AS e, LATERAL (
     SELECT (e->>0)::int AS k, (e->>1)::int AS config_id, e->>2 AS instance, e->>3 AS state, e->>4 AS override,
            (e->>5)::float8 AS reported_at, (e->>6)::int AS period_ms, (e->>7)::float8 AS last_move_at, e->8 AS period,
            translate(e->>9, '[]', '{}')::float8[] AS totals
   ) AS r
   WHERE EXISTS (SELECT 1 FROM circuit_breaker_configs c WHERE c.id = r.config_id) ${where}
   ON CONFLICT (config_id, instance) DO UPDATE SET
     state = EXCLUDED.state, override = EXCLUDED.override, reported_at = greatest(b.reported_at, EXCLUDED.reported_at),
     period_ms = EXCLUDED.period_ms, last_move_at = greatest(b.last_move_at, EXCLUDED.last_move_at),
     periods = (
       SELECT coalesce(jsonb_agg(p ORDER BY (p->>0)::float8), '[]'::jsonb)
       FROM jsonb_array_elements(b.periods || EXCLUDED.periods) AS p
       WHERE (p->>0)::float8 > $2::float8 - greatest($3::float8, 2 * EXCLUDED.period_ms)
     ),
     totals = ARRAY(
       SELECT coalesce(kept, 0) + coalesce(added, 0)
       FROM unnest(b.totals, EXCLUDED.totals) WITH ORDINALITY AS t(kept, added, at) ORDER BY at
     ),
     writes = b.writes + 1, newest = EXCLUDED.newest, written_by = txid_current()`;

/**
 * An instance report as INSTANCE_UPSERT reads it, by position: the number of the report it came in within a batch
 * (null alone), config id, instance, state, override, reported at (ms), period (ms), last move at (ms or null), the
 * period as stored, and what it adds to the instance's totals.
 */
type InstanceRecord = [
  number | null,
  number,
  string,
  BreakerStateName,
  BreakerOverride,
  number,
  number,
  number | null,
  StoredPeriod,
  InstanceTotals,
];

/** The instance reports as INSTANCE_UPSERT reads them; `k` numbers the report they came in, within a batch. */
export function instanceRecords(reports: readonly InstanceReport[], k: number | null = null): InstanceRecord[] {
  return reports.map((report) => [
    k,
    report.configId,
    report.instance,
    report.state,
    report.override,
    report.reportedAt,
    report.periodMs,
    report.lastMoveAt,
    report.period,
    totalsOf(report.period),
  ]);
}

interface StoredInstanceRow {
  config_id: number;
  instance: string;
  state: BreakerStateName;
  override: BreakerOverride;
  /** ms, as numeric's text */
  reported_at: string;
  period_ms: number;
  last_move_at: string | null;
  writes: number;
  periods: StoredPeriod[];
  totals: number[];
}

/**
 * The rows written since `$1` (a horizon), as one JSON array of arrays (ChangedInstanceTuple): the merger reads a
 * fleet's rows twice a second, and one document parsed at once costs a fraction of the driver's reading of each field of
 * each row (a third of the merger's read was the driver's, in bench:fleet's profile).
 */
const CHANGED_ROWS = `SELECT coalesce(json_agg(json_build_array(config_id, instance, state, override,
    extract(epoch FROM reported_at)::float8 * 1000, period_ms, extract(epoch FROM last_move_at)::float8 * 1000, writes, newest)), '[]') AS rows
  FROM breaker_instances WHERE written_by >= $1::bigint`;

/** A row of CHANGED_ROWS: the fields of InstanceChange in their order, times in ms. */
type ChangedInstanceTuple = [number, string, BreakerStateName, BreakerOverride, number, number, number | null, number, StoredPeriod | null];

const changeOf = ([configId, instance, state, override, reportedAt, periodMs, lastMoveAt, writes, newest]: ChangedInstanceTuple) =>
  ({ configId, instance, state, override, reportedAt, periodMs, lastMoveAt, writes, newest }) satisfies InstanceChange;

const ROW_COLUMNS = `config_id, instance, state, override, extract(epoch FROM reported_at) * 1000 AS reported_at, period_ms,
  extract(epoch FROM last_move_at) * 1000 AS last_move_at, writes`;
const INSTANCE_COLUMNS = `SELECT ${ROW_COLUMNS}, periods, totals FROM breaker_instances`;

/** A row as the merger holds it, with its periods (those in its span, oldest first) and totals. */
const fromStored = (row: StoredInstanceRow, now: number): InstanceRow => ({
  configId: row.config_id,
  instance: row.instance,
  state: row.state,
  override: row.override,
  reportedAt: Number(row.reported_at),
  periodMs: row.period_ms,
  lastMoveAt: row.last_move_at === null ? null : Number(row.last_move_at),
  writes: row.writes,
  periods: keepRecent(row.periods, now, spanOf(row.period_ms)),
  totals: row.totals,
});

/** The breakers of agents and scrapes: the statements that TypeORM would make one per row, or cannot say. */
@Injectable()
export class FleetRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The configuration rows of these breakers of a service, made for those seen for the first time, in the order
   * given; `created` says which rows are new. The reported library and settings are brought up to date at most once
   * a minute per breaker: instances of two versions of a service, in the middle of a deploy, would otherwise rewrite
   * the row (and have it announced) on every report. Every row is returned by the statement itself, also one another
   * replica inserted a moment before (the update always takes the row, changing nothing then), and rows are written
   * in one order of names, so two reports of the same new breakers cannot wait on each other.
   */
  async ensureBreakers(
    source: 'agent' | 'scrape',
    service: string,
    breakers: readonly ReportedBreaker[],
  ): Promise<{ config: BreakerConfigEntity; created: boolean }[]> {
    if (breakers.length === 0) return [];
    const rows = (await this.dataSource.query(
      `INSERT INTO circuit_breaker_configs AS c
         (name, type, failure_threshold, timeout_ms, recovery_time_ms, success_threshold, source, service, library, library_type, reported_settings)
       SELECT r.name, r.type, 5, 30000, 60000, 3, $1, $2, r.library, r.library_type, r.settings
       FROM jsonb_to_recordset($3::jsonb) AS r(name text, type text, library text, library_type text, settings jsonb)
       ORDER BY lower(r.name)
       ON CONFLICT (source, coalesce(service, ''), lower(name)) DO UPDATE SET
         library = CASE WHEN ${STALE} THEN EXCLUDED.library ELSE c.library END,
         library_type = CASE WHEN ${STALE} THEN EXCLUDED.library_type ELSE c.library_type END,
         reported_settings = CASE WHEN ${STALE} THEN EXCLUDED.reported_settings ELSE c.reported_settings END,
         type = CASE WHEN ${STALE} THEN EXCLUDED.type ELSE c.type END,
         updated_at = CASE WHEN ${STALE} THEN now() ELSE c.updated_at END
       RETURNING c.*, (xmax = 0) AS created`,
      [
        source,
        service,
        JSON.stringify(
          breakers.map((breaker) => ({
            name: breaker.name,
            type: breaker.type,
            library: breaker.library,
            library_type: breaker.libraryType,
            settings: breaker.settings,
          })),
        ),
      ],
    )) as RawRow[];
    const byName = new Map(
      rows.map((row) => [
        String(row.name).toLowerCase(),
        { config: hydrate(this.dataSource, BreakerConfigEntity, row), created: row.created === true },
      ]),
    );
    return breakers.flatMap((breaker) => byName.get(breaker.name.toLowerCase()) ?? []);
  }

  /**
   * Each instance's state and newest period, with the periods still inside the rolling window kept (those
   * another replica wrote a moment ago included: the row is read and rewritten in one statement), and the period's
   * calls added to the instance's totals (element by element).
   */
  async writeInstances(reports: readonly InstanceReport[], now: number): Promise<void> {
    if (reports.length === 0) return;
    await this.dataSource.query(INSTANCE_UPSERT(''), [JSON.stringify(instanceRecords(reports)), now, INSTANCE_SPAN_MS]);
  }

  /**
   * The horizon of a read that follows: every transaction it cannot see has an id at or past it, so a read of the rows
   * written by transactions at or past the previous read's horizon misses nothing, whatever order the writes commit
   * in (a row read twice is just the same row again). Taken before the read, which sees at least what it could see.
   */
  private async horizon(): Promise<string> {
    const [next] = (await this.dataSource.query('SELECT txid_snapshot_xmin(txid_current_snapshot())::text AS horizon')) as {
      horizon: string;
    }[];
    return next!.horizon;
  }

  /**
   * The instance rows written since `horizon` (0 the first time: every row), with the horizon of the next read. A row
   * `known` as it was one write ago is brought up to date from the period that write added: in place by `inPlace`
   * (true: done, and the row is not returned), or else into a new row; one known as it is now is left out; any other
   * is read whole.
   */
  async instancesWrittenSince(
    horizon: string,
    now: number,
    known: (configId: number, instance: string) => InstanceRow | undefined,
    inPlace: (change: InstanceChange, newest: StoredPeriod) => boolean = () => false,
  ): Promise<{ rows: InstanceRow[]; horizon: string }> {
    const next = await this.horizon();
    if (horizon === '0') {
      const all = (await this.dataSource.query(INSTANCE_COLUMNS)) as StoredInstanceRow[];
      return { rows: all.map((row) => fromStored(row, now)), horizon: next };
    }
    const [read] = (await this.dataSource.query(CHANGED_ROWS, [horizon])) as { rows: ChangedInstanceTuple[] }[];
    const rows: InstanceRow[] = [];
    const whole: InstanceChange[] = [];
    for (const tuple of read!.rows) {
      const change = changeOf(tuple);
      const before = known(change.configId, change.instance);
      if (before?.writes === change.writes) continue;
      const newest = change.newest;
      if (before?.writes !== change.writes - 1 || newest === null) whole.push(change);
      else if (!inPlace(change, newest)) {
        const { newest: _, ...row } = change;
        rows.push({
          ...row,
          periods: withNewest(before.periods, newest, now, spanOf(row.periodMs)),
          totals: totalsOf(newest, before.totals),
        });
      }
    }
    if (whole.length > 0) {
      const read = (await this.dataSource.query(
        `${INSTANCE_COLUMNS} WHERE (config_id, instance) IN (SELECT * FROM unnest($1::int[], $2::text[]))`,
        [whole.map((row) => row.configId), whole.map((row) => row.instance)],
      )) as StoredInstanceRow[];
      for (const row of read) rows.push(fromStored(row, now));
    }
    return { rows, horizon: next };
  }

  /** One breaker's instance rows as they are now (the instances page), of the instances heard since `since` (ms), at most `limit`. */
  async instancesOf(configId: number, since: number, now: number, limit: number): Promise<InstanceRow[]> {
    const rows = (await this.dataSource.query(
      `${INSTANCE_COLUMNS} WHERE config_id = $1 AND reported_at >= to_timestamp($2 / 1000.0) ORDER BY instance LIMIT $3`,
      [configId, since, limit],
    )) as StoredInstanceRow[];
    return rows.map((row) => fromStored(row, now));
  }

  /**
   * Writes breakers' merged figures for the other replicas (FleetFigures on the holder of `fleet.figures`), each as
   * its BreakerStats' JSON, which the merger has built already.
   */
  async writeFigures(figures: readonly string[]): Promise<void> {
    if (figures.length === 0) return;
    await this.dataSource.query(
      `INSERT INTO fleet_figures AS f (config_id, stats)
       SELECT (s->>'configId')::int, s FROM jsonb_array_elements($1::jsonb) AS s
       WHERE EXISTS (SELECT 1 FROM circuit_breaker_configs c WHERE c.id = (s->>'configId')::int)
       ON CONFLICT (config_id) DO UPDATE SET stats = EXCLUDED.stats, written_by = txid_current()`,
      [`[${figures.join(',')}]`],
    );
  }

  /** The merged figures written since `horizon` (as instancesWrittenSince), with the horizon of the next read. */
  async figuresWrittenSince(horizon: string): Promise<{ figures: BreakerStats[]; horizon: string }> {
    const next = await this.horizon();
    const rows = (await this.dataSource.query('SELECT stats FROM fleet_figures WHERE written_by >= $1::bigint', [horizon])) as {
      stats: BreakerStats;
    }[];
    return { figures: rows.map((row) => row.stats), horizon: next };
  }

  /**
   * Forgets instances silent since `before` (ms), a service scaled down or renamed its instances: these (`only`), or
   * every one.
   */
  async forgetInstances(before: number, only?: readonly { configId: number; instance: string }[]): Promise<number> {
    if (only?.length === 0) return 0;
    const [, count] = (await this.dataSource.query(
      only
        ? `DELETE FROM breaker_instances WHERE reported_at < to_timestamp($1 / 1000.0)
             AND (config_id, instance) IN (SELECT * FROM unnest($2::int[], $3::text[]))`
        : 'DELETE FROM breaker_instances WHERE reported_at < to_timestamp($1 / 1000.0)',
      only ? [before, only.map((row) => row.configId), only.map((row) => row.instance)] : [before],
    )) as [unknown, number];
    return count;
  }

  /** Journals the moves services reported, each with its instance. */
  async journal(moves: readonly ReportedMove[]): Promise<void> {
    if (moves.length === 0) return;
    await this.dataSource.query(
      `INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, service_instance, at)
       SELECT r.config_id, r.from_state, r.to_state, r.reason, r.service_instance, r.at
       FROM jsonb_to_recordset($1::jsonb) AS r(config_id int, from_state text, to_state text, reason text, service_instance text, at timestamptz)
       WHERE EXISTS (SELECT 1 FROM circuit_breaker_configs c WHERE c.id = r.config_id)`,
      [JSON.stringify(moveRecords(moves))],
    );
  }
}
