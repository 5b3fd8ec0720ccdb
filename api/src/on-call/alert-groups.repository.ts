import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AlertGroupSubject, ServerMessage } from '@cbh/contracts';
import { AlertGroupEntity } from './entities/alert-group.entity';
import { DOMAIN_GROUP_SQL } from './domain-groups';

/** A group about to open: what the first event routed to a policy says. */
export interface NewGroup {
  subject: { kind: AlertGroupSubject; id: number; name: string };
  service: string | null;
  title: string;
  policyId: string;
  ruleId: string;
  openingType: string;
  openingData: Record<string, unknown>;
}

/** A NOTIFY payload is at most 8,000 bytes. */
const NOTIFY_BYTES = 7_900;

export interface ResponseTimeRow {
  service: string | null;
  groups: string;
  acknowledged: string;
  resolved: string;
  mtta: number | null;
  mttr: number | null;
}

const entityOf = (manager: EntityManager, row: Record<string, unknown>) =>
  manager.getRepository(AlertGroupEntity).create({
    id: row.id as number,
    subjectKind: row.subject_kind as AlertGroupSubject,
    subjectId: row.subject_id as number,
    subjectName: row.subject_name as string,
    service: row.service as string | null,
    title: row.title as string,
    state: row.state as AlertGroupEntity['state'],
    escalationPolicyId: row.escalation_policy_id as string | null,
    ruleId: row.rule_id as string | null,
    openingType: row.opening_type as string,
    openingData: row.opening_data as Record<string, unknown>,
    nextStep: row.next_step as number,
    nextStepAt: row.next_step_at as Date | null,
    eventCount: row.event_count as number,
    causedCount: row.caused_count as number,
    openedAt: row.opened_at as Date,
    acknowledgedAt: row.acknowledged_at as Date | null,
    acknowledgedBy: row.acknowledged_by as string | null,
    resolvedAt: row.resolved_at as Date | null,
    resolvedBy: row.resolved_by as string | null,
    silencedUntil: row.silenced_until as Date | null,
  });

/**
 * The alert groups' SQL that TypeORM cannot say well: opening a group once per subject whatever replica tries
 * (the partial unique index), finding a parent's open group through the dependencies, claiming due escalation steps
 * with SKIP LOCKED, the response times, and a live message sent when the transaction commits.
 */
