import type { DnsRecord } from './dns-resolver';
import type { TlsCheckResult } from './tls.check';

/** At most this many new names are taken from one round (a certificate may list thousands). */
export const SUBDOMAINS_PER_ROUND = 50;
/** A domain keeps at most this many subdomains. */
export const MAX_SUBDOMAINS = 500;

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?$/;
const MAX_NAME = 253;

/**
 * The subdomains a round has seen of a domain, without asking anyone else: names under it that its certificate
 * covers — only a certificate the trust store accepted (active or merely expired), so that a self-signed one
 * cannot fill the list — and that its own records point at (CNAME and NS targets, MX exchanges). Wildcards name
 * none; each name must be a well-formed host name; the domain is not its own subdomain. Sorted, at most
 * SUBDOMAINS_PER_ROUND.
 */
export function subdomainsSeen(domain: string, tls: TlsCheckResult | null, records: readonly DnsRecord[]): string[] {
  const suffix = `.${domain}`;
  const trusted = tls && (tls.status === 'active' || tls.status === 'expired') ? tls.certificate.altNames : [];
  const targets = records.flatMap((record) => {
    if (record.recordType === 'CNAME' || record.recordType === 'NS') return [record.value];
    if (record.recordType === 'MX') return [record.value.split(/\s+/)[1] ?? ''];
    return [];
  });
  const names = [...trusted, ...targets]
    .map((name) => name.trim().toLowerCase().replace(/\.$/, ''))
    .filter(
      (name) =>
        name.length <= MAX_NAME &&
        name.endsWith(suffix) &&
        name.length > suffix.length &&
        name.split('.').every((label) => LABEL.test(label)),
    );
  return [...new Set(names)].sort().slice(0, SUBDOMAINS_PER_ROUND);
}
