import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export class OutboundRefusedError extends Error {}
export class OutboundTimeoutError extends Error {}
export class OutboundTooLargeError extends Error {}

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
  /** False for a call that may reach only the private addresses allowed (a notification over plain http). */
  readonly allowPublic?: boolean;
}

export const DENY_PRIVATE: TargetPolicy = { allowPrivate: false };

interface ParsedAddress {
  family: 4 | 6;
  bytes: number[];
}

/**
 * An address as bytes, parsed by ipaddr.js from any standard notation (a zone index is dropped); an IPv4-mapped
 * IPv6 address (::ffff:a.b.c.d, ::ffff:7f00:1) counts as the IPv4 address it reaches, so it cannot slip past a
 * rule written for IPv4.
 */
function parseAddress(address: string): ParsedAddress | null {
  const text = address.split('%')[0]!;
  // net.isIP refuses the shorthand IPv4 forms (127.1, 0x7f.1) that ipaddr.js would accept
  if (!net.isIP(text)) return null;
  const ip = ipaddr.parse(text);
  if (ip.kind() === 'ipv4') return { family: 4, bytes: ip.toByteArray() };
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return { family: 4, bytes: v6.toIPv4Address().toByteArray() };
  return { family: 6, bytes: v6.toByteArray() };
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
/** The AWS instance metadata service's IPv6 address, inside the unique-local range. */
const IPV6_METADATA = ipaddr.parse('fd00:ec2::254').toNormalizedString();

type AddressClass = { kind: 'never'; reason: string } | { kind: 'private' } | { kind: 'public' };

const LINK_LOCAL: AddressClass = { kind: 'never', reason: 'a link-local or metadata address' };
const RESERVED: AddressClass = { kind: 'never', reason: 'an unspecified, multicast or reserved address' };
const PRIVATE: AddressClass = { kind: 'private' };
const PUBLIC: AddressClass = { kind: 'public' };

/** ipaddr.js's ranges that are loopback or private: reachable only as ALLOW_PRIVATE_TARGETS allows. */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'carrierGradeNat', 'uniqueLocal', 'deprecatedSiteLocal']);

/**
 * The IPv4 address an IPv6 form carries and reaches, whatever its notation: IPv4-mapped (::ffff:a.b.c.d), IPv4-
 * translated (::ffff:0:a.b.c.d), the well-known NAT64 prefix (64:ff9b::/96) and 6to4 (2002:aabb:ccdd::/48).
 */
function embeddedIpv4(ip: ipaddr.IPv6): number[] | null {
  const bytes = ip.toByteArray();
  const range = ip.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return bytes.slice(12);
  if (range === 'rfc6052' && bytes.slice(4, 12).every((byte) => byte === 0)) return bytes.slice(12);
  if (range === '6to4') return bytes.slice(2, 6);
  return null;
}

/**
 * Which kind of address this is, by ipaddr.js's registry of special ranges: only global unicast is public. Loopback
 * and private ranges (and ranges that are not on the internet, such as benchmarking and local-use NAT64) are
 * private; link-local and cloud metadata addresses, unspecified, broadcast, multicast, documentation, Teredo,
 * IPv4-compatible and every other reserved range are never called.
 */
function classify(address: ParsedAddress): AddressClass {
  const ip = ipaddr.fromByteArray(address.bytes);
  if (ip.kind() === 'ipv4') {
    const [a, second] = address.bytes as [number, number];
    if (IPV4_METADATA.has(address.bytes.join('.'))) return LINK_LOCAL;
    // the benchmarking range 198.18.0.0/15 is not on the internet: treat it as private
    if (a === 198 && (second === 18 || second === 19)) return PRIVATE;
    const range = ip.range();
    if (range === 'unicast') return PUBLIC;
    if (range === 'linkLocal') return LINK_LOCAL;
    return PRIVATE_RANGES.has(range) ? PRIVATE : RESERVED;
  }
  const v6 = ip as ipaddr.IPv6;
  const embedded = embeddedIpv4(v6);
  if (embedded) return classify({ family: 4, bytes: embedded });
  if (v6.toNormalizedString() === IPV6_METADATA) return LINK_LOCAL;
  const range = v6.range();
  if (range === 'linkLocal') return LINK_LOCAL;
  if (PRIVATE_RANGES.has(range)) return PRIVATE;
  // the local-use NAT64 prefix (64:ff9b:1::/48) reaches a network's own IPv4 addresses
  if (range === 'rfc6052') return PRIVATE;
  if (range !== 'unicast') return RESERVED;
  // ipaddr.js counts IPv4-compatible addresses (::a.b.c.d, deprecated and never routed) as unicast
  if (address.bytes.slice(0, 12).every((byte) => byte === 0)) return RESERVED;
  return PUBLIC;
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
  if (found.kind === 'public') return policy.allowPublic === false ? 'a public address, which plain http may not reach' : null;
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
    const shown = ipaddr.fromByteArray(network).toString();
    throw new Error(`"${trimmed}" has bits set after the prefix; did you mean ${shown}/${prefix}?`);
  }
  const never = classify(address);
  if (never.kind === 'never') throw new Error(`"${trimmed}" starts at ${never.reason}, which is never called`);
  return range;
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

/** What a receiver answered: its status and the start of its body, enough for a log's error message. */
export interface OutboundResponse extends OutboundResult {
  /** At most the first RESPONSE_BODY_KEPT_BYTES of the body, as UTF-8 text. */
  body: string;
}

