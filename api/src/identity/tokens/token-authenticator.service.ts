import { hash } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit, UnauthorizedException } from '@nestjs/common';
import { hasPermission, PERMISSIONS } from '@cbh/contracts';
import { APP_CONFIG, type AppConfig, RealtimeBus, RetryLater } from '../../platform';
import { UserDirectory } from '../auth/user-directory.service';
import type { SessionUser, TokenCredential } from '../auth/session-user';
import type { ApiTokenEntity } from './entities/api-token.entity';
import { TokenRateLimiter } from './token-rate-limiter';
import { TokensRepository } from './tokens.repository';

/** How long a token read from the table is trusted without reading it again (revocation evicts it at once). */
const TTL_MS = 10_000;
/** Token look-ups remembered at most, found or not; emptied when full. */
const CACHED_TOKENS = 10_000;
/** A token's last use is written at most this often by one replica (the table also refuses more than once a minute). */
const TOUCH_EVERY_MS = 60_000;

/** Unknown, revoked and malformed tokens, and tokens of an account that is gone or inactive: one answer for all. */
export const INVALID_TOKEN_MESSAGE = 'The access token is not valid';

/** A request's account as a token sees it. */
export interface TokenAuthentication {
  user: SessionUser;
  token: TokenCredential;
  /** The token's own permissions, kept so a socket can judge them again when its owner changes. */
  permissions: string[];
  expiresAt: number;
}

/** The SHA-256 of a whole token, hex: what the table keeps and is searched by. */
export function tokenHash(token: string): string {
  // the one-shot hash: no Hash object per request
  return hash('sha256', token, 'hex');
}

/**
 * What a token may do: the permissions it was given that its owner still holds. A super_admin's token acts as a
 * super_admin only while it carries every permission; a narrower one acts as an admin holding exactly its list,
 * since a super_admin role would pass every permission check whatever the list says.
 */
export function tokenUser(owner: SessionUser, tokenPermissions: readonly string[]): SessionUser {
  const permissions = PERMISSIONS.filter((permission) => tokenPermissions.includes(permission) && hasPermission(owner, permission));
  const role = owner.role === 'super_admin' && permissions.length < PERMISSIONS.length ? 'admin' : owner.role;
  return { ...owner, role, permissions };
}

/**
 * Authenticates `Authorization: Bearer <token>`. A token is found by the hash of the whole string (never compared
 * character by character), read from memory for a few seconds like sessions are; a revocation on any replica
 * evicts it everywhere at once (the token-revoked message), and an owner's change is seen through the account
 * directory, which userChanged evicts. Every look-up hashes and searches the same way whatever the string is, so
 * unknown, revoked and malformed tokens answer alike.
 */
