import { createHmac, timingSafeEqual } from 'node:crypto';
import { sessionKey } from './session-key';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { SessionData } from 'express-session';
import {
  APP_CONFIG,
  type AppConfig,
  cookieValue,
  inOneHook,
  isBearerWithoutCookie,
  onRawRequest,
  RealtimeBus,
  type RequestStep,
} from '../../platform';
import { clientOf, PgSessionStore, SESSION_COOKIE, SESSION_ENDED, signedInUserId } from './session-store';
import type { AppRequest, SessionRequest, SessionUser } from './session-user';
import { UserDirectory } from './user-directory.service';

/** A signed-in session as a /ws connection keeps it. */
export interface LiveSession {
  user: SessionUser;
  /** sessionKey(sid): what a replica is told when the session ends, never the id itself */
  key: string;
  /** The id itself, kept in this process only, to ask the table whether the session still lives. */
  sid: string;
  /** When the session's cookie expires (ms since the epoch); it is fixed at sign-in. */
  expiresAt: number | null;
  /** Set for a connection made with a personal access token (then key is `token:<id>` and sid is empty). */
  token?: { id: string; permissions: string[] };
}

/**
 * The signed-in account of a request outside Express (the /ws upgrade): the signed session cookie, checked
 * as express-session signs it, then the cached session and account.
 */
@Injectable()
export class SessionReader implements OnModuleInit {
  private readonly logger = new Logger(SessionReader.name);
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly store: PgSessionStore,
    private readonly directory: UserDirectory,
    private readonly bus: RealtimeBus,
  ) {}

  /**
   * Every replica's cached sessions follow the others at once: a session signed out anywhere, and the sessions of
   * an account that changed (deactivated, deleted, demoted), are read again from the table on their next request.
   */
  onModuleInit() {
    this.bus.subscribeInternal('session-ended', ({ data }) => this.store.forgetEnded(String(data)));
    // sessions the store ends itself (an account's oldest, past its cap) end everywhere, as at sign-out
    this.store.on(SESSION_ENDED, (key: string) => {
      this.bus.publishInternal('session-ended', key).catch((error: Error) => {
        // the other replicas find out at their next check of the sessions table (within a minute)
        this.logger.warn(`ended session not announced: ${error.message}`);
      });
    });
    this.bus.subscribe(({ message }) => {
      if (message.type === 'userChanged') this.store.forgetUser(message.data.userId);
    });
  }

  async userOf(request: IncomingMessage): Promise<SessionUser | null> {
    return (await this.resolve(request))?.user ?? null;
  }

  /**
   * The signed-in account when both the session and the account are in the caches, at no promise's cost (the hot
   * path of every signed-in read); undefined when either has to be read from the table (ask userOf then).
   */
  cachedUserOf(request: IncomingMessage): SessionUser | null | undefined {
    const sid = this.sessionId(request.headers.cookie);
    if (!sid) return null;
    const session = this.store.cached(sid);
    const userId = signedInUserId(session);
    if (!userId) return undefined;
    const user = this.directory.cached(userId);
    if (user === undefined) return undefined;
    return user?.isActive ? user : null;
  }

  /** The request's signed-in session: its account, its key and when it expires; null without one. */
  async sessionOf(request: IncomingMessage): Promise<LiveSession | null> {
    const found = await this.resolve(request);
    return found && { ...found, key: sessionKey(found.sid) };
  }

  /** The id of the session a request's cookie names, if its signature holds (whether or not the session lives). */
  sessionIdOf(request: IncomingMessage): string | null {
    return this.sessionId(request.headers.cookie);
  }

  private async resolve(request: IncomingMessage): Promise<Omit<LiveSession, 'key'> | null> {
    const sid = this.sessionId(request.headers.cookie);
    if (!sid) return null;
    const session = await new Promise<SessionData | null>((resolve) =>
      this.store.get(sid, (error, value) => resolve(error ? null : (value ?? null))),
    );
    const userId = signedInUserId(session);
    if (!userId) return null;
    const user = await this.directory.get(userId);
    if (!user?.isActive) return null;
    const expires = session?.cookie?.expires;
    return { user, sid, expiresAt: expires ? new Date(expires).getTime() : null };
  }

  /**
   * Signed cookie values already checked, with the session id each names (null: a bad signature). The HMAC of a
   * value under the one secret never changes, so remembering the verdict checks nothing less; it saves an HMAC per
   * request. Bounded: emptied when full.
   */
  private readonly verified = new Map<string, string | null>();

  private sessionId(header: string | undefined): string | null {
    const raw = cookieValue(header, SESSION_COOKIE);
    if (!raw) return null;
    const known = this.verified.get(raw);
    if (known !== undefined) return known;
    const sid = this.verify(raw);
    if (this.verified.size >= VERIFIED_COOKIES_KEPT) this.verified.clear();
    this.verified.set(raw, sid);
    return sid;
  }

  /** The session id of an express-session signed cookie value (`s:<sid>.<hmac>`), or null if the signature is wrong. */
  private verify(raw: string): string | null {
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (!value.startsWith('s:')) return null;
    const signed = value.slice(2);
    const dot = signed.lastIndexOf('.');
    if (dot < 1) return null;
    const sid = signed.slice(0, dot);
    const expected = Buffer.from(createHmac('sha256', this.config.SESSION_SECRET).update(sid).digest('base64').replace(/=+$/, ''));
    const given = Buffer.from(signed.slice(dot + 1));
    return given.length === expected.length && timingSafeEqual(given, expected) ? sid : null;
  }
}