@Injectable()
export class AlertGroupsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Opens the subject's group, or answers the open one (locked) when another event opened it first. */
  async openOrFind(manager: EntityManager, group: NewGroup): Promise<{ group: AlertGroupEntity; opened: boolean }> {
    const inserted: Record<string, unknown>[] = await manager.query(
      `INSERT INTO alert_groups (subject_kind, subject_id, subject_name, service, title, state, escalation_policy_id, rule_id,
         opening_type, opening_data, next_step, next_step_at)
       VALUES ($1, $2, $3, $4, $5, 'firing', $6, $7, $8, $9::jsonb, 0, now())
       ON CONFLICT (subject_kind, subject_id) WHERE state <> 'resolved' DO NOTHING
       RETURNING *`,
      [
        group.subject.kind,
        group.subject.id,
        group.subject.name,
        group.service,
        group.title,
        group.policyId,
        group.ruleId,
        group.openingType,
        JSON.stringify(group.openingData),
      ],
    );
    if (inserted[0]) return { group: entityOf(manager, inserted[0]), opened: true };
    const open = await this.openGroupOf(manager, group.subject.kind, group.subject.id);
    return { group: open!, opened: false };
  }

  /** The subject's open group, locked for this transaction. */
  async openGroupOf(manager: EntityManager, kind: string, id: number): Promise<AlertGroupEntity | null> {
    const rows: Record<string, unknown>[] = await manager.query(
      `SELECT * FROM alert_groups WHERE subject_kind = $1 AND subject_id = $2 AND state <> 'resolved' FOR UPDATE`,
      [kind, id],
    );
    return rows[0] ? entityOf(manager, rows[0]) : null;
  }

  /**
   * The oldest open group of something a breaker depends on (a domain, another breaker, any breaker of a service),
   * locked: the breaker's events join it as caused by it rather than paging again.
   */
  async parentGroupOf(manager: EntityManager, breakerId: number): Promise<AlertGroupEntity | null> {
    const rows: Record<string, unknown>[] = await manager.query(
      `SELECT g.* FROM breaker_dependencies d
       JOIN alert_groups g ON g.state <> 'resolved' AND (
         (d.parent_kind = 'domain' AND g.subject_kind = 'domain' AND g.subject_id = d.parent_key::int)
         OR (d.parent_kind = 'breaker' AND g.subject_kind = 'breaker' AND g.subject_id = d.parent_key::int)
         OR (d.parent_kind = 'service' AND g.subject_kind = 'breaker' AND lower(g.service) = d.parent_key AND g.subject_id <> d.breaker_id))
       WHERE d.breaker_id = $1
       ORDER BY g.opened_at, g.id LIMIT 1
       FOR UPDATE OF g`,
      [breakerId],
    );
    return rows[0] ? entityOf(manager, rows[0]) : null;
  }

  /** Up to `limit` groups whose next step (or the end of their silence) is due, locked; other replicas skip them. */
  async claimDue(manager: EntityManager, limit: number): Promise<AlertGroupEntity[]> {
    const rows: Record<string, unknown>[] = await manager.query(
      `SELECT * FROM alert_groups
       WHERE next_step_at <= now() AND state IN ('firing', 'silenced')
       ORDER BY next_step_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
    return rows.map((row) => entityOf(manager, row));
  }

  /** When the next step of any group is due, for a replica to sleep until then. */
  async nextDue(): Promise<Date | null> {
    const [row]: { at: Date | null }[] = await this.dataSource.query(
      `SELECT min(next_step_at) AS at FROM alert_groups WHERE next_step_at IS NOT NULL AND state IN ('firing', 'silenced')`,
    );
    return row?.at ?? null;
  }

  /** Tells every replica's /ws viewers when the transaction commits (PostgreSQL holds a NOTIFY until then). */
  async announce(manager: EntityManager, group: AlertGroupEntity): Promise<void> {
    await this.announceAll(manager, [group]);
  }

  /** Many groups' escalation fields written in one statement (an escalation turn's). */
  async saveEscalations(manager: EntityManager, groups: readonly AlertGroupEntity[]): Promise<void> {
    if (groups.length === 0) return;
    await manager.query(
      `UPDATE alert_groups g
       SET state = v.state, next_step = v.next_step, next_step_at = v.next_step_at, silenced_until = v.silenced_until
       FROM jsonb_to_recordset($1::jsonb) AS v(id integer, state text, next_step integer, next_step_at timestamptz, silenced_until timestamptz)
       WHERE g.id = v.id`,
      [
        JSON.stringify(
          groups.map((group) => ({
            id: group.id,
            state: group.state,
            next_step: group.nextStep,
            next_step_at: group.nextStepAt,
            silenced_until: group.silencedUntil,
          })),
        ),
      ],
    );
  }

  /** Tells every replica's /ws viewers of many groups at commit, as few NOTIFYs as the payload limit allows. */
  async announceAll(manager: EntityManager, groups: readonly AlertGroupEntity[]): Promise<void> {
    let batch: string[] = [];
    let bytes = 2;
    const send = async () => {
      if (batch.length) await manager.query(`SELECT pg_notify('cbh_events', $1)`, [`[${batch.join(',')}]`]);
      batch = [];
      bytes = 2;
    };
    for (const group of groups) {
      const message: ServerMessage = {
        type: 'alertGroupChanged',
        data: { id: group.id, subjectKind: group.subjectKind, state: group.state },
      };
      const envelope = JSON.stringify({ origin: 'database', message });
      if (bytes + envelope.length + 1 > NOTIFY_BYTES) await send();
      batch.push(envelope);
      bytes += envelope.length + 1;
    }
    await send();
  }

  async responseTimes(days: number, withDomains: boolean): Promise<ResponseTimeRow[]> {
    return this.dataSource.query(
      `SELECT service, count(*) AS groups, count(acknowledged_at) AS acknowledged, count(resolved_at) AS resolved,
              avg(extract(epoch FROM acknowledged_at - opened_at))::float8 AS mtta,
              avg(extract(epoch FROM resolved_at - opened_at))::float8 AS mttr
       FROM alert_groups
       WHERE opened_at > now() - make_interval(days => $1) AND ($2 OR NOT ${DOMAIN_GROUP_SQL('alert_groups')})
       GROUP BY service ORDER BY service NULLS FIRST LIMIT 500`,
      [days, withDomains],
    );
  }
}
