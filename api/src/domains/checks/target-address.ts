import net from 'node:net';
import { blockedReason, type TargetPolicy } from '../../platform';
import type { DnsResolver } from './dns-resolver';

/** Where a check connects, or why it does not. */
export type TargetAddress =
  | { ok: true; address: string; family: 4 | 6 }
  | { ok: false; reason: string; /** refused by the address policy rather than unresolvable */ blocked: boolean };

/**
 * The address a check of a domain connects to, found through the checks' own resolver (so DNS_SERVERS applies)
 * and judged by the outbound address policy. IPv4 comes first; blocked addresses are skipped, and a domain whose
 * every address is blocked is refused with the reason. The caller connects to this exact address, so no second
 * look-up can swap in another one.
 */
export async function resolveTarget(domain: string, resolver: DnsResolver, policy: TargetPolicy): Promise<TargetAddress> {
  const host = domain.replace(/^\[|\]$/g, '');
  const family = net.isIP(host);
  if (family) {
    const reason = blockedReason(host, policy);
    return reason
      ? { ok: false, reason: `Refused to call ${host}: ${reason}`, blocked: true }
      : { ok: true, address: host, family: family as 4 | 6 };
  }
  const [v4, v6] = await Promise.all([resolver.lookup(host, 'A'), resolver.lookup(host, 'AAAA')]);
  const candidates = [v4, v6].flatMap((lookup) => (lookup.outcome === 'found' ? lookup.records : []));
  if (candidates.length === 0) {
    const failed = [v4, v6].find((lookup) => lookup.outcome === 'unreachable');
    return failed && failed.outcome === 'unreachable'
      ? { ok: false, reason: `DNS server unreachable: ${failed.reason}`, blocked: false }
      : { ok: false, reason: `${host} has no A or AAAA record`, blocked: false };
  }
  for (const record of candidates) {
    if (!blockedReason(record.value, policy)) return { ok: true, address: record.value, family: record.recordType === 'A' ? 4 : 6 };
  }
  const first = candidates[0]!;
  return { ok: false, reason: `Refused to call ${host} (${first.value}): ${blockedReason(first.value, policy)}`, blocked: true };
}

/** Why the peer a socket ended up connected to may not be called, or null; the last word of the address policy. */
export function connectedAddressBlocked(remoteAddress: string | undefined, policy: TargetPolicy): string | null {
  if (!remoteAddress) return null;
  const reason = blockedReason(remoteAddress, policy);
  return reason ? `Refused to call ${remoteAddress}: ${reason}` : null;
}
