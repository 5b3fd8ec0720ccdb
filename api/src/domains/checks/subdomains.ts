import type { DnsRecord } from './dns-resolver';

/**
 * The subdomains a round has seen of a domain, without asking anyone else: names under it that its certificate
 * covers (subject alternative names; a wildcard says only that some exist, so it names none) and that its own
 * records point at (CNAME and NS targets, MX exchanges). The domain itself is not its own subdomain.
 */
export function subdomainsSeen(domain: string, altNames: readonly string[], records: readonly DnsRecord[]): string[] {
  const suffix = `.${domain}`;
  const targets = records.flatMap((record) => {
    if (record.recordType === 'CNAME' || record.recordType === 'NS') return [record.value];
    if (record.recordType === 'MX') return [record.value.split(/\s+/)[1] ?? ''];
    return [];
  });
  const names = [...altNames, ...targets]
    .map((name) => name.trim().toLowerCase().replace(/\.$/, ''))
    .filter((name) => name.endsWith(suffix) && !name.includes('*') && name.length > suffix.length);
  return [...new Set(names)].sort();
}
