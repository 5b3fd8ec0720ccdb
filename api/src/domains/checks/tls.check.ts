import net from 'node:net';
import tls from 'node:tls';
import type { TargetPolicy } from '../../platform';
import type { DnsResolver } from './dns-resolver';
import { sharedSecureContext } from './secure-context';
import { connectedAddressBlocked, resolveTarget } from './target-address';

export interface TlsCertificate {
  /** The issuer's organization, else its common name. */
  certificateType: string;
  issuer: string;
  subject: string;
  /** the DNS names it covers (subject alternative names of type DNS) */
  altNames: string[];
  issuedAt: Date;
  expiresAt: Date;
  /** Guessed from the issuer: ACME authorities hand out short-lived certificates that are renewed by a client. */
  autoRenew: boolean;
  fingerprint256: string;
  serialNumber: string;
}

/**
 * active: valid now, however soon it ends (nearness is for alerts); expired; invalid with the reason (self-signed,
 * untrusted chain, hostname mismatch, not yet valid, or the TLS error text); unreachable: nothing to read, because
 * the connection was refused, timed out, the name did not resolve or the address policy refused it (blocked).
 */
export type TlsCheckResult =
  | { status: 'active' | 'expired'; certificate: TlsCertificate; address: string }
  | { status: 'invalid'; reason: string; certificate: TlsCertificate | null; address: string }
  | { status: 'unreachable'; reason: string; blocked: boolean };

export interface TlsCheckSettings {
  resolver: DnsResolver;
  policy: TargetPolicy;
  /** DOMAIN_HTTPS_PORT. */
  port: number;
  timeoutMs: number;
  /**
   * Extra trusted CA certificates (PEM), on top of Node's bundled roots — for tests. In production
   * NODE_EXTRA_CA_CERTS brings private CAs into Node's store, and this stays unset so that store is used whole.
   */
  ca?: string | readonly string[];
  now?: () => Date;
}

// ACME authorities: their certificates are issued to an automated client and renewed by it.
const ACME_ISSUERS = [/let'?s encrypt/i, /zerossl/i, /google trust services/i, /buypass/i];

type DistinguishedName = Partial<Record<string, string | string[]>>;

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

export function certificateTypeOf(issuer: DistinguishedName): string {
  return first(issuer.O) ?? first(issuer.CN) ?? 'unknown';
}

export function inferAutoRenew(issuer: DistinguishedName): boolean {
  const names = [first(issuer.O), first(issuer.CN)].filter((name): name is string => Boolean(name));
  return names.some((name) => ACME_ISSUERS.some((pattern) => pattern.test(name)));
}

const formatName = (name: DistinguishedName): string =>
  Object.entries(name)
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : value}`)
    .join(', ');

// OpenSSL's verification codes, in the words a domain owner would use.
const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
  'INVALID_CA',
  'CERT_SIGNATURE_FAILURE',
]);

function invalidReason(code: string): string {
  if (code === 'DEPTH_ZERO_SELF_SIGNED_CERT') return 'self-signed';
  if (UNTRUSTED.has(code)) return 'untrusted chain';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') return 'hostname mismatch';
  if (code === 'CERT_NOT_YET_VALID') return 'not yet valid';
  if (code === 'CERT_REVOKED') return 'revoked';
  return code;
}

// Failures before any TLS was spoken: the port is closed, filtered or the host cannot be reached.
const UNREACHABLE = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE', 'EADDRNOTAVAIL']);

function readCertificate(peer: tls.PeerCertificate): TlsCertificate | null {
  if (!peer || !peer.raw) return null;
  const issuedAt = new Date(peer.valid_from);
  const expiresAt = new Date(peer.valid_to);
  if (Number.isNaN(issuedAt.getTime()) || Number.isNaN(expiresAt.getTime())) return null;
  return {
    certificateType: certificateTypeOf(peer.issuer),
    issuer: formatName(peer.issuer),
    subject: formatName(peer.subject ?? {}),
    // the host names only: a certificate may also name URIs, e-mail and IP addresses
    altNames: (peer.subjectaltname ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry.startsWith('DNS:'))
      .map((entry) => entry.slice('DNS:'.length)),
    issuedAt,
    expiresAt,
    autoRenew: inferAutoRenew(peer.issuer),
    fingerprint256: peer.fingerprint256,
    serialNumber: peer.serialNumber,
  };
}

/**
 * Connects to <domain>:port with SNI and reads the certificate the server presents, trusted or not: the
 * connection accepts any certificate so it can be read, and its verification result becomes the status.
 */
export async function checkTls(domain: string, settings: TlsCheckSettings): Promise<TlsCheckResult> {
  const host = domain
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  const target = await resolveTarget(host, settings.resolver, settings.policy);
  if (!target.ok) return { status: 'unreachable', reason: target.reason, blocked: target.blocked };
  const address = target.address;
  const extraCa = settings.ca === undefined ? undefined : typeof settings.ca === 'string' ? [settings.ca] : [...settings.ca];

  return new Promise<TlsCheckResult>((resolve) => {
    let settled = false;
    const socket = tls.connect({
      host: address,
      port: settings.port,
      // SNI takes names only; a check of a bare address sends none and is matched against the address.
      servername: net.isIP(host) ? undefined : host,
      // Read the certificate even when it fails verification; authorizationError says why it failed.
      rejectUnauthorized: false,
      secureContext: sharedSecureContext(extraCa),
      checkServerIdentity: (_name, cert) => tls.checkServerIdentity(host, cert),
    });
    const finish = (result: TlsCheckResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () => finish({ status: 'unreachable', reason: `no TLS handshake within ${settings.timeoutMs} ms`, blocked: false }),
      settings.timeoutMs,
    );
    socket.once('connect', () => {
      const blocked = connectedAddressBlocked(socket.remoteAddress, settings.policy);
      if (blocked) finish({ status: 'unreachable', reason: blocked, blocked: true });
    });
    socket.once('secureConnect', () => {
      const certificate = readCertificate(socket.getPeerCertificate(false));
      if (!certificate) return finish({ status: 'invalid', reason: 'no certificate presented', certificate: null, address });
      const now = (settings.now ?? (() => new Date()))();
      if (certificate.expiresAt.getTime() <= now.getTime()) return finish({ status: 'expired', certificate, address });
      if (certificate.issuedAt.getTime() > now.getTime()) {
        return finish({ status: 'invalid', reason: 'not yet valid', certificate, address });
      }
      if (!socket.authorized) {
        const code = String(socket.authorizationError ?? 'unknown verification error');
        // OpenSSL judges expiry by the machine's clock, which may differ from `now`.
        if (code === 'CERT_HAS_EXPIRED') return finish({ status: 'expired', certificate, address });
        return finish({ status: 'invalid', reason: invalidReason(code), certificate, address });
      }
      finish({ status: 'active', certificate, address });
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? '';
      if (UNREACHABLE.has(code)) return finish({ status: 'unreachable', reason: `${error.message}`, blocked: false });
      // The port answered but the TLS handshake failed (a plain-HTTP port, a protocol or cipher mismatch).
      finish({ status: 'invalid', reason: error.message, certificate: null, address });
    });
  });
}
