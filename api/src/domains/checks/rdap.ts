import dns from 'node:dns';
import { blockedReason, DENY_PRIVATE } from '../../services/outbound-http';
export const DEFAULT_RDAP_BASE_URL = 'https://rdap.org';

export interface RegistrationData {
  registrar: string | null;
  expiresAt: Date | null;
}

export interface RdapSettings {
  /** RDAP_BASE_URL: a server answering `/domain/<name>`, or a bootstrap service redirecting to the registry's. */
  baseUrl: string;
  timeoutMs: number;
}

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

async function readLimited(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const MAX_REDIRECTS = 3;

/**
 * Where a redirect may send the look-up: the operator's own RDAP host (their setting, so a test or an internal
 * mirror may be private), or an https URL whose every address is public — a redirect comes from a server on
 * the internet and must not turn the look-up towards this network.
 */
async function redirectAllowed(target: URL, base: URL): Promise<boolean> {
  if (target.host === base.host) return true;
  if (target.protocol !== 'https:') return false;
  const addresses = await dns.promises.lookup(target.hostname.replace(/^\[|\]$/g, ''), { all: true }).catch(() => []);
  return addresses.length > 0 && addresses.every(({ address }) => blockedReason(address, DENY_PRIVATE) === null);
}

/**
 * Registration data of a domain. Registration data is a nice-to-have: an unreachable service, a timeout, an
 * unknown domain or an answer that is not RDAP all give unknown (nulls), never a failure. The base URL is the
 * operator's setting, not a user's; the redirects a bootstrap service answers with are followed by hand, at most
 * three, each checked by redirectAllowed.
 */
export async function lookupRegistration(domain: string, settings: RdapSettings): Promise<RegistrationData> {
  try {
    const base = settings.baseUrl.replace(/\/+$/, '');
    const name = domain.replace(/\.$/, '').toLowerCase();
    const signal = AbortSignal.timeout(settings.timeoutMs);
    let url = new URL(`${base}/domain/${encodeURIComponent(name)}`);
    let response = await fetch(url, { headers: { accept: 'application/rdap+json, application/json' }, redirect: 'manual', signal });
    for (let hop = 0; response.status >= 300 && response.status < 400 && hop < MAX_REDIRECTS; hop++) {
      await response.body?.cancel();
      const location = response.headers.get('location');
      if (!location) return unknownRegistration();
      url = new URL(location, url);
      if (!(await redirectAllowed(url, new URL(base)))) return unknownRegistration();
      response = await fetch(url, { headers: { accept: 'application/rdap+json, application/json' }, redirect: 'manual', signal });
    }
    if (!response.ok) {
      await response.body?.cancel();
      return unknownRegistration();
    }
    const text = await readLimited(response);
    return text === null ? unknownRegistration() : parseRdapDomain(JSON.parse(text));
  } catch {
    return unknownRegistration();
  }
}
