import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { DomainStatus } from '@cbh/contracts';
import {
  APP_CONFIG,
  type AppConfig,
  HubMetrics,
  InstanceRegistry,
  PeriodicWork,
  RealtimeBus,
  type Repeating,
  waitAtMost,
} from '../../platform';
import { DnsResolver } from '../checks/dns-resolver';
import { checkHttp } from '../checks/http.check';
import { lookupRegistration } from '../checks/rdap';
import { subdomainsSeen } from '../checks/subdomains';
import { checkTls, type TlsCheckResult } from '../checks/tls.check';
import { checkVerification } from '../checks/verification.check';
import { DomainsRepository, type CertificateFindings } from '../domains.repository';
import { DomainAlertsRepository } from '../domain-alerts.repository';
import { DomainChecksRepository } from '../domain-checks.repository';
import { DomainFindingsRepository } from '../domain-findings.repository';
import type { DomainEntity } from '../entities/domain.entity';
import { toAlertView, type DomainAlertEntity } from '../entities/domain-alert.entity';
import { decideAlerts, type AlertDecisions } from './alert-rules';

/**
 * How often this replica looks for due domains while rounds run or are due; one that knows of none sleeps until a
 * domain added or checked now wakes it (the bus), or IDLE_LOOK_MS.
 */
const TICK_MS = 1000;
/** Rounds in flight at once on one replica: a slow or failing target holds one slot, never the others. */
export const ROUND_CONCURRENCY = 64;
/** A round that has not finished by then is abandoned; every check inside has its own, shorter timeout. */
const ROUND_TIMEOUT_MS = 30_000;
/** A claimed domain stays this replica's this long; a replica that dies mid-round lets it go when it lapses. */
const LEASE_SECONDS = 45;
const CHECK_TIMEOUT_MS = 5000;
const HTTP_TIMEOUT_MS = 10_000;
const DAY_MS = 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;
/** Finished rounds are announced together once a second, in messages of at most this many ids (NOTIFY takes < 8 KB). */
const ANNOUNCE_EVERY_MS = 1000;
const IDS_PER_MESSAGE = 500;

/**
 * Runs every domain's round of checks once per DOMAIN_CHECK_INTERVAL across all replicas. Rounds are claimed
 * through the database (a lease on the domain row, taken by one atomic UPDATE … FOR UPDATE SKIP LOCKED), the
 * same lease scheme the load tests use to hand a session to exactly one replica: what must happen once is
 * claimed where every replica sees it, and a replica that dies only delays its domains until their lease lapses.
 */
