import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Whether a request is a plain HTML form post (its answers are redirects, not JSON). */
export function isFormPost(request: FastifyRequest): boolean {
  return String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
}

/** 303 See Other: after a form post, the browser loads `location` with a GET. */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.redirect(location, 303);
}

/** The token of `Authorization: Bearer <token>` (the scheme in any case), '' for an empty one; undefined without. */
export function bearerOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer(?:\s+(.*))?$/i.exec(header);
  return match ? (match[1] ?? '').trim() : undefined;
}

/** The path of a raw request (what Express called req.path): its URL without the query. */
export function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/**
 * Whether a navigation was started on this site or by the person (a bookmark, the address bar), as Fetch Metadata's
 * `Sec-Fetch-Site` says. Browsers send it only to https and localhost sites: without it nothing tells where a
 * navigation came from, so it is not taken for the site's own.
 */
export function isOwnNavigation(request: { headers: IncomingMessage['headers'] }): boolean {
  const site = request.headers['sec-fetch-site'];
  return site === 'same-origin' || site === 'none';
}

/**
 * A cookie's value from a Cookie header, as sent (undefined when absent). Scanned in place rather than split into
 * parts: every signed-in read looks up its session cookie here.
 */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (let at = 0; at < header.length;) {
    while (header.charCodeAt(at) === SPACE || header.charCodeAt(at) === TAB) at++;
    const semicolon = header.indexOf(';', at);
    const end = semicolon < 0 ? header.length : semicolon;
    if (header.startsWith(name, at) && header.charCodeAt(at + name.length) === EQUALS)
      return header.slice(at + name.length + 1, end).trimEnd();
    at = end + 1;
  }
  return undefined;
}
const SPACE = 32;
const TAB = 9;
const EQUALS = 61;

/** A connect-style middleware, as express-session, passport and helmet are written. */
export type ConnectMiddleware<Req extends IncomingMessage = IncomingMessage> = (
  req: Req,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/**
 * A connect-style middleware run as a Fastify onRequest hook on the raw request and response. The API registers no
 * Nest middleware, so it does without @fastify/middie (skipMiddie): its engine matched paths and decoded every URL
 * again for the three middleware that run on all requests, a share of each fast read's cost.
 */
export function onRawRequest<Req extends IncomingMessage>(middleware: ConnectMiddleware<Req>) {
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) =>
    middleware(request.raw as Req, reply.raw, done as (error?: unknown) => void);
}

/** A step of the API's one onRequest hook (see inOneHook): a Fastify hook's signature, `next` its `done`. */
export type RequestStep = (request: FastifyRequest, reply: FastifyReply, next: (error?: Error) => void) => void;

/**
 * Steps run in order as one, until one fails (passes an error, or throws): the API's own request steps (request id,
 * body type, forwarded protocol, security headers, session) as one onRequest hook, and the session middleware within
 * the session's step. Fastify passes every hook through its hook runner, and for steps of a few lines that runner cost
 * a fast read more than the steps themselves.
 */
export function inOneHook(steps: RequestStep[]): RequestStep {
  return (request, reply, done) => {
    let index = 0;
    const next = (error?: Error) => {
      if (error || index === steps.length) return done(error);
      try {
        steps[index++]!(request, reply, next);
      } catch (thrown) {
        // as Fastify's own runner does for each hook, also for a step reached from an asynchronous one
        done(thrown as Error);
      }
    };
    next();
  };
}
