import { Injectable } from '@nestjs/common';
import { isRole, ROLE_LABELS, type ActivityEntry, type DashboardStats } from '@cbh/contracts';
import { DashboardRepository, type ActivityRow } from './dashboard.repository';

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

/** How many entries the activity list shows. */
const ACTIVITY_ENTRIES = 10;

/**
 * Who did it, as the activity list says it: the actor's name, else their role ('An operator'); 'Someone' once the
 * account is gone. Never the e-mail address: every dashboard_view holder reads this list, and only audit_access
 * holders may see who is behind an address (GET /api/audit).
 */
function actorName(row: Pick<ActivityRow, 'firstName' | 'lastName' | 'role'>): string {
  const name = [row.firstName, row.lastName].filter(Boolean).join(' ');
  if (name) return name;
  if (!isRole(row.role)) return 'Someone';
  const role = ROLE_LABELS[row.role].toLowerCase();
  return `${/^[aeiou]/.test(role) ? 'An' : 'A'} ${role}`;
}

@Injectable()
export class DashboardService {
  constructor(private readonly aggregates: DashboardRepository) {}

  async stats(): Promise<DashboardStats> {
    const counts = await this.aggregates.counts();
    return {
      activeCircuitBreakers: counts.breakers,
      circuitBreakerChange: counts.created - counts.deleted,
      totalRequests: counts.requests,
      requestsChange:
        counts.previousRequests > 0 ? Math.round((1000 * (counts.requests - counts.previousRequests)) / counts.previousRequests) / 10 : 0,
      managedDomains: counts.domains,
      domainsChange: counts.domainsAdded - counts.domainsDeleted,
      systemUptime: `${(await this.uptimePercent()).toFixed(1)}%`,
    };
  }

  /**
   * The share of the last 30 days (or of the time since the API first started, if less) during which at least
   * one replica was up, from the api_instances record: each replica is up from its start to its last heartbeat.
   */
  async uptimePercent(): Promise<number> {
    const { upSeconds, spanSeconds } = await this.aggregates.uptimeSeconds();
    return spanSeconds > 0 ? Math.min(100, (100 * upSeconds) / spanSeconds) : 100;
  }

  async activity(): Promise<ActivityEntry[]> {
    const entries = await this.aggregates.recentActivity(Object.keys(DESCRIPTIONS), ACTIVITY_ENTRIES);
    return entries.map((entry) => ({
      action: `${actorName(entry)} ${DESCRIPTIONS[entry.action]}`,
      timestamp: entry.createdAt.toISOString(),
    }));
  }
}
