import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AGENT_PROTOCOL_LIMITS } from '@cbh/contracts';
import {
  INSTANCE_SPAN_MS,
  INSTANCE_UPSERT,
  instanceRecords,
  moveRecords,
  type InstanceReport,
  type ReportedMove,
} from './fleet.repository';

/** Whether an instance of a service may report as many breakers as it does, and the counts it was judged by. */
export interface Admission {
  admitted: boolean;
  /** Why it was refused: a new instance past the instances of the hour, or rows past the service's. */
  refused: 'instances' | 'rows' | null;
  /** Distinct instances of the service heard within the last hour, before this one. */
  instances: number;
  /** The service's instance rows (its instances' breakers, each the most it reported within the hour), before this report. */
  rows: number;
}

/** An instance of a service asking to report this many breakers. */
export interface AdmissionAsk {
  service: string;
  instance: string;
  breakers: number;
}

/** One instance's admission (see admitAll): $1 service, $2 instance, $3 breakers, $4 and $5 the service's limits. */
const ADMIT = `WITH counts AS (
   SELECT
     held IS NOT NULL AS known,
     coalesce(held, 0) AS held,
     instances,
     rows
   FROM (
     SELECT
       max(breakers) FILTER (WHERE instance = $2) AS held,
       count(*)::int AS instances,
       coalesce(sum(breakers), 0)::int AS rows
     FROM agent_instances WHERE service = $1 AND last_seen > now() - interval '1 hour'
   ) heard
 ), judged AS (
   SELECT *, CASE
     WHEN NOT known AND instances >= $4 THEN 'instances'
     WHEN $3 > held AND rows - held + $3 > $5 THEN 'rows'
   END AS refused FROM counts
 ), admitted AS (
   INSERT INTO agent_instances AS a (service, instance, last_seen, breakers)
   SELECT $1, $2, now(), $3 FROM judged WHERE refused IS NULL
   ON CONFLICT (service, instance) DO UPDATE SET
     last_seen = now(),
     breakers = CASE WHEN a.last_seen > now() - interval '1 hour' THEN greatest(a.breakers, EXCLUDED.breakers) ELSE EXCLUDED.breakers END
   RETURNING 1
 )
 SELECT EXISTS (SELECT 1 FROM admitted) AS admitted, refused, instances, rows FROM judged`;

/** One report to write (takeAll): its service, id and instance, its instances' rows and moves, and when it came. */
export interface ReportToTake {
  service: string;
  reportId: string | null;
  instance: string;
  reports: readonly InstanceReport[];
  moves: readonly ReportedMove[];
  now: number;
}

/** Instance rows one statement writes at most: 200 reports of 20 breakers, or 10 of the largest (500 breakers). */
const ROWS_PER_STATEMENT = 5000;

/** What became of a report's writes. */
export interface Taken {
  /** False when a report of the same id was taken before: nothing of it was written again. */
  taken: boolean;
  /** The moves journalled; the others passed the service's moves of this minute. */
  journalled: number;
}

/**
 * The agents' reports' SQL that bounds what a service may cost: which instances it may have, the report ids
 * claimed, each account's reports per minute (for TokenRateLimiter's shared counts), and the prunes of all three.
 */
