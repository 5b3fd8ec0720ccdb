import { z } from 'zod';
import type {
  AlertSeverity,
  AlertStatus,
  CertificateStatus,
  DnsRecordType,
  DomainAlertType,
  DomainStatus,
  MonitoringType,
  UptimeStatus,
  VerificationStatus,
} from './domain-vocabulary';
import { pageLimit } from './paging';

const MAX_DOMAIN_LENGTH = 253;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Why a domain name is refused, or its normal form: trimmed, lower case, internationalised labels in punycode,
 * without a trailing dot. The URL parser does the IDN mapping the same way in Node and in browsers (node:url's
 * domainToASCII does not exist in a browser, and this schema also runs in the screens).
 */
function normaliseDomain(input: string): { domain: string } | { problem: string } {
  const value = input.trim();
  if (value === '') return { problem: 'is required' };
  // Anything far beyond the limit is refused before the parser spends time on it.
  if (value.length > 4 * MAX_DOMAIN_LENGTH) return { problem: `must be at most ${MAX_DOMAIN_LENGTH} characters` };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return { problem: 'must be a bare domain name, without a scheme such as https://' };
  if (value.includes('@')) return { problem: 'must be a bare domain name, without user info' };
  if (/[/\\?#]/.test(value)) return { problem: 'must be a bare domain name, without a path' };
  if (value.includes(':')) return { problem: 'must be a bare domain name, without a port' };
  // The parser would decode percent escapes into the host; a domain name never contains one.
  if (value.includes('%')) return { problem: 'is not a valid domain name' };
  let host: string;
  try {
    host = new URL(`http://${value}`).hostname;
  } catch {
    return { problem: 'is not a valid domain name' };
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  const labels = host.split('.');
  if (labels.length < 2) return { problem: 'must have at least two labels, such as example.com' };
  if (labels.includes('')) return { problem: 'must not contain an empty label (two dots in a row)' };
  const bad = labels.find((label) => !LABEL.test(label));
  if (bad !== undefined) {
    return { problem: `label '${bad}' must be 1–63 letters, digits or hyphens, not starting or ending with a hyphen` };
  }
  // A top-level domain is never all digits; such a name is an IP address (the parser has already rewritten it as one).
  if (/^\d+$/.test(labels[labels.length - 1]!)) return { problem: 'must be a domain name, not an IP address' };
  if (host.length > MAX_DOMAIN_LENGTH) return { problem: `must be at most ${MAX_DOMAIN_LENGTH} characters` };
  return { domain: host };
}

/** A domain name in its normal form; reserved names such as shop.example.test are valid. */
export const domainNameSchema = z.string({ message: 'must be a domain name' }).transform((value, ctx) => {
  const result = normaliseDomain(value);
  if ('domain' in result) return result.domain;
  ctx.addIssue({ code: 'custom', message: result.problem });
  return z.NEVER;
});

/** POST /api/domains */
export const addDomainSchema = z.strictObject({ domain: domainNameSchema });

/** PATCH /api/ssl-certificates/{id}: the owner's choice, which the checks' inference no longer changes. */
export const updateCertificateSchema = z.strictObject({ autoRenew: z.boolean({ message: 'must be true or false' }) });

const MAX_SERIAL = 2_147_483_647;
const serialId = (message: string) => z.coerce.number({ message }).int(message).positive(message).max(MAX_SERIAL, message);
export const domainIdSchema = serialId('must be a domain id');
export const domainAlertIdSchema = serialId('must be an alert id');
export const sslCertificateIdSchema = serialId('must be a certificate id');

/** How many rows a list answers at most, unless ?limit asks for fewer (or more, up to max). */
export const DOMAIN_LIST_LIMIT = { default: 500, max: 2000 } as const;

const limit = pageLimit(DOMAIN_LIST_LIMIT);

/** GET /api/domains */
export const domainListQuerySchema = z.strictObject({ limit });

/** GET /api/domain-verifications, /ssl-certificates, /dns-records, /subdomains, /domain-monitoring, /domain-alerts: optionally one domain's. */
export const domainRecordsQuerySchema = z.strictObject({ limit, domainId: domainIdSchema.optional() });

/** Dates are ISO 8601; null when not known yet. */
export interface DomainView {
  id: number;
  domain: string;
  status: DomainStatus;
  registrar: string | null;
  /** when the registration ends */
  expiresAt: string | null;
  createdAt: string;
}

export interface DomainVerificationView {
  id: number;
  domainId: number;
  /** the TXT record to publish … */
  recordName: string;
  /** … and the value it must hold */
  recordValue: string;
  status: VerificationStatus;
  /** why it failed: no TXT record found, value does not match, DNS server unreachable */
  reason: string | null;
  checkedAt: string | null;
  verifiedAt: string | null;
}

export interface SslCertificateView {
  id: number;
  domainId: number;
  /** the issuer */
  certificateType: string | null;
  status: CertificateStatus;
  /** why it is invalid or unreachable */
  reason: string | null;
  issuedAt: string | null;
  expiresAt: string | null;
  autoRenew: boolean;
  /** autoRenew was set by hand and is no longer inferred from the issuer */
  autoRenewOverridden: boolean;
  checkedAt: string;
}

export interface DnsRecordView {
  id: number;
  domainId: number;
  recordType: DnsRecordType;
  name: string;
  value: string;
  /** seconds */
  ttl: number;
  /** false once a round no longer finds it */
  isActive: boolean;
  lastSeenAt: string;
}

export interface SubdomainView {
  id: number;
  domainId: number;
  name: string;
  createdAt: string;
}

export interface DomainMonitoringView {
  id: number;
  domainId: number;
  monitoringType: MonitoringType;
  lastStatus: UptimeStatus | null;
  /** ms, of the last check */
  responseTime: number | null;
  /** over the last 30 days */
  uptimePercentage: number | null;
  lastCheck: string | null;
}

export interface DomainAlertView {
  id: number;
  domainId: number;
  alertType: DomainAlertType;
  severity: AlertSeverity;
  status: AlertStatus;
  triggeredAt: string;
  message: string;
  resolvedAt: string | null;
}

/** GET /api/domain-summary: the figures above the tables, counted by the database over every domain. */
export interface DomainSummaryView {
  totalDomains: number;
  /** domains with status active */
  activeDomains: number;
  /** certificates with status active */
  activeCertificates: number;
  /** alerts with status open */
  openAlerts: number;
  /** the Overview's primary domain: the earliest added of those whose ownership is verified; null before one is */
  primaryDomainId: number | null;
}

/** One uptime check as it happened (raw results are kept 24 hours). */
export interface DomainCheckView {
  checkedAt: string;
  status: UptimeStatus;
  /** ms; null when the check failed */
  responseTime: number | null;
  /** why it failed */
  error: string | null;
}

/** GET /api/domains/{id}: the domain with all its records. */
export interface DomainDetailView extends DomainView {
  verification: DomainVerificationView | null;
  certificate: SslCertificateView | null;
  dnsRecords: DnsRecordView[];
  subdomains: SubdomainView[];
  monitoring: DomainMonitoringView[];
  /** newest first, the last 100 */
  alerts: DomainAlertView[];
  /** the last DOMAIN_RECENT_CHECKS uptime checks, oldest first (in the order a chart draws them) */
  recentChecks: DomainCheckView[];
}
