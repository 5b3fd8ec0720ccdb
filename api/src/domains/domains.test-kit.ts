import type { DomainView } from '@cbh/contracts';
import { DataSource } from 'typeorm';
import { apiForThisFile } from '../../test/test-api';
import { DomainAlertsRepository } from './domain-alerts.repository';
import { DomainChecksRepository } from './domain-checks.repository';
import { DomainFindingsRepository } from './domain-findings.repository';
import { DomainsRepository } from './domains.repository';
import { DnsRecordEntity } from './entities/dns-record.entity';
import { DomainCheckRunner } from './scheduling/domain-check-runner.service';

/**
 * The API of a domains spec file, with the helpers its tests share. The runner's rounds are stopped: these tests write
 * what rounds would find through the repositories, and rounds of their own (against an unreachable DNS server here)
 * would add verification alerts under them. Rounds are tested in scheduling/domain-rounds.spec.ts.
 */
export function domainsApiForThisFile() {
  const spec = apiForThisFile();
  beforeAll(() => spec.api.app.get(DomainCheckRunner).onApplicationShutdown());
  let counter = 0;
  const call = (path: string, options: { method?: string; body?: unknown; cookie?: string | null } = {}) =>
    spec.api.call(path, { cookie: spec.admin, ...options });
  const alertsRepository = () => spec.api.app.get(DomainAlertsRepository);
  return {
    spec,
    call,
    repository: () => spec.api.app.get(DomainsRepository),
    findingsRepository: () => spec.api.app.get(DomainFindingsRepository),
    checksRepository: () => spec.api.app.get(DomainChecksRepository),
    alertsRepository,
    /** A domain's DNS records as the repository left them, in the order the detail page lists them. */
    dnsRecordsOf: (domainId: number) =>
      spec.api.app
        .get(DataSource)
        .getRepository(DnsRecordEntity)
        .find({ where: { domainId }, order: { recordType: 'ASC', name: 'ASC', value: 'ASC' } }),
    /** A site-down alert opened on the domain, as an uptime check opens it. */
    siteDown: (domainId: number, dedupeKey: string) =>
      alertsRepository().openAlert(domainId, { alertType: 'site_down', severity: 'critical', message: 'down', dedupeKey }),
    /** A new domain through the API, with a name no other test of the file uses. */
    async addDomain(prefix = 'site'): Promise<DomainView> {
      const response = await call('/api/domains', { method: 'POST', body: { domain: `${prefix}-${++counter}.example.test` } });
      expect(response.status).toBe(201);
      return response.json();
    },
  };
}

export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

export const EXPIRED_CERTIFICATE = {
  certificateType: 'Test CA',
  status: 'expired' as const,
  reason: null,
  fingerprint: 'CC:DD',
  issuedAt: new Date('2024-01-01T00:00:00Z'),
  expiresAt: new Date('2024-04-01T00:00:00Z'),
  autoRenew: false,
};