@Injectable()
export class TokenAuthenticator implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(TokenAuthenticator.name);
  private readonly cache = new Map<string, { token: ApiTokenEntity | null; until: number }>();
  /** userOf's accounts, by owner and token object. */
  private readonly tokenUsers = new WeakMap<SessionUser, WeakMap<ApiTokenEntity, SessionUser>>();
  /** Tokens revoked lately, so a look-up that was already on its way does not put one back in the cache. */
  private readonly revoked = new Map<string, number>();
  private readonly touched = new Map<string, number>();
  /** Counts forgetAll()s, so a look-up that was on its way during one does not put a copy read before it in the cache. */
  private generation = 0;
  readonly limiter: TokenRateLimiter;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: TokensRepository,
    private readonly directory: UserDirectory,
    private readonly bus: RealtimeBus,
  ) {
    this.limiter = new TokenRateLimiter(repository, () => this.config.TOKEN_RATE_LIMIT);
  }

  onModuleInit() {
    this.bus.subscribeInternal('token-revoked', ({ data }) => this.forget(String(data)));
    // a lowered longest token lifetime shortens tokens in the table: no replica keeps a copy with the old expiry
    this.bus.subscribeInternal('organization-changed', () => this.forgetAll());
  }

  onApplicationShutdown() {
    this.limiter.stop();
  }

  /** Drops every copy of a revoked token here. */
  forget(id: string) {
    const now = Date.now();
    for (const [hash, entry] of this.cache) if (entry.token?.id === id) this.cache.delete(hash);
    this.revoked.set(id, now + TTL_MS);
    for (const [revokedId, until] of this.revoked) if (until <= now) this.revoked.delete(revokedId);
    this.limiter.forget(id);
    this.touched.delete(id);
  }

  /** Drops every cached token here; each is read from the table again at its next use. */
  forgetAll() {
    this.cache.clear();
    this.generation++;
  }

  /**
   * The account a token acts as and what it may do; a 401 for a token that is not valid (one message for
   * every reason but expiry, which says so), a 429 with the seconds to wait once it used its minute.
   */
  async authenticate(secret: string, from: string | null): Promise<TokenAuthentication & { retryAfter: number }> {
    // what memory holds is read without awaiting: each await is a turn of the microtask queue on every request
    const hash = tokenHash(secret);
    const cached = this.cachedToken(hash);
    const token = cached === undefined ? await this.lookup(hash) : cached;
    if (!token) throw new UnauthorizedException(INVALID_TOKEN_MESSAGE);
    if (token.expiresAt.getTime() <= Date.now()) {
      throw new UnauthorizedException(`The access token expired on ${token.expiresAt.toISOString()}; create a new one`);
    }
    const owner = this.directory.cached(token.userId) ?? (await this.directory.get(token.userId));
    if (!owner?.isActive) throw new UnauthorizedException(INVALID_TOKEN_MESSAGE);
    const retryAfter = this.limiter.takeCounted(token.id) ?? (await this.limiter.take(token.id));
    if (retryAfter === 0) this.touch(token.id, from);
    return {
      user: this.userOf(owner, token),
      token: { id: token.id, name: token.name, prefix: token.prefix, userId: token.userId },
      permissions: token.permissions,
      expiresAt: token.expiresAt.getTime(),
      retryAfter,
    };
  }

  /**
   * The account a token acts as, built once per (owner, token) pair of cached objects: the directory and the token
   * cache each replace their object when it changes, so a pair never outlives what it was built from.
   */
  private userOf(owner: SessionUser, token: ApiTokenEntity): SessionUser {
    let byToken = this.tokenUsers.get(owner);
    if (!byToken) this.tokenUsers.set(owner, (byToken = new WeakMap()));
    let user = byToken.get(token);
    if (!user) byToken.set(token, (user = tokenUser(owner, token.permissions)));
    return user;
  }

  /** authenticate's 429 when the token used its minute, with its Retry-After (an HTTP request's or a WebSocket upgrade's). */
  rateLimited(retryAfter: number): RetryLater {
    return new RetryLater(
      `This access token made ${this.config.TOKEN_RATE_LIMIT} requests this minute, the most one token may (TOKEN_RATE_LIMIT); try again in ${retryAfter} s`,
      retryAfter,
    );
  }

  /** Which of these tokens still exist and have not expired, read from the table. */
  live(ids: readonly string[]): Promise<Set<string>> {
    return this.repository.live(ids);
  }

  /** The token read lately (null: no such token), undefined when it must be read from the table. */
  private cachedToken(hash: string): ApiTokenEntity | null | undefined {
    const hit = this.cache.get(hash);
    return hit && hit.until > Date.now() ? hit.token : undefined;
  }

  /** The token read from the table, and kept for TTL_MS (see cachedToken). */
  private async lookup(hash: string): Promise<ApiTokenEntity | null> {
    const generation = this.generation;
    const token = await this.repository.findByHash(hash);
    if (token && this.revoked.has(token.id)) return null;
    if (generation !== this.generation) return token;
    if (this.cache.size >= CACHED_TOKENS) this.cache.clear();
    this.cache.set(hash, { token, until: Date.now() + TTL_MS });
    return token;
  }

  private touch(id: string, from: string | null) {
    const now = Date.now();
    if ((this.touched.get(id) ?? 0) + TOUCH_EVERY_MS > now) return;
    if (this.touched.size >= CACHED_TOKENS) this.touched.clear();
    this.touched.set(id, now);
    this.repository.touch(id, from).catch((error: Error) => this.logger.warn(`token use not recorded: ${error.message}`));
  }
}
