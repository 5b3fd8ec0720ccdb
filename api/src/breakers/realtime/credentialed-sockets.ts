import { Logger } from '@nestjs/common';
import type { WebSocket } from 'ws';
import { WS_SIGNED_OUT_CLOSE } from '@cbh/contracts';
import { type PgSessionStore, type SessionUser, type TokenAuthenticator, tokenKey, type UserDirectory } from '../../identity';
import type { PeriodicWork, RealtimeBus, Repeating } from '../../platform';

/** The longest a timer can wait in Node; a credential expiring later is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Every socket's session or token, and its account, are checked against the database this often, whatever messages said. */
const REVALIDATE_EVERY_MS = 60_000;
/**
 * An account's change, and a session's or token's end, are remembered this long: a socket whose upgrade read them
 * before the message was heard, and that is added after the sockets it concerns were refreshed or closed, is
 * refreshed or closed as it is added.
 */
const REMEMBERED_MS = 10_000;
/** Changes and ends remembered at most, each, before the old ones are let go. */
const REMEMBERED_AT_MOST = 1000;

/** Remembers `key` at `now`, and lets go of keys older than REMEMBERED_MS once the map holds REMEMBERED_AT_MOST. */
function remember<V extends { at: number }>(map: Map<string, V>, key: string, value: V) {
  if (map.size >= REMEMBERED_AT_MOST) {
    for (const [old, { at }] of map) if (value.at - at >= REMEMBERED_MS) map.delete(old);
    if (map.size >= REMEMBERED_AT_MOST) map.clear();
  }
  map.set(key, value);
}

/** What a map remembers of `key`, if it was heard within REMEMBERED_MS. */
const recent = <V extends { at: number }>(map: Map<string, V>, key: string, now: number) => {
  const value = map.get(key);
  return value !== undefined && now - value.at < REMEMBERED_MS ? value : undefined;
};

/** What a socket opened with a session or a token holds, as CredentialedSockets keeps it. */
export interface Credentialed {
  user: SessionUser;
  /** The session's or the token's key (sessionKey, tokenKey): its sockets close when it ends, on whichever replica. */
  key: string;
  /** The session's id, never sent anywhere: to ask the table whether the session still lives (a socket opened with a cookie). */
  sid?: string;
  /** A socket opened with a token: which one, and the permissions it was given. */
  token?: { id: string; permissions: string[] };
  expiry?: NodeJS.Timeout;
}

/** What CredentialedSockets reads the credentials' fate from. */
export interface CredentialSources {
  work: PeriodicWork;
  bus: RealtimeBus;
  /** The sessions' table; a book of sockets opened only with tokens asks none. */
  sessions?: Pick<PgSessionStore, 'live'>;
  tokens: Pick<TokenAuthenticator, 'live'>;
  directory: Pick<UserDirectory, 'evict' | 'get'>;
}

export interface CredentialedSocketsOptions<E extends Credentialed> {
  /** What its sockets are called in the log ("sockets", "agent streams"). */
  noun: string;
  /** Why a socket whose account was deactivated or deleted is closed (its close reason). */
  deactivated: string;
  /** An account still active changed (its role, its permissions): what its sockets take of it. */
  accountChanged?: (entry: E, fresh: SessionUser) => void;
}

/**
 * A replica's sockets opened with a session or a token (the /ws gateway's and the agents' streams), each closed
 * (WS_SIGNED_OUT_CLOSE) as soon as what opened it no longer would: its session ended or its token was revoked on any
 * replica (messages on the bus), its cookie or token expired (a timer), its account was deactivated or deleted. The
 * table decides after every reconnection of the bus and every minute besides, as messages can be lost. Each key's
 * sockets are counted as they come and go, for the upgrade's limits.
 */
export class CredentialedSockets<E extends Credentialed> {
  readonly entries = new Map<WebSocket, E>();
  private readonly perKey = new Map<string, number>();
  private readonly logger = new Logger(CredentialedSockets.name);
  private revalidating?: Repeating;
  /** Accounts changed lately: when each was heard (ms). */
  private readonly changed = new Map<string, { at: number }>();
  /** Sessions and tokens ended lately, by key: when, and why. */
  private readonly ended = new Map<string, { at: number; reason: string }>();

  constructor(
    private readonly sources: CredentialSources,
    private readonly options: CredentialedSocketsOptions<E>,
  ) {}

  /** Listens for the credentials' ends, and rechecks them every minute and after the bus reconnects. */
  start(): void {
    const { bus, work } = this.sources;
    bus.subscribeInternal('session-ended', ({ data }) => this.ends(String(data), 'Signed out'));
    bus.subscribeInternal('token-revoked', ({ data }) => this.ends(tokenKey(String(data)), 'Token revoked'));
    bus.subscribeBatches((envelopes) => {
      for (const { message } of envelopes) if (message.type === 'userChanged') this.accountChanged(message.data.userId);
    });
    // revalidate() reports its own failures
    this.revalidating = work.every(REVALIDATE_EVERY_MS, () => this.revalidate());
    // messages lost while the connection was down may be newer than a pass going on: one more pass follows it
    bus.onReconnect(() => void this.revalidating?.runAgain());
  }

  stop(): void {
    void this.revalidating?.stop();
  }

  get size(): number {
    return this.entries.size;
  }

