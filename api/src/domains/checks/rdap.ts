import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import type { TargetPolicy } from '../../platform';
import type { DnsResolver } from './dns-resolver';
import { connectedAddressBlocked, resolveTarget } from './target-address';

export interface RegistrationData {
  registrar: string | null;
  expiresAt: Date | null;
}

export interface RdapSettings {
  /** RDAP_BASE_URL: a server answering `/domain/<name>`, or a bootstrap service redirecting to the registry's. */
  baseUrl: string;
  /** The whole look-up's deadline, redirects and body included. */
  timeoutMs: number;
  /** The checks' resolver (DNS_SERVERS): each host of the look-up is resolved once, through it. */
  resolver: DnsResolver;
  /** ALLOW_PRIVATE_TARGETS, for the hosts redirects name; the base URL's host is the operator's own. */
  policy: TargetPolicy;
  /** Extra trusted CA certificates (PEM) on top of Node's roots — for tests, as the TLS check's. */
  ca?: string;
}

/**
 * The operator's own RDAP host may be private (a test, an internal mirror): their setting, not a user's. Link-local
 * and metadata addresses stay refused.
 */
const OPERATOR_HOST: TargetPolicy = { allowPrivate: true };

const unknownRegistration = (): RegistrationData => ({ registrar: null, expiresAt: null });

// A domain's RDAP answer is a few kilobytes; anything far larger is not one, and is not read whole.
const MAX_BODY_BYTES = 1_000_000;

interface RdapEntity {
  roles?: unknown;
  vcardArray?: unknown;
  entities?: unknown;
}

function registrarName(entities: unknown): string | null {
  if (!Array.isArray(entities)) return null;
  for (const entity of entities as RdapEntity[]) {
    if (!entity || typeof entity !== 'object') continue;
    if (Array.isArray(entity.roles) && entity.roles.includes('registrar')) {
      // jCard: ["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", "Example Registrar, Inc."], …]]
      const properties = Array.isArray(entity.vcardArray) ? entity.vcardArray[1] : undefined;
      const fn = Array.isArray(properties) ? properties.find((property) => Array.isArray(property) && property[0] === 'fn') : undefined;
      if (Array.isArray(fn) && typeof fn[3] === 'string' && fn[3].trim()) return fn[3].trim();
    }
    // Some registries nest the registrar under another entity.
    const nested = registrarName(entity.entities);
    if (nested) return nested;
  }
  return null;
}

function expirationDate(events: unknown): Date | null {
  if (!Array.isArray(events)) return null;
  const event = events.find(
    (entry) =>
      entry && typeof entry === 'object' && String((entry as { eventAction?: unknown }).eventAction).toLowerCase() === 'expiration',
  ) as { eventDate?: unknown } | undefined;
  if (!event || typeof event.eventDate !== 'string') return null;
  const date = new Date(event.eventDate);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The registrar (the entity with role registrar) and the expiration event of an RDAP domain object. */
export function parseRdapDomain(body: unknown): RegistrationData {
  if (!body || typeof body !== 'object') return unknownRegistration();
  const domain = body as { entities?: unknown; events?: unknown };
  return { registrar: registrarName(domain.entities), expiresAt: expirationDate(domain.events) };
}

class RdapUnavailable extends Error {}

interface RdapAnswer {
  status: number;
  location: string | null;
  /** The body of a 2xx answer, null when it was larger than MAX_BODY_BYTES; other answers' bodies are not read. */
  body: string | null;
}

/**
 * One GET of url from exactly `address` (the one resolved and judged), with the URL's host as Host header and TLS
 * server name, so no second look-up can send the request elsewhere. Ends with the look-up's deadline.
 */
function getFrom(url: URL, address: string, policy: TargetPolicy, signal: AbortSignal, ca: string | undefined): Promise<RdapAnswer> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const name = url.hostname.replace(/^\[|\]$/g, '');
    const options: https.RequestOptions = {
      host: address,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      // one connection per request: a pooled one was opened to whatever address its first request resolved
      agent: false,
      signal,
      headers: { host: url.host, accept: 'application/rdap+json, application/json', 'user-agent': 'CircuitBreakerHub-DomainCheck/1' },
    };
    if (secure) {
      options.servername = net.isIP(name) ? undefined : name;
      // passing ca replaces Node's roots; keep them beside the extra one
      if (ca) options.ca = [...tls.rootCertificates, ca];
    }
    const request = (secure ? https : http).request(options, (response) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location ?? null;
      if (status < 200 || status >= 300) {
        response.destroy();
        return resolve({ status, location, body: null });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > MAX_BODY_BYTES) {
          response.destroy();
          resolve({ status, location, body: null });
        } else chunks.push(chunk);
      });
      response.on('end', () => resolve({ status, location, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('socket', (socket) => {
      socket.once('connect', () => {
        const blocked = connectedAddressBlocked(socket.remoteAddress, policy);
        if (blocked) request.destroy(new RdapUnavailable(blocked));
      });
    });
    request.on('error', reject);
    // the deadline may fall while the body is read, after the request itself is done
    deadline(signal).catch(reject);
    request.end();
  });
}

