/**
 * Test-only helpers for the Domain Management specs: sample domains and records, a page renderer with the
 * providers the shell gives a remote, and the fake API. Imported by *.spec.tsx files only.
 */
import { render } from '@testing-library/react';
import { Provider, useDispatch } from 'react-redux';
import { createAppStore, useLiveConnection } from '@cbh/api-client';
import type {
  AuthUser,
  DnsRecordView,
  DomainAlertView,
  DomainDetailView,
  DomainMonitoringView,
  DomainSummaryView,
  DomainVerificationView,
  DomainView,
  SslCertificateView,
} from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { authUser, fakeApi } from '@cbh/test-support';
import { Toaster } from '@cbh/ui';
import { DomainManagementPage } from './DomainManagementPage';

export const admin = authUser({ email: 'ada@example.com', role: 'admin', permissions: ['domain_management'] });
export const operator = authUser({ email: 'otto@example.com', role: 'operator', permissions: ['dashboard_view', 'circuit_breaker_view'] });

export const domainView = (fields: Partial<DomainView> & Pick<DomainView, 'id' | 'domain'>): DomainView => ({
  status: 'pending',
  registrar: null,
  expiresAt: null,
  createdAt: '2026-01-10T10:00:00.000Z',
  ...fields,
});

/** shop is verified and active (the primary: the earliest verified), blog verified but down, new pending, old failed. */
export const DOMAINS: DomainView[] = [
  domainView({ id: 4, domain: 'new.example.test', createdAt: '2026-03-01T10:00:00.000Z' }),
  domainView({ id: 3, domain: 'old.example.test', status: 'failed', createdAt: '2026-02-01T10:00:00.000Z' }),
  domainView({ id: 2, domain: 'blog.example.test', status: 'down', createdAt: '2026-01-05T10:00:00.000Z' }),
  domainView({
    id: 1,
    domain: 'shop.example.test',
    status: 'active',
    registrar: 'Example Registrar',
    expiresAt: '2027-05-01T12:00:00.000Z',
    createdAt: '2026-01-01T10:00:00.000Z',
  }),
];

export const verification = (domainId: number, domain: string, status: DomainVerificationView['status']): DomainVerificationView => ({
  id: domainId,
  domainId,
  recordName: `_cbhub-verify.${domain}`,
  recordValue: `cbhub-verify=token-${domainId}`,
  status,
  reason: status === 'failed' ? 'no TXT record found' : null,
  checkedAt: status === 'pending' ? null : '2026-03-02T09:00:00.000Z',
  verifiedAt: status === 'verified' ? '2026-03-02T09:00:00.000Z' : null,
});

export const VERIFICATIONS = [
  verification(4, 'new.example.test', 'pending'),
  verification(3, 'old.example.test', 'failed'),
  verification(2, 'blog.example.test', 'verified'),
  verification(1, 'shop.example.test', 'verified'),
];

export const certificate = (fields: Partial<SslCertificateView> & Pick<SslCertificateView, 'id' | 'domainId'>): SslCertificateView => ({
  certificateType: 'Test CA',
  status: 'active',
  reason: null,
  issuedAt: '2026-01-01T12:00:00.000Z',
  expiresAt: '2026-09-15T12:00:00.000Z',
  autoRenew: false,
  autoRenewOverridden: false,
  checkedAt: '2026-03-02T09:00:00.000Z',
  ...fields,
});

export const CERTIFICATES = [
  certificate({ id: 11, domainId: 1, certificateType: "Let's Encrypt", autoRenew: true }),
  certificate({ id: 12, domainId: 2, status: 'expired', expiresAt: '2026-02-01T12:00:00.000Z' }),
  // a record of a domain the list no longer has: its name is unknown
  certificate({
    id: 13,
    domainId: 99,
    certificateType: null,
    status: 'invalid',
    reason: 'self-signed certificate',
    issuedAt: null,
    expiresAt: null,
  }),
];

export const dnsRecord = (
  fields: Partial<DnsRecordView> & Pick<DnsRecordView, 'id' | 'domainId' | 'recordType' | 'value'>,
): DnsRecordView => ({
  name: 'shop.example.test',
  ttl: 300,
  isActive: true,
  lastSeenAt: '2026-03-02T09:00:00.000Z',
  ...fields,
});

export const DNS_RECORDS = [
  dnsRecord({ id: 21, domainId: 1, recordType: 'A', value: '192.0.2.10' }),
  dnsRecord({ id: 22, domainId: 1, recordType: 'NS', value: 'ns1.dns-host.example', ttl: 3600 }),
  dnsRecord({ id: 23, domainId: 1, recordType: 'TXT', value: 'v=spf1 -all', isActive: false }),
];

