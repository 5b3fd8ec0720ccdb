import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { BreakerStateName } from '@cbh/contracts';

/** The dashboard's counts, all taken at the same moment of the database clock. */
export interface DashboardCounts {
  /** Circuit breaker configurations now. */
  breakers: number;
  /** Domains monitored now, added in the last 24 hours, and deleted in them. */
  domains: number;
  domainsAdded: number;
  domainsDeleted: number;
  /** Breakers created and deleted over the last 24 hours, from the audit trail. */
  created: number;
  deleted: number;
  /** Calls through every breaker on every replica over the last 24 hours, and over the 24 hours before. */
  requests: number;
  previousRequests: number;
}

/** Over the last 30 days (or since the API first started, if less): how long that is, and how much of it some replica was up. */
export interface UptimeSeconds {
  upSeconds: number;
  spanSeconds: number;
}

/** One entry of the activity list: what was done, when, and the actor's name and role (null once the account is gone). */
export interface ActivityRow {
  action: string;
  createdAt: Date;
  firstName: string | null;
  lastName: string | null;
  role: string | null;
}

/** A breaker's name, and its service when it runs in one. */
export interface BreakerName {
  id: number;
  name: string;
  service: string | null;
}

/** A row of the transition journal with its breaker's name. */
export interface JournalRow extends Omit<BreakerName, 'id'> {
  configId: number;
  from: BreakerStateName;
  to: BreakerStateName;
  reason: string;
  at: Date;
}

/** One hour's openings: the hour's start, and how many. */
export interface HourCount {
  hour: Date;
  count: number;
}

/** counts() as PostgreSQL returns it: the bigint sums come as strings. */
interface CountsRow {
  breakers: number;
  domains: number;
  domains_added: number;
  domains_deleted: number;
  created: number;
  deleted: number;
  requests: string;
  previous_requests: string;
}

/** uptimeSeconds() as PostgreSQL returns it: the numeric seconds come as strings. */
interface UptimeRow {
  up_seconds: string;
  span_seconds: string;
}

/** The dashboard's aggregates over breakers, the audit trail, the metric buckets and the availability record. */
@Injectable()
export class DashboardRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** One statement, so that the figures describe one snapshot and one "now". */
  async counts(): Promise<DashboardCounts> {
    const [row]: CountsRow[] = await this.dataSource.query(`
      SELECT
        (SELECT count(*)::int FROM circuit_breaker_configs) AS breakers,
        (SELECT count(*)::int FROM domains) AS domains,
        (SELECT count(*)::int FROM domains WHERE created_at > now() - interval '24 hours') AS domains_added,
        (SELECT count(*)::int FROM audit_entries WHERE action = 'domain.delete' AND created_at > now() - interval '24 hours') AS domains_deleted,
        (SELECT count(*)::int FROM audit_entries WHERE action = 'breaker.create' AND created_at > now() - interval '24 hours') AS created,
        (SELECT count(*)::int FROM audit_entries WHERE action = 'breaker.delete' AND created_at > now() - interval '24 hours') AS deleted,
        (SELECT coalesce(sum(success + failure + timeout + short_circuited + bulkhead_rejected), 0)::bigint FROM metric_buckets WHERE second > now() - interval '24 hours') AS requests,
        (SELECT coalesce(sum(success + failure + timeout + short_circuited + bulkhead_rejected), 0)::bigint FROM metric_buckets
           WHERE second > now() - interval '48 hours' AND second <= now() - interval '24 hours') AS previous_requests`);
    return {
      breakers: row!.breakers,
      domains: row!.domains,
      domainsAdded: row!.domains_added,
      domainsDeleted: row!.domains_deleted,
      created: row!.created,
      deleted: row!.deleted,
      requests: Number(row!.requests),
      previousRequests: Number(row!.previous_requests),
    };
  }

  /**
   * The newest audit entries of the given actions, with their actors' names and roles: the activity list names
   * people that way, since its readers may not see the audit trail's e-mail addresses.
   */
  async recentActivity(actions: string[], limit: number): Promise<ActivityRow[]> {
    return this.dataSource.query(
      `SELECT a.action, a.created_at AS "createdAt", u.first_name AS "firstName", u.last_name AS "lastName", u.role
       FROM audit_entries a LEFT JOIN users u ON u.id = a.actor_id
       WHERE a.action = ANY($1) ORDER BY a.created_at DESC, a.id DESC LIMIT $2`,
      [actions, limit],
    );
  }

  /**
   * Each replica counts as up from its start to its last heartbeat (plus the few seconds a heartbeat may be
   * late); overlapping periods of several replicas are merged before they are added up.
   */
  async uptimeSeconds(): Promise<UptimeSeconds> {
    const [row]: UptimeRow[] = await this.dataSource.query(`
      WITH periods AS (
        SELECT tstzrange(greatest(started_at, now() - interval '30 days'), last_seen_at + interval '5 seconds') AS up
        FROM api_instances WHERE last_seen_at > now() - interval '30 days'
      ), merged AS (SELECT range_agg(up) AS up FROM periods)
      SELECT
        coalesce((SELECT sum(extract(epoch FROM least(upper(r), now()) - lower(r))) FROM merged, unnest(merged.up) AS r), 0) AS up_seconds,
        extract(epoch FROM now() - greatest((SELECT min(started_at) FROM api_instances), now() - interval '30 days')) AS span_seconds`);
    return { upSeconds: Number(row!.up_seconds), spanSeconds: Number(row!.span_seconds) };
  }

  /** The names of those of the given breakers that still exist. */
  breakerNames(ids: number[]): Promise<BreakerName[]> {
    return this.dataSource.query('SELECT id, name, service FROM circuit_breaker_configs WHERE id = ANY($1::int[])', [ids]);
  }

  /**
   * The newest `limit` journal rows of every breaker together: each breaker's newest through its (config_id, at)
   * index, so the journal is never read whole.
   */
  latestTransitions(limit: number): Promise<JournalRow[]> {
    return this.dataSource.query(
      `SELECT t.config_id AS "configId", c.name, c.service, t.from_state AS "from", t.to_state AS "to", t.reason, t.at
       FROM circuit_breaker_configs c
       CROSS JOIN LATERAL (
         SELECT * FROM breaker_transitions t WHERE t.config_id = c.id ORDER BY t.at DESC LIMIT $1
       ) t
       ORDER BY t.at DESC, t.id DESC LIMIT $1`,
      [limit],
    );
  }

  /**
   * CLOSED → OPEN moves per hour over the last `hours` hours (the current one last, every hour present): a breaker
   * opening on several replicas or instances in the same minute counts once.
   */
  openingsPerHour(hours: number): Promise<HourCount[]> {
    return this.dataSource.query(
      `WITH hours AS (
         SELECT generate_series(date_trunc('hour', now()) - make_interval(hours => $1 - 1), date_trunc('hour', now()), interval '1 hour') AS hour
       ), opened AS (
         SELECT DISTINCT t.config_id, date_trunc('minute', t.at) AS minute
         FROM circuit_breaker_configs c
         JOIN LATERAL (
           SELECT t.config_id, t.at FROM breaker_transitions t
           WHERE t.config_id = c.id AND t.at >= date_trunc('hour', now()) - make_interval(hours => $1 - 1)
             AND t.from_state = 'CLOSED' AND t.to_state = 'OPEN'
         ) t ON true
       )
       SELECT h.hour, count(o.minute)::int AS count
       FROM hours h LEFT JOIN opened o ON date_trunc('hour', o.minute) = h.hour
       GROUP BY h.hour ORDER BY h.hour`,
      [hours],
    );
  }
}
