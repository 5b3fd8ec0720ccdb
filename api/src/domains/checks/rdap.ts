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

/**
 * Registration data of a domain. Registration data is a nice-to-have: an unreachable service, a timeout, an
 * unknown domain or an answer that is not RDAP all give unknown (nulls), never a failure. The base URL is the
 * operator's setting, not a user's, so it is not subject to the private-address policy (a test or an internal
 * RDAP mirror may well be on a private address).
 */
export async function lookupRegistration(domain: string, settings: RdapSettings): Promise<RegistrationData> {
  try {
    const base = settings.baseUrl.replace(/\/+$/, '');
    const name = domain.replace(/\.$/, '').toLowerCase();
    const response = await fetch(`${base}/domain/${encodeURIComponent(name)}`, {
      headers: { accept: 'application/rdap+json, application/json' },
      // A bootstrap service (rdap.org) answers with a redirect to the registry's own RDAP server.
      redirect: 'follow',
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
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
