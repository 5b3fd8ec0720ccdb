import type { IncomingMessage } from 'node:http';
import { UnsupportedMediaTypeException } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { bearerOf, pathOf, type RequestStep } from '../common/http';
import { CONFIG_IMPORT_PATH } from '@cbh/contracts';
import { isYaml } from './media-type';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The pages that work without JavaScript post HTML forms: sign-in, sign-out's confirmation, an invitation's
 * password and an alert group's acknowledge link (opened from a mail or a chat message). Every other /api route takes JSON only, the one body type a page on another origin cannot send
 * without a CORS preflight, which this API never grants.
 */
const FORM_ROUTES = [/^\/api\/login$/, /^\/api\/logout$/, /^\/api\/invitations\/[^/]+$/, /^\/api\/public\/acknowledge$/];

const mediaType = (request: IncomingMessage) =>
  String(request.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();

const hasBody = (request: IncomingMessage) =>
  request.headers['transfer-encoding'] !== undefined || (request.headers['content-length'] ?? '0') !== '0';

/** Whether a state-changing /api request carries a body of a type its route does not take. */
export function refusedBodyType(request: IncomingMessage): string | null {
  if (SAFE_METHODS.has(request.method ?? 'GET') || !hasBody(request)) return null;
  // judged on the path the router will route: /%61pi/… reaches /api/…
  let path: string;
  try {
    path = decodeURIComponent(pathOf(request));
  } catch {
    return 'a path that is not valid percent-encoding';
  }
  if (!path.startsWith('/api/')) return null;
  const type = mediaType(request);
  if (type === 'application/json') return null;
  if (type === 'application/x-www-form-urlencoded' && FORM_ROUTES.some((route) => route.test(path))) return null;
  // POST /api/import also reads configuration documents in YAML; the origin check applies to it like to any other
  if (path === CONFIG_IMPORT_PATH && isYaml(type)) return null;
  return type || 'a body without a Content-Type';
}

/**
 * A request that carries a bearer token and no cookie cannot have been sent by a browser on a person's behalf
 * without the page knowing the token: cross-site forgery needs an ambient credential, so such requests are exempt.
 */
export const isBearerWithoutCookie = (request: { headers: IncomingMessage['headers'] }) =>
  request.headers.cookie === undefined && bearerOf(request.headers.authorization) !== undefined;

/**
 * Nest's cross-site check (enableCsrfProtection) allows GET, HEAD and OPTIONS whatever they carry, Go's algorithm's
 * first rule; handed only the other methods, it no longer reads every read's headers into a view of the request first
 * (2,000–3,000 instructions a read). It is the one security hook the API enables: helmet sets the headers
 * (securityHeaders), not Nest's useSecurityHeaders, whose headers the reads would lose here.
 */
export function checkUnsafeMethodsOnly<Request extends { method: string }, Response>(
  hook: (request: Request, response: Response) => Error | undefined,
): (request: Request, response: Response) => Error | undefined {
  return (request, response) => (SAFE_METHODS.has(request.method) ? undefined : hook(request, response));
}

/**
 * Defences against cross-site request forgery, on every state-changing request:
 * - Nest's cross-origin protection (Go's CrossOriginProtection algorithm): `Sec-Fetch-Site` must say same-origin
 *   (or a navigation the person started), and where a browser sends none, `Origin` must match the host; a request
 *   from the site's own origins (PUBLIC_URL and REMOTE_ORIGINS) is allowed either way. Others get a 403.
 * - JSON bodies only on /api, except the HTML forms above and YAML documents to import (which pass the origin check as well).
 * The first is enabled here; the second is the step returned, for the API's one onRequest hook.
 * The session cookie's SameSite=Lax is kept, but alone it lets any page on the same site (another port of the
 * same host, a sibling subdomain) post forms with the visitor's cookie.
 */
export function protectFromCrossSiteRequests(app: NestFastifyApplication, siteOrigins: string[]): RequestStep {
  app.enableCsrfProtection({ trustedOrigins: siteOrigins, exclude: (request: FastifyRequest) => isBearerWithoutCookie(request) });
  // the body-type half, a step of the API's one onRequest hook (inOneHook): whoever enables the one gets the other
  return (request, _reply, next) => {
    const refused = refusedBodyType(request.raw);
    next(
      refused
        ? new UnsupportedMediaTypeException(`This endpoint takes application/json bodies only (the request sent ${refused})`)
        : undefined,
    );
  };
}