export const MONITORING: DomainMonitoringView[] = [
  {
    id: 31,
    domainId: 1,
    monitoringType: 'uptime',
    lastStatus: 'up',
    responseTime: 142,
    uptimePercentage: 99.8765,
    lastCheck: '2026-03-02T09:00:00.000Z',
  },
  { id: 32, domainId: 4, monitoringType: 'uptime', lastStatus: null, responseTime: null, uptimePercentage: null, lastCheck: null },
];

export const alert = (fields: Partial<DomainAlertView> & Pick<DomainAlertView, 'id' | 'domainId' | 'severity'>): DomainAlertView => ({
  alertType: 'site_down',
  status: 'open',
  triggeredAt: '2026-03-02T08:00:00.000Z',
  message: 'blog.example.test has failed 3 checks in a row',
  resolvedAt: null,
  ...fields,
});

export const ALERTS = [
  alert({ id: 41, domainId: 2, severity: 'critical' }),
  alert({ id: 42, domainId: 1, severity: 'high', alertType: 'registration_expiring', message: 'Registration ends in 20 days' }),
  alert({
    id: 43,
    domainId: 1,
    severity: 'medium',
    alertType: 'slow_response',
    status: 'resolved',
    resolvedAt: '2026-03-02T09:00:00.000Z',
  }),
  alert({ id: 44, domainId: 1, severity: 'low', alertType: 'certificate_expiring', message: 'soon' }),
];

export function detailOf(domain: DomainView, fields: Partial<DomainDetailView> = {}): DomainDetailView {
  const v = VERIFICATIONS.find((entry) => entry.domainId === domain.id) ?? null;
  return {
    ...domain,
    verification: v,
    certificate: CERTIFICATES.find((entry) => entry.domainId === domain.id) ?? null,
    dnsRecords: DNS_RECORDS.filter((entry) => entry.domainId === domain.id),
    subdomains: [],
    monitoring: MONITORING.filter((entry) => entry.domainId === domain.id),
    alerts: ALERTS.filter((entry) => entry.domainId === domain.id),
    recentChecks: [],
    ...fields,
  };
}

/** The figures as the API counts them over the sample: shop is the primary (the earliest added verified domain). */
export const SUMMARY: DomainSummaryView = { totalDomains: 4, activeDomains: 1, activeCertificates: 1, openAlerts: 3, primaryDomainId: 1 };

/** The fake API of the screen: the signed-in account, every list, each domain's detail, and any overrides. */
export function domainsApi(me: AuthUser | null, routes: Record<string, unknown> = {}, lists: { domains?: DomainView[] } = {}) {
  const domains = lists.domains ?? DOMAINS;
  const details = Object.fromEntries(domains.map((domain) => [`GET /api/domains/${domain.id}`, detailOf(domain)]));
  return fakeApi({
    'GET /api/auth/user': me,
    'GET /api/domain-summary': SUMMARY,
    'GET /api/domains': domains,
    'GET /api/domain-verifications': VERIFICATIONS,
    'GET /api/ssl-certificates': CERTIFICATES,
    'GET /api/dns-records': DNS_RECORDS,
    'GET /api/domain-monitoring': MONITORING,
    'GET /api/domain-alerts': ALERTS,
    ...details,
    ...routes,
  });
}

/** What the shell does for a signed-in visitor: runs the live connection and refetches what its messages name. */
function LiveBridge() {
  useLiveConnection(true, useDispatch());
  return null;
}

export function renderPage({ live = false } = {}) {
  return render(
    <Provider store={createAppStore()}>
      {live ? <LiveBridge /> : null}
      <MemoryRouter initialEntries={['/domains']}>
        <DomainManagementPage />
      </MemoryRouter>
      <Toaster />
    </Provider>,
  );
}

/** Each body row of a table as its cells' text. */
/** A cell's text, a moment (<When>, relative to now) read as the instant it names, so the rows read the same any day. */
function cellText(cell: Element): string {
  const copy = cell.cloneNode(true) as Element;
  copy.querySelectorAll('time[datetime]').forEach((time) => time.replaceWith(time.getAttribute('datetime') ?? ''));
  return (copy.textContent ?? '').trim();
}

export function rowsOf(table: HTMLElement): string[][] {
  return Array.from(table.querySelectorAll('tbody tr')).map((row) => Array.from(row.querySelectorAll('td')).map(cellText));
}

export { clickAndSettle, heldRoute, openTab, polyfillRadix } from '@cbh/test-support';