  /** How many sockets a session or token holds here (its key). */
  countOf(key: string): number {
    return this.perKey.get(key) ?? 0;
  }

  /** A socket accepted; it closes at `expiresAt` (ms) when its credential expires then. */
  add(socket: WebSocket, entry: E, expiresAt: number | null): void {
    this.entries.set(socket, entry);
    this.perKey.set(entry.key, this.countOf(entry.key) + 1);
    if (expiresAt !== null) this.closeAt(socket, entry, expiresAt);
    const now = Date.now();
    const ended = recent(this.ended, entry.key, now);
    if (ended) this.close(socket, ended.reason);
    else if (recent(this.changed, entry.user.id, now)) void this.refreshAccount(entry.user.id);
  }

  /** A socket leaves the books (once, however many of close, terminate and disconnect follow). */
  forget(socket: WebSocket): void {
    const entry = this.entries.get(socket);
    if (!entry) return;
    clearTimeout(entry.expiry);
    this.entries.delete(socket);
    const left = this.countOf(entry.key) - 1;
    if (left > 0) this.perKey.set(entry.key, left);
    else this.perKey.delete(entry.key);
  }

  close(socket: WebSocket, reason: string, code = WS_SIGNED_OUT_CLOSE): void {
    this.forget(socket);
    socket.close(code, reason);
  }

  /** The sockets of a session that ended or a token revoked (on any replica) close, as its HTTP requests are refused. */
  closeKey(key: string, reason: string): void {
    for (const [socket, entry] of this.entries) if (entry.key === key) this.close(socket, reason);
  }

  /** Shutting down: every socket closes with `code` (going away), and the books are emptied. */
  closeAll(code: number, reason: string): void {
    for (const [socket, entry] of this.entries) {
      clearTimeout(entry.expiry);
      socket.close(code, reason);
    }
    this.entries.clear();
    this.perKey.clear();
  }

  /** Closes the sockets whose session or token the tables no longer have, and reads every account that holds one again. */
  async revalidate(): Promise<void> {
    if (this.entries.size === 0) return;
    try {
      const entries = [...this.entries.values()];
      const sids = [...new Set(entries.flatMap((entry) => (entry.token || entry.sid === undefined ? [] : [entry.sid])))];
      const tokenIds = [...new Set(entries.flatMap((entry) => (entry.token ? [entry.token.id] : [])))];
      const liveSessions = sids.length > 0 && this.sources.sessions ? await this.sources.sessions.live(sids) : new Set<string>();
      const liveTokens = tokenIds.length > 0 ? await this.sources.tokens.live(tokenIds) : new Set<string>();
      for (const [socket, entry] of this.entries) {
        if (entry.token ? !liveTokens.has(entry.token.id) : !liveSessions.has(entry.sid ?? ''))
          this.close(socket, entry.token ? 'Token revoked' : 'Signed out');
      }
      // each account read once, with its sockets found in one walk of them all
      const byAccount = new Map<string, [WebSocket, E][]>();
      for (const held of this.entries) {
        const userId = held[1].user.id;
        const list = byAccount.get(userId);
        if (list) list.push(held);
        else byAccount.set(userId, [held]);
      }
      for (const [userId, held] of byAccount) await this.refresh(userId, held);
    } catch (error) {
      this.logger.warn(`${this.options.noun} not revalidated: ${(error as Error).message}`);
    }
  }

  /** An account changed (on any replica, a userChanged on the bus): its sockets here are refreshed, now and as they come. */
  accountChanged(userId: string): void {
    remember(this.changed, userId, { at: Date.now() });
    void this.refreshAccount(userId);
  }

  /** A session ended or a token was revoked (on any replica): its sockets close, now and as they come. */
  ends(key: string, reason: string): void {
    remember(this.ended, key, { at: Date.now(), reason });
    this.closeKey(key, reason);
  }

  /**
   * An account changed (on any replica): its sockets here take what changed, and a deactivated or deleted account's
   * sockets close, as its HTTP requests are refused already.
   */
  async refreshAccount(userId: string): Promise<void> {
    const held = [...this.entries].filter(([, entry]) => entry.user.id === userId);
    if (held.length > 0) await this.refresh(userId, held);
  }

  /** The account read again, and the sockets it held when asked that are still open take what it is now. */
  private async refresh(userId: string, held: readonly [WebSocket, E][]): Promise<void> {
    this.sources.directory.evict(userId);
    const fresh = await this.sources.directory.get(userId).catch(() => undefined);
    if (fresh === undefined) return; // database unreachable: keep what we have rather than guess
    for (const [socket, entry] of held) {
      if (this.entries.get(socket) !== entry) continue;
      if (fresh && fresh.isActive) this.options.accountChanged?.(entry, fresh);
      else this.close(socket, this.options.deactivated);
    }
  }

  /** A cookie or token expires at a fixed time: its sockets close then, as its HTTP requests start to be refused. */
  private closeAt(socket: WebSocket, entry: E, expiresAt: number): void {
    const wait = expiresAt - Date.now();
    entry.expiry = setTimeout(
      () =>
        wait > MAX_TIMER_MS
          ? this.closeAt(socket, entry, expiresAt)
          : this.close(socket, entry.token ? 'Token expired' : 'Session expired'),
      Math.max(0, Math.min(wait, MAX_TIMER_MS)),
    );
    entry.expiry.unref();
  }
}
