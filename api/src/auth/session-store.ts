import { Store, type SessionData } from 'express-session';
import { isDatabaseUnavailable, STALE_WHILE_UNAVAILABLE_MS } from '../database/database-unavailable';
import type { SessionsRepository } from './sessions.repository';

export const SESSION_COOKIE = 'cbh.sid';
const CACHE_TTL_MS = 10_000;
/** Sessions one account keeps at most: signing in once more ends its oldest, so sign-ins cannot grow the table. */
const SESSIONS_PER_ACCOUNT = 20;
/** The store's event for a session it ended itself (an account's oldest, past SESSIONS_PER_ACCOUNT); with its sessionKey. */
export const SESSION_ENDED = 'ended';

type Callback<T = void> = (error: unknown, value?: T) => void;

/** The id of the account a session is signed in as (passport keeps it in the session), if any. */
export function signedInUserId(session: SessionData | null | undefined): string | undefined {
  return (session as { passport?: { user?: string } } | null | undefined)?.passport?.user;
}

/**
 * express-session's store on the sessions table, with the user id in a column so an account's sessions can
 * be ended together. Reads are cached in memory for a few seconds, so hot authenticated reads cost no
 * database round-trip; sessions are never touched on read (the cookie's expiry is fixed at sign-in).
 */
export class PgSessionStore extends Store {
  private readonly cache = new Map<string, { session: SessionData; until: number }>();
  /** Ended sessions' keys, so a read of one that was already on its way does not put it back in the cache. */
  private readonly ended = new Map<string, number>();

  constructor(
    private readonly sessions: SessionsRepository,
    /** How replicas name a session to each other (sessionKey): a hash of its id. */
    private readonly keyOf: (sid: string) => string,
  ) {
    super();
  }

  /** The cached session, if read from the table in the last few seconds; undefined otherwise. */
  cached(sid: string): SessionData | undefined {
    const hit = this.cache.get(sid);
    return hit && hit.until > Date.now() ? hit.session : undefined;
  }

  get(sid: string, callback: Callback<SessionData | null>) {
    const hit = this.cache.get(sid);
    if (hit && hit.until > Date.now()) return callback(null, hit.session);
    this.sessions.findLive(sid).then(
      (session) => {
        if (session && !this.ended.has(this.keyOf(sid))) this.cache.set(sid, { session, until: Date.now() + CACHE_TTL_MS });
        callback(null, session);
      },
      (error: unknown) => {
        // the database is away: a session confirmed lately and not expired still reads (see STALE_WHILE_UNAVAILABLE_MS)
        const expires = hit?.session.cookie?.expires;
        const usable = hit && hit.until + STALE_WHILE_UNAVAILABLE_MS > Date.now() && (!expires || new Date(expires).getTime() > Date.now());
        if (usable && isDatabaseUnavailable(error)) callback(null, hit.session);
        else callback(error);
      },
    );
  }

  set(sid: string, session: SessionData, callback: Callback = () => undefined) {
    const expires = session.cookie.expires ? new Date(session.cookie.expires) : new Date(Date.now() + 86_400_000);
    const userId = signedInUserId(session) ?? null;
    this.sessions
      .save({ sid, userId, data: session, expiresAt: expires })
      .then(() => {
        this.cache.set(sid, { session, until: Date.now() + CACHE_TTL_MS });
        return userId ? this.endOldestOf(userId) : undefined;
      })
      .then(() => callback(null), callback);
  }

  /**
   * Ends the account's sessions past its newest SESSIONS_PER_ACCOUNT, and names each in a SESSION_ENDED event so
   * that every replica drops its copy and closes its sockets, as at sign-out.
   */
  private async endOldestOf(userId: string) {
    for (const sid of await this.sessions.deleteOldestOfUser(userId, SESSIONS_PER_ACCOUNT)) {
      this.cache.delete(sid);
      this.emit(SESSION_ENDED, this.keyOf(sid));
    }
  }

  destroy(sid: string, callback: Callback = () => undefined) {
    this.cache.delete(sid);
    this.sessions.delete(sid).then(() => callback(null), callback);
  }

  /**
   * Forgets the cached copy of a session that ended on another replica (named by sessionKey, a hash of its id):
   * its next request here reads the table and finds it gone, with no window left by the cache.
   */
  forgetEnded(key: string) {
    const now = Date.now();
    for (const [sid, entry] of this.cache) {
      if (entry.until + STALE_WHILE_UNAVAILABLE_MS <= now || this.keyOf(sid) === key) this.cache.delete(sid);
    }
    this.ended.set(key, now + CACHE_TTL_MS);
    for (const [endedKey, until] of this.ended) if (until <= now) this.ended.delete(endedKey);
  }

  /** Which of these sessions still exist and have not expired, read from the table, not the cache. */
  live(sids: readonly string[]): Promise<Set<string>> {
    return this.sessions.live(sids);
  }

  /** Forgets every cached session of an account whose sessions ended or changed on another replica. */
  forgetUser(userId: string) {
    for (const [sid, { session }] of this.cache) {
      if (signedInUserId(session) === userId) this.cache.delete(sid);
    }
  }

  /** Ends every session of an account (deactivation, deletion). */
  async destroyForUser(userId: string): Promise<number> {
    const sids = await this.sessions.deleteForUser(userId);
    for (const sid of sids) this.cache.delete(sid);
    this.forgetUser(userId);
    return sids.length;
  }
}
