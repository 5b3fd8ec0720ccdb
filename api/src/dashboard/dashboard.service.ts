import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ActivityEntry, DashboardStats } from '@cbh/contracts';

/** The audit actions the activity list shows (sign-ins are left out), and how it words them. */
const DESCRIPTIONS: Record<string, string> = {
  'auth.elevate': 'became super admin',
  'user.invite': 'invited a user',
  'user.role.update': 'changed a user’s role',
  'user.permissions.update': 'changed a user’s permissions',
  'user.activate': 'activated a user',
  'user.deactivate': 'deactivated a user',
  'user.delete': 'removed a user',
  'breaker.create': 'created a circuit breaker',
  'breaker.update': 'updated circuit breaker settings',
  'breaker.delete': 'deleted a circuit breaker',
  'breaker.force-open': 'forced a circuit breaker open',
  'breaker.force-closed': 'forced a circuit breaker closed',
  'breaker.reset': 'reset a circuit breaker',
  'service.create': 'added a service',
  'service.update': 'updated a service',
  'service.delete': 'removed a service',
  'load-test.start': 'started a load test',
  'load-test.stop': 'stopped a load test',
};

@Injectable()
export class DashboardService {
  constructor(private readonly dataSource: DataSource) {}

  async stats(): Promise<DashboardStats> {
    const [row] = await this.dataSource.query(`
      SELECT
        (SELECT count(*)::int FROM circuit_breaker_configs) AS breakers,
        (SELECT count(*)::int FROM audit_entries WHERE action = 'breaker.create' AND created_at > now() - interval '24 hours') AS created,
        (SELECT count(*)::int FROM audit_entries WHERE action = 'breaker.delete' AND created_at > now() - interval '24 hours') AS deleted,
        (SELECT coalesce(sum(success + failure + timeout + short_circuited + bulkhead_rejected), 0)::bigint FROM metric_buckets WHERE second > now() - interval '24 hours') AS requests,
        (SELECT coalesce(sum(success + failure + timeout + short_circuited + bulkhead_rejected), 0)::bigint FROM metric_buckets
           WHERE second > now() - interval '48 hours' AND second <= now() - interval '24 hours') AS previous_requests`);
    const requests = Number(row.requests);
    const previous = Number(row.previous_requests);
    return {
      activeCircuitBreakers: row.breakers,
      circuitBreakerChange: row.created - row.deleted,
      totalRequests: requests,
      requestsChange: previous > 0 ? Math.round((1000 * (requests - previous)) / previous) / 10 : 0,
      managedDomains: 0,
      domainsChange: 0,
      systemUptime: `${(await this.uptimePercent()).toFixed(1)}%`,
    };
  }

  /**
   * The share of the last 30 days (or of the time since the API first started, if less) during which at least
   * one replica was up, from the api_instances record: each replica is up from its start to its last heartbeat.
   */
  async uptimePercent(): Promise<number> {
    const [row] = await this.dataSource.query(`
      WITH periods AS (
        SELECT tstzrange(greatest(started_at, now() - interval '30 days'), last_seen_at + interval '5 seconds') AS up
        FROM api_instances WHERE last_seen_at > now() - interval '30 days'
      ), merged AS (SELECT range_agg(up) AS up FROM periods)
      SELECT
        coalesce((SELECT sum(extract(epoch FROM least(upper(r), now()) - lower(r))) FROM merged, unnest(merged.up) AS r), 0) AS up_seconds,
        extract(epoch FROM now() - greatest((SELECT min(started_at) FROM api_instances), now() - interval '30 days')) AS span_seconds`);
    const span = Number(row.span_seconds);
    return span > 0 ? Math.min(100, (100 * Number(row.up_seconds)) / span) : 100;
  }

  async activity(): Promise<ActivityEntry[]> {
    const rows: { action: string; actor_email: string | null; created_at: Date }[] = await this.dataSource.query(
      `SELECT action, actor_email, created_at FROM audit_entries WHERE action = ANY($1) ORDER BY created_at DESC, id DESC LIMIT 10`,
      [Object.keys(DESCRIPTIONS)],
    );
    return rows.map((row) => ({ action: `${row.actor_email ?? 'Someone'} ${DESCRIPTIONS[row.action]}`, timestamp: row.created_at.toISOString() }));
  }
}
