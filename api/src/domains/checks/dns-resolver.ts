import { Resolver } from 'node:dns/promises';
import { parseDnsServers } from '../../platform';

export const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export interface DnsRecord {
  recordType: RecordType;
  name: string;
  /** A/AAAA: the address; CNAME/NS: the target name; MX: "<priority> <exchange>"; TXT: the strings joined. */
  value: string;
  /** Seconds. */
  ttl: number;
}

/** One look-up: records, none at all (the name or the type does not exist), or no usable answer from DNS. */
export type DnsLookup = { outcome: 'found'; records: DnsRecord[] } | { outcome: 'none' } | { outcome: 'unreachable'; reason: string };

/** Every type at once: what the name has (possibly nothing), or no usable answer from DNS. */
export type DnsRecordSet = { outcome: 'answered'; records: DnsRecord[] } | { outcome: 'unreachable'; reason: string };

/**
 * Node's resolver reports a TTL only for A and AAAA; for the other types the usual zone default (one hour)
 * stands in, so the field is always a number of seconds.
 */
export const ASSUMED_TTL_SECONDS = 3600;

export const DEFAULT_DNS_TIMEOUT_MS = 2000;
export const DEFAULT_DNS_TRIES = 2;

export interface DnsResolverOptions {
  /** `host:port` (IPv6 as `[addr]:port`) as accepted by parseDnsServers; empty or absent: the system's resolvers. */
  servers?: readonly string[];
  /** Per try and server; c-ares doubles it on each retry. */
  timeoutMs?: number;
  tries?: number;
}

// NXDOMAIN, NODATA and a name that cannot exist all mean the same to a check: there is nothing there.
const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND', 'ENONAME', 'EBADNAME']);

function normaliseName(name: string): string {
  return name.trim().replace(/\.$/, '').toLowerCase();
}

/**
 * Reads records through the configured DNS servers with a bounded wait. Never throws for a name's or a server's
 * failure: every look-up ends in found, none or unreachable.
 */
export class DnsResolver {
  private readonly resolver: Resolver;

  constructor(options: DnsResolverOptions = {}) {
    this.resolver = new Resolver({ timeout: options.timeoutMs ?? DEFAULT_DNS_TIMEOUT_MS, tries: options.tries ?? DEFAULT_DNS_TRIES });
    if (options.servers && options.servers.length > 0) this.resolver.setServers([...options.servers]);
  }

  servers(): string[] {
    return this.resolver.getServers();
  }

  async lookup(name: string, recordType: RecordType): Promise<DnsLookup> {
    const host = normaliseName(name);
    try {
      const records = await this.query(host, recordType);
      return records.length > 0 ? { outcome: 'found', records } : { outcome: 'none' };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (NO_RECORDS.has(code)) return { outcome: 'none' };
      return { outcome: 'unreachable', reason: (error as Error).message };
    }
  }

  /**
   * All six types of a name. One type without an answer makes the whole set unreachable: a partial set would
   * read as records that disappeared.
   */
  async lookupAll(name: string, types: readonly RecordType[] = RECORD_TYPES): Promise<DnsRecordSet> {
    const lookups = await Promise.all(types.map((type) => this.lookup(name, type)));
    const failed = lookups.find((lookup) => lookup.outcome === 'unreachable');
    if (failed) return failed;
    return { outcome: 'answered', records: lookups.flatMap((lookup) => (lookup.outcome === 'found' ? lookup.records : [])) };
  }

  private async query(name: string, recordType: RecordType): Promise<DnsRecord[]> {
    const record = (value: string, ttl = ASSUMED_TTL_SECONDS): DnsRecord => ({ recordType, name, value, ttl });
    switch (recordType) {
      case 'A':
        return (await this.resolver.resolve4(name, { ttl: true })).map((entry) => record(entry.address, entry.ttl));
      case 'AAAA':
        return (await this.resolver.resolve6(name, { ttl: true })).map((entry) => record(entry.address, entry.ttl));
      case 'CNAME':
        return (await this.resolver.resolveCname(name)).map((target) => record(normaliseName(target)));
      case 'MX':
        return (await this.resolver.resolveMx(name)).map((mx) => record(`${mx.priority} ${normaliseName(mx.exchange)}`));
      case 'TXT':
        // A TXT record longer than 255 bytes arrives as several strings that together make its value.
        return (await this.resolver.resolveTxt(name)).map((chunks) => record(chunks.join('')));
      case 'NS':
        return (await this.resolver.resolveNs(name)).map((target) => record(normaliseName(target)));
    }
  }
}

/** A resolver from the DNS_SERVERS setting as written (unset or empty: the system's resolvers). */
export function createDnsResolver(dnsServers: string | undefined, options: Omit<DnsResolverOptions, 'servers'> = {}): DnsResolver {
  return new DnsResolver({ ...options, servers: parseDnsServers(dnsServers) ?? undefined });
}