/** How much of an answer's body is kept: an error page's first lines say what went wrong; the rest is read and dropped. */
export const RESPONSE_BODY_KEPT_BYTES = 2048;

export interface OutboundGetOptions extends TargetPolicy {
  /** The whole call's deadline: look-up, connection, headers and the body's last byte. */
  timeoutMs: number;
  headers?: Record<string, string>;
}

export interface OutboundRequestOptions extends OutboundGetOptions {
  method: string;
  body?: string;
  /**
   * Keep the whole body, refusing one longer than this many bytes (a scrape reads the whole answer); without it only
   * the first RESPONSE_BODY_KEPT_BYTES are kept and the rest read and dropped.
   */
  wholeBodyUpTo?: number;
}

/** One GET to url, as outboundRequest makes it, answering only the status. */
export async function outboundGet(url: URL, options: OutboundGetOptions): Promise<OutboundResult> {
  const { status } = await outboundRequest(url, { ...options, method: 'GET' });
  return { status };
}

/**
 * One request to url, refusing blocked addresses — checked on the address actually connected to, so a DNS answer
 * cannot swap in a private address after the check. The whole call, body included, ends by timeoutMs: a socket's
 * idle timeout would let a server that sends one byte a second hold the call forever.
 */
export function outboundRequest(
  url: URL,
  { method, body, timeoutMs, allowPrivate, allowPublic, headers = {}, wholeBodyUpTo }: OutboundRequestOptions,
): Promise<OutboundResponse> {
  const policy: TargetPolicy = { allowPrivate, allowPublic };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literalBlocked = net.isIP(host) ? blockedReason(host, policy) : null;
  if (literalBlocked) return Promise.reject(new OutboundRefusedError(`Refused to call ${host}: ${literalBlocked}`));
  return new Promise((resolve, reject) => {
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
    let settled = false;
    const settle = (error: Error | null, result?: OutboundResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (error) {
        request.destroy();
        reject(error);
      } else resolve(result!);
    };
    const client = url.protocol === 'https:' ? https : http;
    const sent = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const request = client.request(
      url,
      { method, lookup, headers: { 'user-agent': 'CircuitBreakerHub/1', ...sent, ...headers } },
      (response) => {
        const kept: Buffer[] = [];
        let keptBytes = 0;
        // read to the end (the deadline covers it), keeping only the start
        const keep = wholeBodyUpTo ?? RESPONSE_BODY_KEPT_BYTES;
        response.on('data', (chunk: Buffer) => {
          if (wholeBodyUpTo !== undefined && keptBytes + chunk.length > wholeBodyUpTo) {
            return settle(new OutboundTooLargeError(`The answer is larger than ${wholeBodyUpTo} bytes`));
          }
          if (keptBytes >= keep) return;
          const part = chunk.subarray(0, keep - keptBytes);
          kept.push(part);
          keptBytes += part.length;
        });
        response.on('end', () => settle(null, { status: response.statusCode ?? 0, body: Buffer.concat(kept).toString('utf8') }));
        response.on('error', (error) => settle(error));
      },
    );
    const deadline = setTimeout(() => settle(new OutboundTimeoutError(`No complete answer within ${timeoutMs} ms`)), timeoutMs);
    const checkPeer = (socket: net.Socket) => {
      const reason = socket.remoteAddress ? blockedReason(socket.remoteAddress, policy) : null;
      if (reason) settle(new OutboundRefusedError(`Refused to call ${socket.remoteAddress}: ${reason}`));
    };
    request.on('socket', (socket) => {
      // a kept-alive socket is already connected (and was checked then): it would never emit 'connect' again
      if (socket.connecting) socket.once('connect', () => checkPeer(socket));
      else checkPeer(socket);
    });
    request.on('error', (error) => settle(error));
    request.end(body);
  });
}

/** How long judging a URL waits for its name to resolve before judging it on its literal form only. */
const DNS_CHECK_MS = 2000;

/**
 * Why a URL the hub is to call later (a notification channel, a scrape target) is refused, or null: https, or http
 * only where private targets are allowed; no user name or password in it; never an address the outbound guard
 * refuses (a literal one, or every address a name resolves to now). Every call is judged again on the address it
 * connects to, so a name that later resolves elsewhere gains nothing.
 */
export async function judgeTargetUrl(text: string, policy: TargetPolicy): Promise<string | null> {
  const url = new URL(text);
  if (url.protocol === 'http:' && policy.allowPrivate === false) {
    return 'must be an https URL (http only where ALLOW_PRIVATE_TARGETS allows private targets)';
  }
  if (url.username || url.password) return 'must not carry a user name or password';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = net.isIP(host)
    ? [host]
    : await Promise.race([
        dns.promises.lookup(host, { all: true }).then(
          (found) => found.map((entry) => entry.address),
          () => [] as string[],
        ),
        new Promise<string[]>((resolve) => setTimeout(() => resolve([]), DNS_CHECK_MS).unref()),
      ]);
  // plain http reaches only the private addresses allowed, as each call is judged
  const judged = { ...policy, allowPublic: url.protocol === 'https:' };
  const reasons = addresses.map((address) => blockedReason(address, judged));
  if (addresses.length > 0 && reasons.every((reason) => reason !== null)) return `Refused to call ${host} (${addresses[0]}): ${reasons[0]}`;
  return null;
}
