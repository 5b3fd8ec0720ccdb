import type { DnsRecordView, DomainView, SslCertificateView } from '@cbh/contracts';
import { theme } from '@cbh/ui';

/** The rules of what the domain screens show: colours, icons and the words for what is missing. (The figures and the
 * primary domain are counted and chosen by the API, over every domain: GET /api/domain-summary.) */

export type StatusIcon = 'check' | 'clock' | 'spinner' | 'cross' | 'none';
export interface StatusLook {
  color: string;
  icon: StatusIcon;
}

/**
 * Any status a domain screen shows (domain, verification, certificate, check, alert): verified and active green
 * with a check; pending yellow with a clock; verifying blue and spinning; failed and expired red with a cross;
 * anything else grey.
 */
export function statusLook(status: string | null | undefined): StatusLook {
  switch (status) {
    case 'verified':
    case 'active':
      return { color: theme.colors.success, icon: 'check' };
    case 'pending':
      return { color: theme.colors.yellow, icon: 'clock' };
    case 'verifying':
      return { color: theme.colors.primary, icon: 'spinner' };
    case 'failed':
    case 'expired':
      return { color: theme.colors.destructive, icon: 'cross' };
    default:
      return { color: theme.colors.grey, icon: 'none' };
  }
}

/** critical red, high orange, medium yellow, anything else blue. */
export function severityColor(severity: string): string {
  switch (severity) {
    case 'critical':
      return theme.colors.destructive;
    case 'high':
      return theme.colors.orange;
    case 'medium':
      return theme.colors.yellow;
    default:
      return theme.colors.primary;
  }
}

/** 'pending' → 'Pending', 'site_down' → 'Site down'. */
export function titleCase(value: string): string {
  const words = value.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Fallbacks: an unknown domain is 'Unknown', a missing date 'Never', a missing response time or uptime 'N/A'. */
export const UNKNOWN = 'Unknown';
export const NEVER = 'Never';
export const NOT_AVAILABLE = 'N/A';

export const responseTimeText = (ms: number | null | undefined) => (ms === null || ms === undefined ? NOT_AVAILABLE : `${ms} ms`);
export const uptimeText = (percent: number | null | undefined) =>
  percent === null || percent === undefined ? NOT_AVAILABLE : `${Number(percent.toFixed(2))}%`;

/** The name of the domain a record belongs to, for the tables that list every domain's records. */
export function domainNames(domains: readonly Pick<DomainView, 'id' | 'domain'>[]): (domainId: number) => string {
  const names = new Map(domains.map((domain) => [domain.id, domain.domain]));
  return (domainId) => names.get(domainId) ?? UNKNOWN;
}

/** Second-level labels under which country domains are registered (example.co.uk, example.com.au). */
const COUNTRY_SECOND_LEVELS = new Set(['co', 'com', 'net', 'org', 'gov', 'ac', 'edu', 'ne', 'or']);

/** 'ns1.dns-host.example' → 'dns-host.example'; 'ns1.host.co.uk' → 'host.co.uk'. */
function registrableDomain(name: string): string {
  const labels = name.split('.');
  const country = labels.length >= 3 && labels.at(-1)!.length === 2 && COUNTRY_SECOND_LEVELS.has(labels.at(-2)!);
  return labels.slice(country ? -3 : -2).join('.');
}

/**
 * Who serves a domain's DNS, read from its NS records: the name servers' own registered domain, several joined
 * when they differ; 'Unknown' without NS records.
 */
export function dnsProvider(records: readonly Pick<DnsRecordView, 'recordType' | 'value' | 'isActive'>[]): string {
  const providers = records
    .filter((record) => record.recordType === 'NS' && record.isActive)
    .map((record) => registrableDomain(record.value.toLowerCase().replace(/\.$/, '')));
  const unique = [...new Set(providers)].sort();
  return unique.length > 0 ? unique.join(', ') : UNKNOWN;
}

/** What the Overview says of a certificate, and the moment it names (shown with <When>): valid and when it expires,
 * expired and since when, invalid with the reason, or none read yet. */
export function certificateSummary(certificate: Pick<SslCertificateView, 'status' | 'expiresAt' | 'reason'> | null | undefined): {
  text: string;
  at?: string | null;
} {
  if (!certificate) return { text: 'Not read yet' };
  switch (certificate.status) {
    case 'active':
      return { text: 'Valid, expires', at: certificate.expiresAt };
    case 'expired':
      return { text: 'Expired', at: certificate.expiresAt };
    case 'invalid':
      return { text: `Invalid${certificate.reason ? `: ${certificate.reason}` : ''}` };
    default:
      return { text: `Unreachable${certificate.reason ? `: ${certificate.reason}` : ''}` };
  }
}