/** Checked cookie values remembered at most (about 200 bytes each). */
const VERIFIED_COOKIES_KEPT = 10_000;

/** A connect-style middleware on the raw request and response, as express-session and passport are. */
export type Middleware = (req: SessionRequest, res: ServerResponse, next: (error?: unknown) => void) => void;

/** Requests that change a session (sign-in, sign-out, the sign-in callbacks) or may: they get the full stack. */
const WRITES_SESSION = /^\/api\/(login|logout|invitations|auth\/elevate)/;

/**
 * Who is signed in, as a step of the API's one onRequest hook (inOneHook), left on Fastify's request (what handlers and
 * the access guard read) and on the raw one (what the session middleware and the release files read).
 * Reads that only need to know who is signed in take the short way: the signed cookie checked and the cached session
 * and account read, without express-session's and passport's per-request work. Everything else, and any read whose
 * cookie does not resolve, goes through the full session stack.
 */
export function readOnlySessions(reader: SessionReader, stack: Middleware[]): RequestStep {
  const sessionStack = inOneHook(stack.map((middleware) => onRawRequest(middleware)));
  const full: RequestStep = (request, reply, next) =>
    sessionStack(request, reply, (error) => {
      if (error) return next(error);
      const app = request as AppRequest;
      const req = request.raw as SessionRequest;
      app.user = req.user;
      app.session = req.session;
      app.sessionID = req.sessionID;
      next();
    });
  return (request, reply, next) => {
    const req = request.raw as SessionRequest;
    // a request with a bearer token and no cookie is judged by its token alone (the access guard): it never reads,
    // creates or sets a session
    if (isBearerWithoutCookie(req)) return next();
    // the test reads the URL as it came: its prefixes end before any query
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.headers.cookie || WRITES_SESSION.test(req.url!))
      return full(request, reply, next);
    const cached = reader.cachedUserOf(req);
    if (cached) {
      req.user = (request as AppRequest).user = cached;
      return next();
    }
    reader
      .userOf(req)
      .then((user) => {
        if (!user) return full(request, reply, next);
        req.user = (request as AppRequest).user = user;
        next();
      })
      .catch(next);
  };
}

/** The request properties the session step sets (readOnlySessions), declared once for Fastify's request objects. */
export function exposeSession(http: FastifyInstance) {
  http.decorateRequest('user', undefined);
  http.decorateRequest('session', undefined);
  http.decorateRequest('sessionID', undefined);
  http.decorateRequest('apiToken', undefined);
}

/**
 * Signs the account in on the request's session (a new session id, against fixation) and as its user, and keeps
 * the client it signed in from (user agent, address) for the person's list of sessions.
 */
export async function signIn(req: AppRequest, user: SessionUser): Promise<void> {
  const raw = req.raw as SessionRequest;
  await new Promise<void>((resolve, reject) => raw.logIn!(user, (error) => (error ? reject(error) : resolve())));
  req.user = user;
  req.session = raw.session;
  req.sessionID = raw.sessionID;
  const session = raw.session!;
  session.client = clientOf(req.headers['user-agent'], req.ip);
  await new Promise<void>((resolve, reject) => session.save((error: unknown) => (error ? reject(error) : resolve())));
}

/** Signs the request's account out and ends its session. */
export async function signOut(req: AppRequest): Promise<void> {
  const raw = req.raw as SessionRequest;
  await new Promise<void>((resolve, reject) => raw.logout!((error) => (error ? reject(error) : resolve())));
  await new Promise<void>((resolve) => (raw.session ? raw.session.destroy(() => resolve()) : resolve()));
  req.user = undefined;
}