@Injectable()
export class DomainCheckRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DomainCheckRunner.name);
  private readonly resolver: DnsResolver;
  private claiming?: Repeating;
  private pruning?: Repeating;
  private announcing?: Repeating;
  /** Domains whose rounds finished here since the last announcement. */
  private readonly checked = new Set<number>();
  private inFlight = 0;
  /** Set at shutdown: domains a claim took meanwhile are left to their lease, not started. */
  private stopping = false;

  constructor(
    private readonly work: PeriodicWork,
    private readonly domains: DomainsRepository,
    private readonly alerts: DomainAlertsRepository,
    private readonly checks: DomainChecksRepository,
    private readonly findings: DomainFindingsRepository,
    private readonly bus: RealtimeBus,
    private readonly instance: InstanceRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly hubMetrics: HubMetrics,
  ) {
    // DNS_SERVERS arrives parsed and checked from the configuration
    this.resolver = new DnsResolver({ servers: config.DNS_SERVERS ?? undefined, timeoutMs: CHECK_TIMEOUT_MS / 2 });
  }

  onApplicationBootstrap() {
    this.claiming = this.work.whenDue(
      { soonestMs: TICK_MS },
      () => this.claimDue(),
      (error) => this.logger.warn(`could not claim due domains: ${error.message}`),
    );
    this.bus.whenTold(['domains-due'], () => this.claiming?.runAgain());
    this.pruning = this.work.every(
      PRUNE_EVERY_MS,
      () => this.checks.pruneOld(),
      (error) => this.logger.warn(`old checks not pruned: ${error.message}`),
    );
    // announceChecked() keeps what it could not send for the next turn, and says so
    this.announcing = this.work.every(ANNOUNCE_EVERY_MS, () => this.announceChecked());
  }

  async onApplicationShutdown() {
    // a claim that returns after this starts no round (see claimDue)
    this.stopping = true;
    void this.claiming?.stop();
    void this.pruning?.stop();
    await this.announcing?.stop();
    // the last second's rounds too, while the bus still runs (it closes in its own shutdown hook)
    await this.announceChecked();
  }

  /**
   * Every finished round changed what the screens show (at least the last check), but one message a round would
   * be a hundred NOTIFYs a second with many domains: the rounds of the last second go out together, and the
   * screens reread only the checks. Ids whose message could not be sent wait for the next second.
   */
  async announceChecked(): Promise<void> {
    if (this.checked.size === 0) return;
    const ids = [...this.checked];
    this.checked.clear();
    for (let i = 0; i < ids.length; i += IDS_PER_MESSAGE) {
      const domainIds = ids.slice(i, i + IDS_PER_MESSAGE);
      await this.bus.publish({ type: 'domainsChecked', data: { domainIds } }).catch((error: Error) => {
        this.logger.warn(`finished rounds not announced yet: ${error.message}`);
        for (const id of domainIds) this.checked.add(id);
      });
    }
  }

  /**
   * Claims as many due domains as there are free slots and starts their rounds without waiting for them. Returns when
   * to look again: in a tick while rounds run, else when the next round falls due (null: no domains).
   */
  private async claimDue(): Promise<number | null> {
    const free = ROUND_CONCURRENCY - this.inFlight;
    if (free <= 0) return Date.now() + TICK_MS;
    const due = await this.domains.claimDue(this.instance.id, free, LEASE_SECONDS);
    if (this.stopping) return null;
    for (const { domain, verified } of due) {
      this.inFlight++;
      // tracked: shutdown waits for a round going on (a bounded while) before the database closes
      void this.work
        .track(this.withTimeout(this.round(domain, verified), domain))
        .catch((error: Error) => this.logger.warn(`round of ${domain.domain} failed: ${error.message}`))
        .finally(() => {
          this.inFlight--;
          // a freed slot takes the next due domain now, not at the next tick (after a claim going on, which
          // counted this slot as taken): the tick only bounds the wait of a replica with nothing in flight
          void this.claiming?.runAgain();
        });
    }
    if (this.inFlight > 0) return Date.now() + TICK_MS;
    return this.domains.nextDue();
  }

  private async withTimeout(round: Promise<void>, domain: DomainEntity): Promise<void> {
    if ((await waitAtMost(round, ROUND_TIMEOUT_MS)) === 'late')
      this.logger.warn(`round of ${domain.domain} timed out after ${ROUND_TIMEOUT_MS} ms; its lease will lapse`);
  }

  /**
   * One round: ownership first; only a verified domain is then looked at further (DNS, certificate, uptime,
   * registration) — otherwise anyone allowed to add domains could point this server at hosts nobody asked to be
   * checked, or read names of this network through the stored records. Then the alerts, and the status with the
   * round's end. verified: the claim's reading of the domain's ownership.
   */
  private async round(domain: DomainEntity, verified: boolean): Promise<void> {
    const now = new Date();
    const policy = this.config.ALLOW_PRIVATE_TARGETS;
    const verification = verified ? { status: 'verified' as const, reason: null } : await this.checkOwnership(domain);
    if (verification?.status !== 'verified') {
      const decisions = decideAlerts({
        domain: domain.domain,
        now,
        failures: { count: 0, since: null },
        slow: { count: 0, since: null, lastMs: null },
        // the alert says why, as the verification record does
        verification: verification ?? undefined,
      });
      await this.finish(domain, decisions, 'pending');
      return;
    }

    const [dns, tls, http] = await Promise.all([
      this.resolver.lookupAll(domain.domain),
      checkTls(domain.domain, { resolver: this.resolver, policy, port: this.config.DOMAIN_HTTPS_PORT, timeoutMs: CHECK_TIMEOUT_MS }),
      checkHttp(domain.domain, {
        resolver: this.resolver,
        policy,
        httpsPort: this.config.DOMAIN_HTTPS_PORT,
        httpPort: this.config.DOMAIN_HTTP_PORT,
        timeoutMs: HTTP_TIMEOUT_MS,
      }),
    ]);
    const checks = this.hubMetrics.domainChecks;
    checks.inc({ kind: 'dns', outcome: dns.outcome });
    checks.inc({ kind: 'tls', outcome: tls.status });
    checks.inc({ kind: 'http', outcome: http.status });
    // a look-up that got no answer says nothing about which records are gone
    if (dns.outcome === 'answered') await this.findings.replaceDnsRecords(domain.id, dns.records);
    await this.findings.saveCertificate(domain.id, certificateFindings(tls));
    await this.findings.addSubdomains(domain.id, subdomainsSeen(domain.domain, tls, dns.outcome === 'answered' ? dns.records : []));
    const monitoring = await this.checks.recordCheck(domain.id, {
      status: http.status,
      responseTimeMs: http.status === 'up' ? http.responseTimeMs : null,
      error: http.reason ?? null,
    });
    const registration = await this.registration(domain, now);

    const status: DomainStatus = http.status === 'up' ? 'active' : 'down';
    const decisions = decideAlerts({
      domain: domain.domain,
      now,
      certificate: {
        status: tls.status,
        expiresAt: 'certificate' in tls && tls.certificate ? tls.certificate.expiresAt : null,
        reason: 'reason' in tls ? tls.reason : null,
      },
      failures: { count: monitoring?.consecutiveFailures ?? 0, since: monitoring?.failingSince ?? null },
      slow: { count: monitoring?.consecutiveSlow ?? 0, since: monitoring?.slowSince ?? null, lastMs: monitoring?.responseTimeMs ?? null },
      verification,
      registrationExpiresAt: registration,
    });
    await this.finish(domain, decisions, status);
  }

  /**
   * Opens and resolves the round's alerts, records the status with the round's end (which hands the domain back to
   * the schedule), then announces what changed: the screens reread when an alert arrives, so the status they read
   * then must already be this round's.
   */
  private async finish(domain: DomainEntity, decisions: AlertDecisions, status: DomainStatus): Promise<void> {
    const changed: DomainAlertEntity[] = [];
    for (const alert of decisions.open) {
      const opened = await this.alerts.openAlert(domain.id, alert);
      if (opened) changed.push(opened);
    }
    const types = new Set([...decisions.resolve, ...decisions.open.map((alert) => alert.alertType)]);
    changed.push(
      ...(await this.alerts.resolveAlertsExcept(
        domain.id,
        [...types],
        decisions.open.map((alert) => alert.dedupeKey),
      )),
    );
    const ended = await this.domains.endRound(domain.id, {
      owner: this.instance.id,
      intervalSeconds: this.config.DOMAIN_CHECK_INTERVAL,
      status,
    });

    for (const alert of changed)
      await this.bus.publish({ type: 'domainAlert', data: { alert: toAlertView(alert), domain: domain.domain } });
    // alerts travel on their own (and make the screens reread everything); a change of what the lists show
    // beyond the check is told at once; a round that only added a check goes out with the others of its second
    if (ended?.shownChanged && changed.length === 0) await this.bus.publish({ type: 'domainUpdated', data: { domainId: domain.id } });
    else this.checked.add(domain.id);
  }

  /** Checks the ownership of a domain not verified yet; the status it has now, with why it failed (null: the domain is gone). */
  private async checkOwnership(domain: DomainEntity): Promise<{ status: 'verified' | 'failed'; reason: string | null } | null> {
    const result = await checkVerification(this.resolver, domain.domain, domain.verificationToken);
    this.hubMetrics.domainChecks.inc({ kind: 'verification', outcome: result.status });
    const reason = result.status === 'failed' ? result.reason : null;
    const saved = await this.findings.saveVerification(domain.id, { status: result.status, reason });
    return saved ? { status: result.status, reason } : null;
  }

  /**
   * Registration data changes rarely and RDAP servers limit their callers: read it on a domain's first round
   * and then about once a day (the round whose time of day matches the domain's creation), on whichever
   * replica runs that round. Unknown stays unknown; nothing fails.
   */
  private async registration(domain: DomainEntity, now: Date): Promise<Date | null> {
    const sinceCreated = now.getTime() - domain.createdAt.getTime();
    const firstRound =
      domain.registrar === null && domain.expiresAt === null && sinceCreated < 2 * this.config.DOMAIN_CHECK_INTERVAL * 1000;
    const daily = sinceCreated % DAY_MS < this.config.DOMAIN_CHECK_INTERVAL * 1000;
    if (!firstRound && !daily) return domain.expiresAt;
    const found = await lookupRegistration(domain.domain, {
      baseUrl: this.config.RDAP_BASE_URL,
      timeoutMs: CHECK_TIMEOUT_MS,
      resolver: this.resolver,
      policy: this.config.ALLOW_PRIVATE_TARGETS,
    });
    this.hubMetrics.domainChecks.inc({
      kind: 'registration',
      outcome: found.expiresAt === null && found.registrar === null ? 'unknown' : 'found',
    });
    await this.domains.saveRegistration(domain.id, found);
    return found.expiresAt;
  }
}

function certificateFindings(tls: TlsCheckResult): CertificateFindings {
  const certificate = 'certificate' in tls ? tls.certificate : null;
  return {
    certificateType: certificate?.certificateType ?? null,
    status: tls.status,
    reason: 'reason' in tls ? tls.reason : null,
    fingerprint: certificate?.fingerprint256 ?? null,
    issuedAt: certificate?.issuedAt ?? null,
    expiresAt: certificate?.expiresAt ?? null,
    autoRenew: certificate?.autoRenew ?? false,
  };
}
