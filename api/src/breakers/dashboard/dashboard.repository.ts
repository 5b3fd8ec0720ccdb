import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

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
}
