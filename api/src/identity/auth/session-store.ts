import { Store, type SessionData } from 'express-session';
import { USER_AGENT_MAX_LENGTH } from '@cbh/contracts';
import { isDatabaseUnavailable, STALE_WHILE_UNAVAILABLE_MS } from '../../platform';
import type { SessionsRepository } from './sessions.repository';

export const SESSION_COOKIE = 'cbh.sid';
/** The Set-Cookie value that removes the session cookie from the browser. */
export const CLEARED_SESSION_COOKIE = `${SESSION_COOKIE}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
const CACHE_TTL_MS = 10_000;
/** Sessions one account keeps at most: signing in once more ends its oldest, so sign-ins cannot grow the table. */
const SESSIONS_PER_ACCOUNT = 20;
/** The store's event for a session it ended itself (an account's oldest, past SESSIONS_PER_ACCOUNT); with its sessionKey. */
export const SESSION_ENDED = 'ended';

/** How often a replica writes when its sessions were last seen (each row at most once a minute, see recordSeen). */
export const SEEN_FLUSH_EVERY_MS = 15_000;
/**
 * How far behind a session's last_seen_at may be, seen from another replica: a minute between writes of a row, plus
 * a replica's pending reports. A session is judged idle only after this much more, so none ends early.
 */
export const IDLE_GRACE_MS = 60_000 + SEEN_FLUSH_EVERY_MS;

type Callback<T = void> = (error: unknown, value?: T) => void;

declare module 'express-session' {
  interface SessionData {
    /** The client that signed in, for the list of one's sessions: kept in columns too. */
    client?: { userAgent: string | null; address: string | null };
  }
}

/** The client a session signs in from, bounded as the sessions table keeps it. */
export function clientOf(userAgent: string | undefined, address: string | undefined): NonNullable<SessionData['client']> {
  return { userAgent: userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null, address: address ?? null };
}

/** The id of the account a session is signed in as (passport keeps it in the session), if any. */
export function signedInUserId(session: SessionData | null | undefined): string | undefined {
  return (session as { passport?: { user?: string } } | null | undefined)?.passport?.user;
}

/**
 * express-session's store on the sessions table, with the user id in a column so an account's sessions can
 * be ended together. Reads are cached in memory for a few seconds, so hot authenticated reads cost no
 * database round-trip; sessions are never touched on read (the cookie's expiry is fixed at sign-in). When a
 * signed-in session was last seen is noted in memory and written for many at once (flushSeen), at most once a
 * minute per session; with an idle limit, a session not seen for longer ends at its next request.
 */
export class PgSessionStore extends Store {
  private readonly cache = new Map<string, { session: SessionData; lastSeenAt: number; until: number }>();
  /** When this replica last served each signed-in session, since its last flushSeen. */
  private readonly seen = new Map<string, number>();
  /** The organisation's idle limit in ms (OrganizationSettings sets it); null: none. */
  private idleLimitMs: number | null = null;
  /** Ended sessions' keys, so a read of one that was already on its way does not put it back in the cache. */
  private readonly ended = new Map<string, number>();

  constructor(
    private readonly sessions: SessionsRepository,
    /** How replicas name a session to each other (sessionKey): a hash of its id. */
    private readonly keyOf: (sid: string) => string,
  ) {
    super();
  }

  /**
   * The idle limit every replica applies: a change drops the cached sessions, so each is judged by the new limit at
   * its next request.
   */
  setIdleLimit(ms: number | null) {
    if (ms === this.idleLimitMs) return;
    this.idleLimitMs = ms;
    this.cache.clear();
  }

  /** The idle limit with IDLE_GRACE_MS added, as the table is asked about it; null without a limit. */
  idleCutoffMs(): number | null {
    return this.idleLimitMs === null ? null : this.idleLimitMs + IDLE_GRACE_MS;
  }

  /** When a session was last seen: the table's time or this replica's later, unwritten one. */
  lastSeenAt(sid: string, stored: number): number {
    return Math.max(stored, this.seen.get(sid) ?? 0);
  }

  private isIdle(sid: string, lastSeenAt: number): boolean {
    const cutoff = this.idleCutoffMs();
    return cutoff !== null && this.lastSeenAt(sid, lastSeenAt) + cutoff < Date.now();
  }

  /** Notes a request of a signed-in session: nothing is written until flushSeen. */
  private served(sid: string, session: SessionData) {
    if (signedInUserId(session)) this.seen.set(sid, Date.now());
  }

  /** Writes when the sessions served since the last flush were seen (every SEEN_FLUSH_EVERY_MS, AuthHousekeeping). */
  async flushSeen(): Promise<void> {
    if (this.seen.size === 0) return;
    const seen = new Map(this.seen);
    this.seen.clear();
    await this.sessions.recordSeen(seen, this.idleCutoffMs());
  }

  /** The cached session, if read from the table in the last few seconds and not idle; undefined otherwise. */
  cached(sid: string): SessionData | undefined {
    const hit = this.cache.get(sid);
    if (!hit || hit.until <= Date.now() || this.isIdle(sid, hit.lastSeenAt)) return undefined;
    this.served(sid, hit.session);
    return hit.session;
  }

  get(sid: string, callback: Callback<SessionData | null>) {
    const hit = this.cache.get(sid);
    if (hit && hit.until > Date.now() && !this.isIdle(sid, hit.lastSeenAt)) {
      this.served(sid, hit.session);
      return callback(null, hit.session);
    }
    this.readFromTable(sid).then(
      (session) => callback(null, session),
      (error: unknown) => {
        // the database is away: a session confirmed lately and not expired still reads (see STALE_WHILE_UNAVAILABLE_MS)
        const expires = hit?.session.cookie?.expires;
        const usable = hit && hit.until + STALE_WHILE_UNAVAILABLE_MS > Date.now() && (!expires || new Date(expires).getTime() > Date.now());
        if (usable && isDatabaseUnavailable(error)) callback(null, hit.session);
        else callback(error);
      },
    );
  }

  /** Reads a session from the table; one idle past the limit is ended there (once, on whichever replica asks first). */
  private async readFromTable(sid: string): Promise<SessionData | null> {
    let found = await this.sessions.findLive(sid);
    const cutoff = this.idleCutoffMs();
    if (found && signedInUserId(found.data) && cutoff !== null && this.isIdle(sid, found.lastSeenAt.getTime())) {
      if (await this.sessions.deleteIfIdle(sid, cutoff)) {
        this.seen.delete(sid);
        this.emit(SESSION_ENDED, this.keyOf(sid));
        return null;
      }
      // seen meanwhile on another replica, or ended there: the table says which
      found = await this.sessions.findLive(sid);
    }
    if (!found) return null;
    if (!this.ended.has(this.keyOf(sid))) {
      this.cache.set(sid, { session: found.data, lastSeenAt: found.lastSeenAt.getTime(), until: Date.now() + CACHE_TTL_MS });
    }
    this.served(sid, found.data);
    return found.data;
  }

  set(sid: string, session: SessionData, callback: Callback = () => undefined) {
    const expires = session.cookie.expires ? new Date(session.cookie.expires) : new Date(Date.now() + 86_400_000);
    const userId = signedInUserId(session) ?? null;
    this.sessions
      .save({
        sid,
        userId,
        data: session,
        expiresAt: expires,
        userAgent: session.client?.userAgent ?? null,
        address: session.client?.address ?? null,
      })
      .then(() => {
        const lastSeenAt = this.cache.get(sid)?.lastSeenAt ?? Date.now();
        this.cache.set(sid, { session, lastSeenAt, until: Date.now() + CACHE_TTL_MS });
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
    this.seen.delete(sid);
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

  /** Which of these sessions still exist, have not expired and are not idle, read from the table, not the cache. */
  live(sids: readonly string[]): Promise<Set<string>> {
    return this.sessions.live(sids, this.idleCutoffMs());
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