@Injectable()
export class AgentReportsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Lets each instance of a service report `breakers` breakers, or refuses it: at most `instancesPerService` distinct
   * instances heard within the hour, and at most `instanceRowsPerService` instance rows, the sum of each instance's
   * breakers (the most it reported within the hour) once this one's are counted. Judged under a lock of the
   * service's and the breakers kept in the same transaction, so two replicas admitting instances of one service at
   * once cannot both take the last place, before either has written a row; an admitted instance is heard now.
   * Many instances are judged in one transaction, one after the other in the order given (the services' locks taken
   * in one order, so two replicas' batches cannot wait on each other): a fleet of new instances reporting at once
   * costs one commit per batch rather than one lock and commit each.
   */
  async admitAll(asks: readonly AdmissionAsk[]): Promise<Admission[]> {
    if (asks.length === 0) return [];
    return this.dataSource.transaction(async (manager) => {
      for (const service of [...new Set(asks.map((ask) => ask.service))].sort()) {
        await manager.query("SELECT pg_advisory_xact_lock(hashtext('agent-instances'), hashtext($1))", [service]);
      }
      const admissions: Admission[] = [];
      for (const { service, instance, breakers } of asks) {
        const [row] = (await manager.query(ADMIT, [
          service,
          instance,
          breakers,
          AGENT_PROTOCOL_LIMITS.instancesPerService,
          AGENT_PROTOCOL_LIMITS.instanceRowsPerService,
        ])) as Admission[];
        admissions.push({ admitted: row!.admitted, refused: row!.refused, instances: row!.instances, rows: row!.rows });
      }
      return admissions;
    });
  }

  /**
   * Writes reports, many in one statement: each report's id claimed (a report without one is always taken), then, only
   * for the reports whose claim was won, each instance's row (as FleetRepository.writeInstances writes them) and the
   * moves, up to what is left of each service's `movesPerServicePerMinute` this minute, counted in the reports' order.
   * One statement, so a report is taken whole or not at all, and a retry that arrives while its first try is still
   * being written waits for it and is not taken. Reports that would write the same instance's rows, or claim the same
   * id, go in statements one after the other (a statement may write a row once), as do reports past ROWS_PER_STATEMENT.
   */
  async takeAll(items: readonly ReportToTake[]): Promise<Taken[]> {
    const results = new Array<Taken>(items.length);
    let left = items.map((item, index) => ({ item, index }));
    while (left.length > 0) {
      const keys = new Set<string>();
      const round: typeof left = [];
      const later: typeof left = [];
      let rows = 0;
      for (const entry of left) {
        const { service, instance, reportId, reports } = entry.item;
        const own = [`instance\u0000${service}\u0000${instance}`, ...(reportId === null ? [] : [`id\u0000${service}\u0000${reportId}`])];
        if (own.some((key) => keys.has(key)) || (round.length > 0 && rows + reports.length > ROWS_PER_STATEMENT)) later.push(entry);
        else {
          rows += reports.length;
          for (const key of own) keys.add(key);
          round.push(entry);
        }
      }
      const taken = await this.takeRound(round.map((entry) => entry.item));
      round.forEach((entry, i) => (results[entry.index] = taken[i]!));
      left = later;
    }
    return results;
  }

  private async takeRound(items: readonly ReportToTake[]): Promise<Taken[]> {
    const rows = (await this.dataSource.query(
      `WITH input AS (
         SELECT * FROM jsonb_to_recordset($4::jsonb) AS i(k int, service text, report_id text, moves int)
       ), claim AS (
         INSERT INTO agent_report_ids (service, report_id) SELECT service, report_id FROM input WHERE report_id IS NOT NULL
         ON CONFLICT DO NOTHING RETURNING service, report_id
       ), go AS (
         SELECT i.k, i.service, i.moves,
                i.report_id IS NULL OR EXISTS (SELECT 1 FROM claim c WHERE c.service = i.service AND c.report_id = i.report_id) AS taken
         FROM input i
       ), written AS (
         ${INSTANCE_UPSERT('AND (SELECT taken FROM go WHERE go.k = r.k)')}
         RETURNING 1
       ), added AS (
         SELECT service, sum(moves)::int AS moves FROM go WHERE taken AND moves > 0 GROUP BY service
       ), quota AS (
         INSERT INTO service_minute_counts AS m (source, service, minute, moves)
         SELECT 'agent', service, date_trunc('minute', now()), moves FROM added
         ON CONFLICT (source, service, minute) DO UPDATE SET moves = m.moves + EXCLUDED.moves
         RETURNING m.service, m.moves
       ), numbered AS (
         SELECT r.*, go.service, row_number() OVER (PARTITION BY go.service ORDER BY r.k, r.n) AS sn
         FROM jsonb_to_recordset($5::jsonb)
           AS r(k int, n int, config_id int, from_state text, to_state text, reason text, service_instance text, at timestamptz)
         JOIN go ON go.k = r.k AND go.taken
       ), kept AS (
         SELECT numbered.* FROM numbered JOIN quota q ON q.service = numbered.service JOIN added a ON a.service = numbered.service
         WHERE numbered.sn <= $6::int - (q.moves - a.moves)
           AND EXISTS (SELECT 1 FROM circuit_breaker_configs c WHERE c.id = numbered.config_id)
       ), journalled AS (
         INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, service_instance, at)
         SELECT config_id, from_state, to_state, reason, service_instance, at FROM kept
         RETURNING 1
       )
       SELECT go.k, go.taken, (SELECT count(*) FROM kept WHERE kept.k = go.k)::int AS journalled FROM go ORDER BY go.k`,
      [
        JSON.stringify(items.flatMap((item, k) => instanceRecords(item.reports, k))),
        Math.max(...items.map((item) => item.now)),
        INSTANCE_SPAN_MS,
        JSON.stringify(items.map((item, k) => ({ k, service: item.service, report_id: item.reportId, moves: item.moves.length }))),
        JSON.stringify(items.flatMap((item, k) => moveRecords(item.moves, k))),
        AGENT_PROTOCOL_LIMITS.movesPerServicePerMinute,
      ],
    )) as { k: number; taken: boolean; journalled: number }[];
    return rows.map((row) => ({ taken: row.taken, journalled: row.journalled }));
  }

  /** Each account's reports in the minute from `windowStart` (TokenRateLimiter's shared counts). */
  async usage(accountId: string, windowStart: Date): Promise<number> {
    const [row] = (await this.dataSource.query('SELECT reports FROM agent_report_usage WHERE account_id = $1 AND window_start = $2', [
      accountId,
      windowStart,
    ])) as { reports: number }[];
    return row ? Number(row.reports) : 0;
  }

  /** Adds a replica's counts of one minute and answers each account's total from every replica. */
  async addUsage(windowStart: Date, counts: ReadonlyMap<string, number>): Promise<Map<string, number>> {
    if (counts.size === 0) return new Map();
    const rows = (await this.dataSource.query(
      `INSERT INTO agent_report_usage (account_id, window_start, reports)
       SELECT t.id, $1, t.n FROM unnest($2::uuid[], $3::int[]) AS t (id, n) JOIN users ON users.id = t.id
       ON CONFLICT (account_id, window_start) DO UPDATE SET reports = agent_report_usage.reports + EXCLUDED.reports
       RETURNING account_id, reports`,
      [windowStart, [...counts.keys()], [...counts.values()]],
    )) as { account_id: string; reports: number }[];
    return new Map(rows.map((row) => [String(row.account_id), Number(row.reports)]));
  }

  async pruneUsage(before: Date): Promise<void> {
    await this.dataSource.query('DELETE FROM agent_report_usage WHERE window_start < $1', [before]);
  }

  /**
   * Forgets what the bounds no longer need: instances not heard within the hour, report ids older than their time to
   * live, and the per-minute counts of minutes long past.
   */
  async prune(idsBefore: number): Promise<void> {
    await this.dataSource.query("DELETE FROM agent_instances WHERE last_seen < now() - interval '1 hour'");
    await this.dataSource.query('DELETE FROM agent_report_ids WHERE received_at < to_timestamp($1 / 1000.0)', [idsBefore]);
    await this.dataSource.query("DELETE FROM service_minute_counts WHERE minute < now() - interval '10 minutes'");
  }
}
