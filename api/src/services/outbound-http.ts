import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

export class OutboundRefusedError extends Error {}
export class OutboundTimeoutError extends Error {}

/** A range of addresses an operator lets outbound calls reach although they are loopback or private. */
export interface CidrRange {
  readonly family: 4 | 6;
  /** The network address, one number per byte (4 or 16). */
  readonly bytes: readonly number[];
  readonly prefix: number;
  /** The range as written in the configuration, for messages. */
  readonly text: string;
}

/**
 * Which loopback and private addresses outbound calls may reach: none (false), all (true) or only those inside
 * the listed ranges. Public addresses are always allowed; link-local, metadata, unspecified and multicast never.
 */
export interface TargetPolicy {
  readonly allowPrivate: boolean | readonly CidrRange[];
}

export const DENY_PRIVATE: TargetPolicy = { allowPrivate: false };

interface ParsedAddress {
  family: 4 | 6;
  bytes: number[];
}

function ipv4Parts(address: string): number[] | null {
  if (!net.isIPv4(address)) return null;
  return address.split('.').map(Number);
}

function ipv6Bytes(address: string): number[] | null {
  const zoneless = address.split('%')[0]!;
  if (!net.isIPv6(zoneless)) return null;
  let text = zoneless.toLowerCase();
  // An embedded dotted IPv4 tail (::ffff:1.2.3.4) stands for the last two 16-bit groups.
  const tail = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (tail) {
    const [a, b, c, d] = ipv4Parts(tail[1]!) as [number, number, number, number];
    text = `${text.slice(0, -tail[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  let groups: string[];
  if (text.includes('::')) {
    const [head, rest] = text.split('::') as [string, string];
    const headGroups = head ? head.split(':') : [];
    const restGroups = rest ? rest.split(':') : [];
    groups = [...headGroups, ...Array<string>(8 - headGroups.length - restGroups.length).fill('0'), ...restGroups];
  } else {
    groups = text.split(':');
  }
  return groups.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

/**
 * An address as bytes; an IPv4-mapped IPv6 address (::ffff:a.b.c.d) counts as the IPv4 address it reaches, so
 * it cannot slip past a rule written for IPv4.
 */
function parseAddress(address: string): ParsedAddress | null {
  const v4 = ipv4Parts(address);
  if (v4) return { family: 4, bytes: v4 };
  const v6 = ipv6Bytes(address);
  if (!v6) return null;
  if (v6.slice(0, 10).every((byte) => byte === 0) && v6[10] === 0xff && v6[11] === 0xff) return { family: 4, bytes: v6.slice(12) };
  return { family: 6, bytes: v6 };
}

function inRange(address: ParsedAddress, range: CidrRange): boolean {
  if (address.family !== range.family) return false;
  let bits = range.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((address.bytes[i]! & mask) !== (range.bytes[i]! & mask)) return false;
  }
  return true;
}

/** Whether an address lies inside a range; false for anything that is not an IP address. */
export function cidrContains(range: CidrRange, address: string): boolean {
  const parsed = parseAddress(address);
  return parsed !== null && inRange(parsed, range);
}

const IPV4_METADATA = new Set(['168.63.129.16', '100.100.100.200']);

type AddressClass = { kind: 'never'; reason: string } | { kind: 'private' } | { kind: 'public' };

function classify(address: ParsedAddress): AddressClass {
  const b = address.bytes;
  if (address.family === 4) {
    const [a, second] = b as [number, number];
    if (a === 169 && second === 254) return { kind: 'never', reason: 'a link-local or metadata address' };
    // metadata and host services of clouds outside link-local: Azure's wire server, Alibaba's metadata service
    if (IPV4_METADATA.has(b.join('.'))) return { kind: 'never', reason: 'a link-local or metadata address' };
    // the benchmarking range 198.18.0.0/15 is not on the internet: treat it as private
    if (a === 198 && (second === 18 || second === 19)) return { kind: 'private' };
    if (a === 0 || a >= 224) return { kind: 'never', reason: 'an unspecified, multicast or reserved address' };
    const isPrivate =
      a === 127 ||
      a === 10 ||
      (a === 172 && second >= 16 && second <= 31) ||
      (a === 192 && second === 168) ||
      (a === 100 && second >= 64 && second <= 127);
    return isPrivate ? { kind: 'private' } : { kind: 'public' };
  }
  const zeroUpTo = (n: number) => b.slice(0, n).every((byte) => byte === 0);
  if (zeroUpTo(16)) return { kind: 'never', reason: 'an unspecified or multicast address' };
  if (b[0] === 0xff) return { kind: 'never', reason: 'an unspecified or multicast address' };
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return { kind: 'never', reason: 'a link-local or metadata address' };
  // The AWS instance metadata service's IPv6 address (fd00:ec2::254) sits inside the private fc00::/7 range.
  const metadata = parseAddress('fd00:ec2::254')!.bytes;
  if (b.every((byte, i) => byte === metadata[i])) return { kind: 'never', reason: 'a link-local or metadata address' };
  if (zeroUpTo(15) && b[15] === 1) return { kind: 'private' };
  // NAT64 (64:ff9b::/96) reaches the IPv4 address in its last four bytes: judge that address instead.
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && b.slice(4, 12).every((byte) => byte === 0)) {
    return classify({ family: 4, bytes: b.slice(12) });
  }
  // Deprecated IPv4-compatible addresses (::a.b.c.d) are not routed; nothing legitimate is called there.
  if (zeroUpTo(12)) return { kind: 'never', reason: 'an unspecified, multicast or reserved address' };
  if ((b[0]! & 0xfe) === 0xfc) return { kind: 'private' };
  // site-local (fec0::/10, deprecated but still routed inside some networks) and the local-use NAT64 prefix
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0xc0) return { kind: 'private' };
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && b[4] === 0 && b[5] === 1) return { kind: 'private' };
  // 6to4 (2002::/16) carries an IPv4 address in bytes 2–5: judge that address instead
  if (b[0] === 0x20 && b[1] === 0x02) return classify({ family: 4, bytes: b.slice(2, 6) });
  return { kind: 'public' };
}

/**
 * Why an address may not be called, or null when it may. Link-local (cloud metadata lives there), unspecified
 * and multicast addresses are never called; loopback and private ranges only as ALLOW_PRIVATE_TARGETS allows:
 * all of them with true, only those inside the listed ranges with a list.
 */
export function blockedReason(address: string, policy: TargetPolicy): string | null {
  const parsed = parseAddress(address);
  if (!parsed) return 'not an IP address';
  const found = classify(parsed);
  if (found.kind === 'never') return found.reason;
  if (found.kind === 'public') return null;
  const { allowPrivate } = policy;
  if (allowPrivate === true) return null;
  if (allowPrivate === false) return 'a loopback or private address';
  return allowPrivate.some((range) => inRange(parsed, range)) ? null : 'a loopback or private address outside the allowed ranges';
}

/** One CIDR range (`10.20.0.0/16`, `fd00:1::/64`; a bare address is a single host); throws with the reason. */
export function parseCidr(text: string): CidrRange {
  const trimmed = text.trim();
  const [addressText, prefixText, ...extra] = trimmed.split('/');
  const address = parseAddress(addressText ?? '');
  if (!address || extra.length > 0 || (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText))) {
    throw new Error(`"${trimmed}" is not a CIDR range such as 10.20.0.0/16 or fd00::/8`);
  }
  // An IPv4-mapped address was parsed as IPv4; its prefix was written for the IPv6 form.
  const writtenAsV6 = addressText!.includes(':');
  const maxPrefix = writtenAsV6 ? 128 : 32;
  let prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
  if (prefix > maxPrefix) throw new Error(`"${trimmed}" has a prefix longer than ${maxPrefix} bits`);
  if (writtenAsV6 && address.family === 4) {
    if (prefix < 96) throw new Error(`"${trimmed}" mixes IPv4-mapped and other IPv6 addresses; write the IPv4 range instead`);
    prefix -= 96;
  }
  const range: CidrRange = { family: address.family, bytes: address.bytes, prefix, text: trimmed };
  // Host bits set usually means a typo in the prefix or the address; refusing it beats guessing which.
  const network = address.bytes.map((byte, i) => {
    const bits = Math.max(0, Math.min(8, prefix - i * 8));
    return byte & ((0xff << (8 - bits)) & 0xff);
  });
  if (network.some((byte, i) => byte !== address.bytes[i])) {
    const shown = address.family === 4 ? network.join('.') : formatIpv6(network);
    throw new Error(`"${trimmed}" has bits set after the prefix; did you mean ${shown}/${prefix}?`);
  }
  const never = classify(address);
  if (never.kind === 'never') throw new Error(`"${trimmed}" starts at ${never.reason}, which is never called`);
  return range;
}

function formatIpv6(bytes: number[]): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}

/**
 * ALLOW_PRIVATE_TARGETS: true/false (also 1/0, yes/no) or a comma-separated list of CIDR ranges. Throws with a
 * message fit for the configuration error.
 */
export function parseTargetPolicy(value: string): TargetPolicy {
  const text = value.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(text)) return { allowPrivate: true };
  if (['false', '0', 'no', ''].includes(text)) return { allowPrivate: false };
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const problems: string[] = [];
  const ranges: CidrRange[] = [];
  for (const part of parts) {
    try {
      ranges.push(parseCidr(part));
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (problems.length > 0) {
    throw new Error(`use true, false or a comma-separated list of CIDR ranges: ${problems.join('; ')}`);
  }
  return { allowPrivate: ranges };
}

export interface OutboundResult {
  status: number;
}

/**
 * One GET to url, refusing blocked addresses — checked on the address actually connected to, so a DNS answer
 * cannot swap in a private address after the check.
 */
export function outboundGet(url: URL, { timeoutMs, allowPrivate }: { timeoutMs: number } & TargetPolicy): Promise<OutboundResult> {
  const policy: TargetPolicy = { allowPrivate };
  return new Promise((resolve, reject) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host)) {
      const reason = blockedReason(host, policy);
      if (reason) return reject(new OutboundRefusedError(`Refused to call ${host}: ${reason}`));
    }
    // With autoSelectFamily (Node's default) the socket asks for every address at once: hand back only the
    // allowed ones, in the shape asked for.
    const lookup = ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
      dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error);
        const allowed = addresses.filter((entry) => !blockedReason(entry.address, policy));
        if (allowed.length === 0) {
          const first = addresses[0];
          const reason = first ? blockedReason(first.address, policy) : 'no address';
          return callback(new OutboundRefusedError(`Refused to call ${hostname} (${first?.address ?? '?'}): ${reason}`));
        }
        if (options.all) return callback(null, allowed);
        callback(null, allowed[0]!.address, allowed[0]!.family);
      });
    }) as typeof dns.lookup;
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      { method: 'GET', lookup, timeout: timeoutMs, headers: { 'user-agent': 'CircuitBreakerHub/1' } },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
        response.on('error', reject);
      },
    );
    request.on('socket', (socket) => {
      socket.once('connect', () => {
        const reason = socket.remoteAddress ? blockedReason(socket.remoteAddress, policy) : null;
        if (reason) request.destroy(new OutboundRefusedError(`Refused to call ${socket.remoteAddress}: ${reason}`));
      });
    });
    request.on('timeout', () => request.destroy(new OutboundTimeoutError(`No answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end();
  });
}