/** Rejects when the look-up's deadline falls, which may come before the resolver's own time-out. */
function deadline(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(new RdapUnavailable('no complete answer in time')), { once: true });
  });
}

/** Resolves url's host once through the checks' resolver, judges that address and fetches url from it. */
async function fetchRdap(url: URL, policy: TargetPolicy, settings: RdapSettings, signal: AbortSignal): Promise<RdapAnswer> {
  const target = await Promise.race([resolveTarget(url.hostname, settings.resolver, policy), deadline(signal)]);
  if (!target.ok) throw new RdapUnavailable(target.reason);
  return getFrom(url, target.address, policy, signal, settings.ca);
}

const MAX_REDIRECTS = 3;

/**
 * How far a redirect may send the look-up: within the operator's own RDAP host (their setting, so a test or an
 * internal mirror may be private), or to another host over https only, judged by ALLOW_PRIVATE_TARGETS — a redirect
 * comes from a server on the internet and must not turn the look-up towards this network. Null: not followed.
 */
function redirectPolicy(target: URL, base: URL, policy: TargetPolicy): TargetPolicy | null {
  if (target.host === base.host) return OPERATOR_HOST;
  return target.protocol === 'https:' ? policy : null;
}

/**
 * Registration data of a domain. Registration data is a nice-to-have: an unreachable service, a timeout, an
 * unknown domain, a refused address or an answer that is not RDAP all give unknown (nulls), never a failure. The
 * base URL is the operator's setting, not a user's; the redirects a bootstrap service answers with are followed by
 * hand, at most three, each to the address its host resolved to once and passed the outbound address guard.
 */
export async function lookupRegistration(domain: string, settings: RdapSettings): Promise<RegistrationData> {
  try {
    const baseText = settings.baseUrl.replace(/\/+$/, '');
    const base = new URL(baseText);
    const name = domain.replace(/\.$/, '').toLowerCase();
    const signal = AbortSignal.timeout(settings.timeoutMs);
    let url = new URL(`${baseText}/domain/${encodeURIComponent(name)}`);
    let answer = await fetchRdap(url, OPERATOR_HOST, settings, signal);
    for (let hop = 0; answer.status >= 300 && answer.status < 400 && hop < MAX_REDIRECTS; hop++) {
      if (!answer.location) return unknownRegistration();
      url = new URL(answer.location, url);
      const policy = redirectPolicy(url, base, settings.policy);
      if (!policy) return unknownRegistration();
      answer = await fetchRdap(url, policy, settings, signal);
    }
    if (answer.status < 200 || answer.status >= 300 || answer.body === null) return unknownRegistration();
    return parseRdapDomain(JSON.parse(answer.body));
  } catch {
    return unknownRegistration();
  }
}
