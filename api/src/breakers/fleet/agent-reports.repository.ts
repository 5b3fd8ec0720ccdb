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
   * Writes one report in one statement: its id claimed (a report without one is always taken), then, only when the
   * claim was won, each instance's row (as FleetRepository.writeInstances writes them) and its moves, up to what
   * is left of the service's `movesPerServicePerMinute` this minute. One statement, so a report is taken whole or
   * not at all, and a retry that arrives while its first try is still being written waits for it and is not taken.
   */
  async take(
    service: string,
    reportId: string | null,
    reports: readonly InstanceReport[],
    moves: readonly ReportedMove[],
    now: number,
  ): Promise<Taken> {
    const [row] = (await this.dataSource.query(
      `WITH claim AS (
         INSERT INTO agent_report_ids (service, report_id) SELECT $4::text, $5::text WHERE $5::text IS NOT NULL
         ON CONFLICT DO NOTHING RETURNING 1
       ), go AS (
         SELECT $5::text IS NULL OR EXISTS (SELECT 1 FROM claim) AS taken
       ), written AS (
         ${INSTANCE_UPSERT('AND (SELECT taken FROM go)')}
         RETURNING 1
       ), quota AS (
         INSERT INTO service_minute_counts AS m (source, service, minute, moves)
         SELECT 'agent', $4::text, date_trunc('minute', now()), $7::int FROM go WHERE taken AND $7::int > 0
         ON CONFLICT (source, service, minute) DO UPDATE SET moves = m.moves + EXCLUDED.moves
         RETURNING m.moves
       ), journalled AS (
         INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, service_instance, at)
         SELECT r.config_id, r.from_state, r.to_state, r.reason, r.service_instance, r.at
         FROM jsonb_to_recordset($6::jsonb)
           AS r(config_id int, from_state text, to_state text, reason text, service_instance text, at timestamptz, n int), quota
         WHERE r.n <= $8::int - (quota.moves - $7::int) AND EXISTS (SELECT 1 FROM circuit_breaker_configs c WHERE c.id = r.config_id)
         RETURNING 1
       )
       SELECT (SELECT taken FROM go) AS taken, (SELECT count(*) FROM journalled)::int AS journalled`,
      [
        instanceRecords(reports),
        now,
        INSTANCE_SPAN_MS,
        service,
        reportId,
        JSON.stringify(moveRecords(moves)),
        moves.length,
        AGENT_PROTOCOL_LIMITS.movesPerServicePerMinute,
      ],
    )) as { taken: boolean; journalled: number }[];
    return { taken: row!.taken, journalled: row!.journalled };
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
