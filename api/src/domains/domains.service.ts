import { randomBytes } from 'node:crypto';
import { ConflictException, HttpException, HttpStatus, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource, In, type EntityManager, type FindOptionsOrder, type FindOptionsWhere, type ObjectLiteral } from 'typeorm';
import type { z } from 'zod';
import {
  DOMAIN_RECENT_CHECKS,
  verificationRecordName,
  verificationRecordValue,
  type DnsRecordView,
  type DomainAlertView,
  type DomainDetailView,
  type domainRecordsQuerySchema,
  type DomainMonitoringView,
  type DomainSummaryView,
  type DomainVerificationView,
  type DomainView,
  type SslCertificateView,
  type SubdomainView,
} from '@cbh/contracts';
import { type AppRequest, AuditService } from '../identity';
import { APP_CONFIG, type AppConfig, RealtimeBus } from '../platform';
import { DomainsRepository, type DomainHealth } from './domains.repository';
import { DomainAlertsRepository } from './domain-alerts.repository';
import { DomainFindingsRepository } from './domain-findings.repository';
import { DnsRecordEntity, toDnsRecordView } from './entities/dns-record.entity';
import { DomainAlertEntity, toAlertView } from './entities/domain-alert.entity';
import { DomainCheckResultEntity, toCheckView } from './entities/domain-check-result.entity';
import { DomainMonitoringEntity, toMonitoringView } from './entities/domain-monitoring.entity';
import { DomainVerificationEntity, toVerificationView } from './entities/domain-verification.entity';
import { DomainEntity, toDomainView } from './entities/domain.entity';
import { SslCertificateEntity, toCertificateView } from './entities/ssl-certificate.entity';
import { SubdomainEntity, toSubdomainView } from './entities/subdomain.entity';

type RecordsQuery = z.infer<typeof domainRecordsQuerySchema>;

const UNIQUE_VIOLATION = '23505';
/** How many of a domain's alerts its detail view carries, newest first. */
const DETAIL_ALERTS = 100;

