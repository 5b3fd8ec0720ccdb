import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { BreakerStateName } from '@cbh/contracts';

/** A breaker's move as a drill's timeline and judgement read it. */
export interface DrillMove {
  breakerId: number;
  from: BreakerStateName;
  to: BreakerStateName;
  at: Date;
  reason: string;
  instance: string | null;
}

/** A breaker a drill names. */
export interface DrillBreakerRow {
  id: number;
  name: string;
  source: 'hub' | 'agent' | 'scrape';
  service: string | null;
}

/** One instance's fault of one step: sent, applied, refused. */
export interface DrillFaultRow {
  step: number;
  instance: string;
  sentAt: Date;
  appliedAt: Date | null;
  refused: string | null;
}

/**
 * The drills' SQL that TypeORM cannot say well: holding breakers (one running drill each, the primary key decides
 * between replicas), ending drills once across replicas, the faults instances took, and the journal and events a
 * drill's timeline and expectations read.
 */
@Injectable()
export class DrillsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Holds the breakers for a drill: the ids another running drill holds already (then nothing is held). */
  async hold(manager: EntityManager, drillId: number, breakerIds: readonly number[]): Promise<{ breakerId: number; drillId: number }[]> {
    const held = (await manager.query(
      `SELECT breaker_id AS "breakerId", drill_id AS "drillId" FROM drill_breakers WHERE breaker_id = ANY ($1::int[]) FOR UPDATE`,
      [breakerIds],
    )) as { breakerId: number; drillId: number }[];
    if (held.length > 0) return held;
    await manager.query(`INSERT INTO drill_breakers (breaker_id, drill_id) SELECT unnest($1::int[]), $2`, [breakerIds, drillId]);
    return [];
  }

  /** Running drills, counted under a lock so that two starts at once cannot both pass the site limit. */
  async countRunning(manager: EntityManager): Promise<number> {
    await manager.query("SELECT pg_advisory_xact_lock(hashtext('drills.start'))");
    const [row] = (await manager.query("SELECT count(*)::int AS count FROM drills WHERE state = 'running'")) as { count: number }[];
    return row!.count;
  }

  /** Whether any drill is running or still to be judged or told, whichever replica holds its row now. */
  async anyToJudge(): Promise<boolean> {
    const [row] = (await this.dataSource.query(`SELECT EXISTS (SELECT 1 FROM drills WHERE verdict = 'pending' OR NOT told) AS any`)) as {
      any: boolean;
    }[];
    return row?.any === true;
  }

  /**
   * Ends running drills, once whichever replica asks: those whose last step is over (finished), or those given
   * (stopped, by `by`). Their breakers are released in the same statement's transaction. The drills ended.
   */
  async end(kind: 'finished' | 'stopped', ids: readonly number[] | null, by: string | null): Promise<number[]> {
    return this.dataSource.transaction(async (manager) => {
      const rows = (await manager.query(
        kind === 'finished'
          ? `UPDATE drills SET state = 'finished', ended_at = ends_at WHERE state = 'running' AND ends_at <= now() RETURNING id`
          : `UPDATE drills SET state = 'stopped', ended_at = now(), stopped_by = $2
             WHERE state = 'running' AND ($1::int[] IS NULL OR id = ANY ($1::int[])) RETURNING id`,
        kind === 'finished' ? [] : [ids, by],
      )) as [{ id: number }[], number] | { id: number }[];
      const ended = (Array.isArray(rows[0]) ? rows[0] : rows) as { id: number }[];
      const endedIds = ended.map((row) => row.id);
      if (endedIds.length > 0) await manager.query('DELETE FROM drill_breakers WHERE drill_id = ANY ($1::int[])', [endedIds]);
      return endedIds;
    });
  }

  /** Notes, once per step and instance, that a fault was sent, applied or refused there. */
  async noteFaults(rows: readonly { drillId: number; step: number; instance: string; applied: boolean; refused: string | null }[]) {
    if (rows.length === 0) return;
    await this.dataSource.query(
      `INSERT INTO drill_faults (drill_id, step, instance, applied_at, refused)
       SELECT r.drill_id, r.step, r.instance, CASE WHEN r.applied THEN now() END, r.refused
       FROM jsonb_to_recordset($1::jsonb) AS r(drill_id int, step int, instance text, applied boolean, refused text)
       WHERE EXISTS (SELECT 1 FROM drills d WHERE d.id = r.drill_id)
       ON CONFLICT (drill_id, step, instance) DO UPDATE SET
         applied_at = coalesce(drill_faults.applied_at, EXCLUDED.applied_at),
         refused = coalesce(EXCLUDED.refused, drill_faults.refused)`,
      [
        JSON.stringify(
          rows.map((row) => ({
            drill_id: row.drillId,
            step: row.step,
            instance: row.instance,
            applied: row.applied,
            refused: row.refused,
          })),
        ),
      ],
    );
  }

  async faults(drillId: number, limit: number): Promise<DrillFaultRow[]> {
    return (await this.dataSource.query(
      `SELECT step, instance, sent_at AS "sentAt", applied_at AS "appliedAt", refused FROM drill_faults
       WHERE drill_id = $1 ORDER BY sent_at, instance LIMIT $2`,
      [drillId, limit],
    )) as DrillFaultRow[];
  }

  /**
   * The breakers' moves from `from` to `to`, oldest first, at most `limit`: real moves only, not the lines the journal
   * keeps at a breaker's state (a drill's own notes, the controls sent to agents).
   */
  async moves(breakerIds: readonly number[], from: Date, to: Date, limit: number): Promise<DrillMove[]> {
    return (await this.dataSource.query(
      `SELECT config_id AS "breakerId", from_state AS "from", to_state AS "to", at, reason, service_instance AS instance
       FROM breaker_transitions WHERE config_id = ANY ($1::int[]) AND at >= $2 AND at <= $3 AND from_state <> to_state
       ORDER BY at, id LIMIT $4`,
      [breakerIds, from, to, limit],
    )) as DrillMove[];
  }

  /** The state each breaker was in at `at`: the last move before it (CLOSED when none). */
  async statesAt(breakerIds: readonly number[], at: Date): Promise<Map<number, BreakerStateName>> {
    const rows = (await this.dataSource.query(
      `SELECT DISTINCT ON (config_id) config_id AS "breakerId", to_state AS state FROM breaker_transitions
       WHERE config_id = ANY ($1::int[]) AND at < $2 ORDER BY config_id, at DESC, id DESC`,
      [breakerIds, at],
    )) as { breakerId: number; state: BreakerStateName }[];
    return new Map(rows.map((row) => [row.breakerId, row.state]));
  }

  /** The breakers of these ids: name, where they run (hub, agent, scrape) and their service. */
  async breakers(ids: readonly number[]): Promise<DrillBreakerRow[]> {
    if (ids.length === 0) return [];
    return (await this.dataSource.query('SELECT id, name, source, service FROM circuit_breaker_configs WHERE id = ANY ($1::int[])', [
      ids,
    ])) as DrillBreakerRow[];
  }

  /**
   * A service's breaker by the name its agent reports it by (whatever the letter case), or null; the agent's when a
   * scrape target reports one of the same name too (only the agent's can take faults).
   */
  async breakerOf(service: string, name: string): Promise<DrillBreakerRow | null> {
    const [row] = (await this.dataSource.query(
      `SELECT id, name, source, service FROM circuit_breaker_configs
       WHERE source <> 'hub' AND lower(service) = lower($1) AND lower(name) = lower($2)
       ORDER BY source = 'agent' DESC LIMIT 1`,
      [service, name],
    )) as DrillBreakerRow[];
    return row ?? null;
  }

  /** The breaker events raised for the breakers from `from` to `to` (what rules could have told people). */
  async events(breakerIds: readonly number[], from: Date, to: Date, limit: number) {
    return (await this.dataSource.query(
      `SELECT type, subject_id AS "breakerId", subject_name AS name, occurred_at AS at FROM notification_events
       WHERE subject_kind = 'breaker' AND subject_id = ANY ($1::int[]) AND occurred_at >= $2 AND occurred_at <= $3
       ORDER BY occurred_at, id LIMIT $4`,
      [breakerIds, from, to, limit],
    )) as { type: string; breakerId: number; name: string; at: Date }[];
  }
}
