import { Injectable } from '@nestjs/common';
import { publicName, type ActivityEntry, type DashboardStats } from '@cbh/contracts';
import { DashboardRepository } from './dashboard.repository';

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
    // every dashboard_view holder reads this list: people are named by name or role, never by e-mail
    return entries.map((entry) => ({
      action: `${publicName(entry, { startsSentence: true })} ${DESCRIPTIONS[entry.action]}`,
      timestamp: entry.createdAt.toISOString(),
    }));
  }
}