@Injectable()
export class DomainsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: DomainsRepository,
    private readonly alerts: DomainAlertsRepository,
    private readonly findings: DomainFindingsRepository,
    private readonly audit: AuditService,
    private readonly bus: RealtimeBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The newest domains first. */
  async list(limit: number): Promise<DomainView[]> {
    const domains = await this.dataSource.getRepository(DomainEntity).find({ order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
    return domains.map(toDomainView);
  }

  /** The figures above the tables: counts over every domain, not over a page of a list. */
  async summary(): Promise<DomainSummaryView> {
    const [totalDomains, activeDomains, activeCertificates, openAlerts, primaryDomainId] = await Promise.all([
      this.dataSource.getRepository(DomainEntity).count(),
      this.dataSource.getRepository(DomainEntity).countBy({ status: 'active' }),
      this.dataSource.getRepository(SslCertificateEntity).countBy({ status: 'active' }),
      this.dataSource.getRepository(DomainAlertEntity).countBy({ status: 'open' }),
      this.repository.primaryDomainId(),
    ]);
    return { totalDomains, activeDomains, activeCertificates, openAlerts, primaryDomainId };
  }

  /** Every domain in id order with its certificate (by domain id), read in the caller's transaction (a configuration document's). */
  async withCertificatesIn(manager: EntityManager): Promise<{ domains: DomainEntity[]; certificates: Map<number, SslCertificateEntity> }> {
    // one after the other: in a transaction they share one connection
    const domains = await manager.find(DomainEntity, { order: { id: 'ASC' } });
    const certificates = await manager.find(SslCertificateEntity);
    return { domains, certificates: new Map(certificates.map((certificate) => [certificate.domainId, certificate])) };
  }

  async find(id: number): Promise<DomainEntity> {
    const domain = await this.dataSource.getRepository(DomainEntity).findOneBy({ id });
    if (!domain) throw new NotFoundException(`No domain with id ${id}`);
    return domain;
  }

  async detail(id: number): Promise<DomainDetailView> {
    const domain = await this.find(id);
    const [verification, certificate, dnsRecords, subdomains, monitoring, alerts, latestChecks] = await Promise.all([
      this.dataSource.getRepository(DomainVerificationEntity).findOneBy({ domainId: id }),
      this.dataSource.getRepository(SslCertificateEntity).findOneBy({ domainId: id }),
      this.dataSource
        .getRepository(DnsRecordEntity)
        .find({ where: { domainId: id }, order: { recordType: 'ASC', name: 'ASC', value: 'ASC' } }),
      this.dataSource.getRepository(SubdomainEntity).find({ where: { domainId: id }, order: { name: 'ASC' } }),
      this.dataSource.getRepository(DomainMonitoringEntity).find({ where: { domainId: id }, order: { id: 'ASC' } }),
      this.dataSource
        .getRepository(DomainAlertEntity)
        .find({ where: { domainId: id }, order: { triggeredAt: 'DESC', id: 'DESC' }, take: DETAIL_ALERTS }),
      this.dataSource
        .getRepository(DomainCheckResultEntity)
        .find({ where: { domainId: id }, order: { checkedAt: 'DESC', id: 'DESC' }, take: DOMAIN_RECENT_CHECKS }),
    ]);
    return {
      ...toDomainView(domain),
      verification: verification && toVerificationView(verification),
      certificate: certificate && toCertificateView(certificate),
      dnsRecords: dnsRecords.map(toDnsRecordView),
      subdomains: subdomains.map(toSubdomainView),
      monitoring: monitoring.map(toMonitoringView),
      alerts: alerts.map(toAlertView),
      recentChecks: latestChecks.reverse().map(toCheckView),
    };
  }

  /**
   * Registers a domain (already normalised) as pending, with a fresh verification token, the TXT record that
   * proves ownership and an empty uptime entry. Its first round is due at once: next_check_at defaults to now().
   * Every domain is checked every DOMAIN_CHECK_INTERVAL, so an account and the site may add only so many.
   */
  async create(req: AppRequest, name: string): Promise<DomainView> {
    const view = await this.dataSource.transaction((manager) => this.createIn(manager, req, name));
    await this.announce(view.id);
    return view;
  }

  /** Registers and audits a domain inside the caller's transaction; announce tells the screens once it commits. */
  async createIn(manager: EntityManager, req: AppRequest, name: string): Promise<DomainView> {
    const [created] = await this.createManyIn(manager, req, [name]);
    return created!;
  }

  /** Many domains at once (an import's), each with its verification and uptime entry, each audited; the quotas count them all. */
  async createManyIn(manager: EntityManager, req: AppRequest, names: string[]): Promise<DomainView[]> {
    const added = names.map((domain) => ({ domain, verificationToken: randomBytes(24).toString('base64url') }));
    let domains: DomainEntity[] | 'per-user' | 'total';
    try {
      domains = await this.repository.insertWithinQuotas(manager, added, req.user?.id ?? null, {
        perUser: this.config.DOMAINS_PER_USER,
        total: this.config.DOMAINS_TOTAL,
      });
    } catch (error) {
      // The unique index decides, so two requests adding the same domain at once cannot both succeed.
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
        const name = names.length === 1 ? names[0] : /\)=\((.*)\) already exists/.exec((error as { detail?: string }).detail ?? '')?.[1];
        throw new ConflictException(`Domain ${name} is already registered`);
      }
      throw error;
    }
    if (domains === 'per-user') {
      throw new HttpException(
        names.length === 1
          ? `You already monitor ${this.config.DOMAINS_PER_USER} domains, the most one account may add (DOMAINS_PER_USER); delete one first`
          : `${names.length} more domains would pass ${this.config.DOMAINS_PER_USER}, the most one account may add (DOMAINS_PER_USER)`,
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    if (domains === 'total') {
      throw new HttpException(
        names.length === 1
          ? `${this.config.DOMAINS_TOTAL} domains are monitored, the most the site monitors (DOMAINS_TOTAL); delete one first`
          : `${names.length} more domains would pass ${this.config.DOMAINS_TOTAL}, the most the site monitors (DOMAINS_TOTAL)`,
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    const tokens = new Map(added.map((domain) => [domain.domain, domain.verificationToken]));
    await manager.insert(
      DomainVerificationEntity,
      domains.map((domain) => ({
        domainId: domain.id,
        recordName: verificationRecordName(domain.domain),
        recordValue: verificationRecordValue(tokens.get(domain.domain)!),
        status: 'pending' as const,
      })),
    );
    await manager.insert(
      DomainMonitoringEntity,
      domains.map((domain) => ({ domainId: domain.id, monitoringType: 'uptime' as const })),
    );
    const created = domains.map(toDomainView);
    await this.audit.recordMany(
      req,
      created.map((view) => ({ action: 'domain.create', targetType: 'domain', targetId: String(view.id), after: view })),
      manager,
    );
    return created;
  }

  /** Deletes the domain; its verification, certificate, records, results and alerts go with it. */
  async remove(req: AppRequest, id: number): Promise<void> {
    await this.dataSource.transaction((manager) => this.removeIn(manager, req, id));
    await this.announce(id);
  }

  /** Deletes and audits inside the caller's transaction; announce tells the screens once it commits. */
  async removeIn(manager: EntityManager, req: AppRequest, id: number): Promise<void> {
    const [outcome] = await this.removeEachIn(manager, req, [id]);
    if (outcome instanceof HttpException) throw outcome;
  }

  /** Deletes many domains in one transaction, each audited; an unknown id is a 404 in its place of the answer. */
  async removeMany(req: AppRequest, ids: readonly number[]): Promise<(true | HttpException)[]> {
    const outcomes = await this.dataSource.transaction((manager) => this.removeEachIn(manager, req, ids));
    await Promise.all(ids.filter((_, index) => outcomes[index] === true).map((id) => this.announce(id)));
    return outcomes;
  }

  /** Deletes and audits the domains there are, in a few statements however many; a 404 for each id of none. */
  private async removeEachIn(manager: EntityManager, req: AppRequest, ids: readonly number[]): Promise<(true | HttpException)[]> {
    const domains = await manager.find(DomainEntity, { where: { id: In(ids) }, order: { id: 'ASC' } });
    if (domains.length > 0) {
      await manager.delete(DomainEntity, { id: In(domains.map((domain) => domain.id)) });
      await this.audit.recordMany(
        req,
        domains.map((domain) => ({
          action: 'domain.delete',
          targetType: 'domain',
          targetId: String(domain.id),
          before: toDomainView(domain),
        })),
        manager,
      );
    }
    const gone = new Set(domains.map((domain) => domain.id));
    return ids.map((id) => (gone.has(id) ? true : new NotFoundException(`No domain with id ${id}`)));
  }

  /** Asks for ownership to be checked now: the verification becomes 'verifying' and the domain's round is due at once. */
  async verify(req: AppRequest, id: number): Promise<DomainVerificationView> {
    const [outcome] = await this.verifyMany(req, [id]);
    if (outcome instanceof HttpException) throw outcome;
    return outcome!;
  }

  /** Asks for many domains' ownership to be checked now, in one transaction, each audited; an unknown id is a 404. */
  async verifyMany(req: AppRequest, ids: readonly number[]): Promise<(DomainVerificationView | HttpException)[]> {
    const views = await this.dataSource.transaction(async (manager) => {
      const started = (await this.findings.startVerifications(ids, manager)).map(toVerificationView);
      await this.audit.recordMany(
        req,
        started.map((after) => ({ action: 'domain.verify', targetType: 'domain', targetId: String(after.domainId), after })),
        manager,
      );
      return new Map(started.map((view) => [view.domainId, view]));
    });
    await Promise.all([...views.keys()].map((id) => this.announce(id)));
    return ids.map((id) => views.get(id) ?? new NotFoundException(`No domain with id ${id}`));
  }

  async resolveAlert(req: AppRequest, id: number): Promise<DomainAlertView> {
    const view = await this.dataSource.transaction(async (manager) => {
      const resolved = await this.alerts.resolveAlert(id, manager);
      if (!resolved) {
        const alert = await manager.findOneBy(DomainAlertEntity, { id });
        if (!alert) throw new NotFoundException(`No domain alert with id ${id}`);
        throw new ConflictException(`Alert ${id} is already resolved`);
      }
      const after = toAlertView(resolved);
      await this.audit.record(
        req,
        { action: 'domain-alert.resolve', targetType: 'domain_alert', targetId: String(id), before: { status: 'open' }, after },
        manager,
      );
      return after;
    });
    await this.announce(view.domainId);
    return view;
  }

  /** The owner's choice of autoRenew, which later checks keep instead of inferring it from the issuer. */
  async updateCertificate(req: AppRequest, id: number, autoRenew: boolean): Promise<SslCertificateView> {
    const view = await this.dataSource.transaction((manager) => this.updateCertificateIn(manager, req, id, autoRenew));
    await this.announce(view.domainId);
    return view;
  }

  async updateCertificateIn(manager: EntityManager, req: AppRequest, id: number, autoRenew: boolean): Promise<SslCertificateView> {
    const before = await manager.findOne(SslCertificateEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
    if (!before) throw new NotFoundException(`No SSL certificate with id ${id}`);
    await manager.update(SslCertificateEntity, { id }, { autoRenew, autoRenewOverridden: true });
    const after = toCertificateView(await manager.findOneByOrFail(SslCertificateEntity, { id }));
    await this.audit.record(
      req,
      { action: 'ssl-certificate.update', targetType: 'ssl_certificate', targetId: String(id), before: toCertificateView(before), after },
      manager,
    );
    return after;
  }

  listVerifications(query: RecordsQuery): Promise<DomainVerificationView[]> {
    return this.records(DomainVerificationEntity, query, { domainId: 'DESC' }, toVerificationView);
  }

  listCertificates(query: RecordsQuery): Promise<SslCertificateView[]> {
    return this.records(SslCertificateEntity, query, { domainId: 'DESC' }, toCertificateView);
  }

  listDnsRecords(query: RecordsQuery): Promise<DnsRecordView[]> {
    return this.records(DnsRecordEntity, query, { domainId: 'DESC', recordType: 'ASC', name: 'ASC', value: 'ASC' }, toDnsRecordView);
  }

  listSubdomains(query: RecordsQuery): Promise<SubdomainView[]> {
    return this.records(SubdomainEntity, query, { domainId: 'DESC', name: 'ASC' }, toSubdomainView);
  }

  listMonitoring(query: RecordsQuery): Promise<DomainMonitoringView[]> {
    return this.records(DomainMonitoringEntity, query, { domainId: 'DESC', id: 'ASC' }, toMonitoringView);
  }

  /** The newest alerts first. */
  listAlerts(query: RecordsQuery): Promise<DomainAlertView[]> {
    return this.records(DomainAlertEntity, query, { triggeredAt: 'DESC', id: 'DESC' }, toAlertView);
  }

  /** Up to limit rows of one table, the newest domains' first unless ordered otherwise, optionally of one domain. */
  private async records<T extends ObjectLiteral & { domainId: number }, V>(
    entity: new () => T,
    query: RecordsQuery,
    order: FindOptionsOrder<T>,
    view: (row: T) => V,
  ): Promise<V[]> {
    const rows = await this.dataSource.getRepository(entity).find({
      where: query.domainId === undefined ? {} : ({ domainId: query.domainId } as FindOptionsWhere<T>),
      order,
      take: query.limit,
    });
    return rows.map(view);
  }

  /** Tells every replica's screens that the domain changed, so that they refresh it. */
  async announce(domainId: number): Promise<void> {
    await this.bus.publish({ type: 'domainUpdated', data: { domainId } });
  }

  /** Down and slow, for status pages' components (by id; unknown ids are left out). */
  health(ids: readonly number[]): Promise<DomainHealth[]> {
    return this.repository.health(ids);
  }
}
