import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

export class OutboundRefusedError extends Error {}
export class OutboundTimeoutError extends Error {}

function ipv4Parts(address: string): number[] | null {
  const parts = address.split('.').map(Number);
  return parts.length === 4 && parts.every((p) => Number.isInteger(p) && p >= 0 && p <= 255) ? parts : null;
}

/**
 * Why an address may not be called, or null when it may. Link-local (cloud metadata lives there), unspecified
 * and multicast addresses are never called; loopback and private ranges only with ALLOW_PRIVATE_TARGETS.
 */
export function blockedReason(address: string, allowPrivate: boolean): string | null {
  const mapped = address.toLowerCase().match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  const v4 = ipv4Parts(mapped ? mapped[1]! : address);
  if (v4) {
    const [a, b] = v4 as [number, number];
    if (a === 169 && b === 254) return 'a link-local or metadata address';
    if (a === 0 || a >= 224) return 'an unspecified, multicast or reserved address';
    const isPrivate =
      a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
    return isPrivate && !allowPrivate ? 'a loopback or private address' : null;
  }
  const v6 = address.toLowerCase();
  if (v6 === '::' || v6.startsWith('ff')) return 'an unspecified or multicast address';
  if (/^fe[89ab]/.test(v6) || v6 === 'fd00:ec2::254') return 'a link-local or metadata address';
  const isPrivate = v6 === '::1' || /^f[cd]/.test(v6);
  return isPrivate && !allowPrivate ? 'a loopback or private address' : null;
}

export interface OutboundResult {
  status: number;
}

/**
 * One GET to url, refusing blocked addresses — checked on the address actually connected to, so a DNS answer
 * cannot swap in a private address after the check.
 */
export function outboundGet(url: URL, { timeoutMs, allowPrivate }: { timeoutMs: number; allowPrivate: boolean }): Promise<OutboundResult> {
  return new Promise((resolve, reject) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host)) {
      const reason = blockedReason(host, allowPrivate);
      if (reason) return reject(new OutboundRefusedError(`Refused to call ${host}: ${reason}`));
    }
    const lookup: typeof dns.lookup = ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
      dns.lookup(hostname, { ...options, all: false }, (error, address, family) => {
        if (error) return callback(error);
        const reason = blockedReason(address as string, allowPrivate);
        if (reason) return callback(new OutboundRefusedError(`Refused to call ${hostname} (${address}): ${reason}`));
        callback(null, address, family);
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
    request.on('timeout', () => request.destroy(new OutboundTimeoutError(`No answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end();
  });
}
