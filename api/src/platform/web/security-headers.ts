import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import proxyAddr from '@fastify/proxy-addr';
import { pathOf, type RequestStep } from '../common/http';

type Next = (error?: unknown) => void;

const firstValue = (header: string) => header.split(',')[0]!.trim();

/**
 * Marks a raw request `secure` when it came over TLS, or through a trusted hop (TRUST_PROXY) that says so in
 * X-Forwarded-Proto: the session cookie's `secure: 'auto'` reads it.
 */
export function forwardedProto(trust: string) {
  const trusted = proxyAddr.compile(trust.split(',').map((part) => part.trim()));
  return (req: IncomingMessage & { secure?: boolean }, _res: ServerResponse, next: Next) => {
    const encrypted = Boolean((req.socket as { encrypted?: boolean }).encrypted);
    const forwarded = req.headers['x-forwarded-proto'];
    req.secure =
      encrypted || (forwarded !== undefined && firstValue(String(forwarded)) === 'https' && trusted(req.socket.remoteAddress ?? '', 0));
    next();
  };
}

/**
 * Helmet with a CSP that lets the shell load federated chunks: same-origin by default, plus any origin a
 * remote is deployed to (REMOTE_ORIGINS). styled-components injects <style> tags, hence 'unsafe-inline'
 * for styles only. connect-src allows https: for the domain screen's Test Connection, a no-cors HEAD request from
 * the browser to the owner's own site; it reads nothing back, and images could already reach any https origin.
 */
export function siteSecurityHeaders(remoteOrigins: string[]) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...remoteOrigins],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:', 'https:', ...remoteOrigins],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
}

/** What every JSON answer carries: the document policies (CSP, framing, …) do not apply to what is never rendered. */
const API_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
} as const;

/**
 * The security headers, a step of the API's one onRequest hook (inOneHook): the site's pages and files get helmet's
 * (siteSecurityHeaders) on the raw response, the JSON answers theirs on Fastify's reply. A header set on the raw
 * response sends every header of the answer through Node's one-by-one merge in writeHead (a null-prototype object
 * in dictionary mode, each name validated and hashed again): 2,000–4,000 of a read's 172,000 instructions
 * (npm run bench:instructions).
 */
export function securityHeaders(remoteOrigins: string[]): RequestStep {
  const site = siteSecurityHeaders(remoteOrigins);
  return (request, reply, next) => {
    const path = pathOf(request.raw);
    if (
      !path.startsWith('/api/') ||
      path.startsWith('/api/docs') ||
      path.startsWith('/api/login') ||
      path === '/api/logout' ||
      path.startsWith('/api/invitations')
    )
      return site(request.raw, reply.raw, next as Next);
    reply.headers(API_HEADERS);
    next();
  };
}
