import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PeriodicWork } from '../common/periodic-work';
import type { Repeating } from '../common/repeating';
import { ClusterLeasesRepository } from './cluster-leases.repository';
import { InstanceRegistry } from './instance-registry.service';

/**
 * The roles one replica holds for the whole cluster:
 * - `status.components`: judges the status pages' components and writes their changes, once for the cluster (api/src/status).
 * - `fleet.figures`: reads the agents' and scraped breakers' instance rows and merges their figures for the cluster,
 *   writing them to fleet_figures for the other replicas (api/src/breakers/fleet); /metrics writes the series of the
 *   agents' breakers (each service instance's) on this replica only, so that Prometheus, scraping every replica,
 *   counts each instance's breaker once.
 * - `slos.counts`: counts each SLO's good and all events per minute and judges its burn-rate alerts (api/src/slos).
 */
export const CLUSTER_ROLES = ['fleet.figures', 'status.components', 'slos.counts'] as const;
export type ClusterRole = (typeof CLUSTER_ROLES)[number];

/** A holder renews its roles this often… */
const RENEW_MS = 2000;
/** …for this long: a replica that dies leaves its roles to another within LEASE_MS + RENEW_MS. */
const LEASE_MS = 10_000;
/**
 * A holder stops counting on a role this long before its lease lapses by the database's clock, measured from when it
 * sent the claim: a replica cut off from the database lets go before another may take over.
 */
const MARGIN_MS = 1500;

/**
 * Claims each role in cluster_leases every RENEW_MS: the holder renews it, the others take it once it has lapsed
 * (its holder died or lost the database) or was given up (its holder shut down in order). A replica holds a role from
 * a claim that won until LEASE_MS - MARGIN_MS after it was sent, unless a later claim renews it.
 */
@Injectable()
export class ClusterLeases implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ClusterLeases.name);
  private readonly heldUntil = new Map<ClusterRole, number>();
  private claiming?: Repeating;

  constructor(
    private readonly work: PeriodicWork,
    private readonly repository: ClusterLeasesRepository,
    private readonly instance: InstanceRegistry,
  ) {}

  async onApplicationBootstrap() {
    // claimAll() logs its own failures (a held role not renewed)
    this.claiming = this.work.every(RENEW_MS, () => this.claimAll());
    await this.claiming.run();
  }

  async onApplicationShutdown() {
    // a claim in flight could renew what is about to be given up
    await this.claiming?.stop();
    const held = [...this.heldUntil.keys()].filter((role) => this.holds(role));
    this.heldUntil.clear();
    await Promise.all(held.map((role) => this.repository.release(role, this.instance.id).catch(() => undefined)));
  }

  /** Whether this replica holds the role now. */
  holds(role: ClusterRole, now = Date.now()): boolean {
    return now < (this.heldUntil.get(role) ?? 0);
  }

  /** Takes or renews every role it can, in one statement. */
  private async claimAll(): Promise<void> {
    const sentAt = Date.now();
    const won = await this.repository.claim(CLUSTER_ROLES, this.instance.id, LEASE_MS / 1000).catch((error: Error) => {
      const held = CLUSTER_ROLES.filter((role) => this.holds(role));
      if (held.length > 0) this.logger.warn(`${held.join(', ')} not renewed: ${error.message}`);
      return null;
    });
    // a failed claim leaves a held role to lapse on time; a lost one is gone at once
    if (won === null) return;
    for (const role of CLUSTER_ROLES) {
      if (won.has(role)) this.heldUntil.set(role, sentAt + LEASE_MS - MARGIN_MS);
      else this.heldUntil.delete(role);
    }
  }
}
