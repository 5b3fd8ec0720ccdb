import { randomBytes } from 'node:crypto';
import { BadRequestException, HttpException, HttpStatus, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  type ApiTokenView,
  type CreatedApiTokenView,
  heldPermissions,
  PERMISSIONS,
  TOKEN_PREFIX,
  TOKEN_SHOWN_LENGTH,
  TOKENS_PER_ACCOUNT,
} from '@cbh/contracts';
import { AuditService } from '../audit/audit.service';
import { OrganizationSettings } from '../organization/organization-settings.service';
import type { AppRequest, SessionUser } from '../auth/session-user';
import { RealtimeBus } from '../../platform';
import { toTokenView, type ApiTokenEntity } from './entities/api-token.entity';
import { TokenAuthenticator, tokenHash } from './token-authenticator.service';
import { TokensRepository } from './tokens.repository';

/** Bytes of randomness in a token: 256 bits, so a hash of it is as safe to keep as a slow password hash would be. */
const TOKEN_BYTES = 32;

/**
 * Whose tokens a call deals with: by default the signed-in account's own; a service account's when a user manager
 * handles them, and then the changes are audited as changes of the service account.
 */
export interface TokenOwner {
  account: SessionUser;
  serviceAccount?: { id: string; name: string };
}

/** How refusals name the owner. */
function wordsFor(owner: TokenOwner): { lacks: string; alreadyHolds: string } {
  const name = owner.serviceAccount?.name;
  return name === undefined
    ? { lacks: 'you do not hold', alreadyHolds: 'You already hold' }
    : { lacks: `the service account '${name}' does not hold`, alreadyHolds: `The service account '${name}' already holds` };
}

/**
 * What the audit entry of a token change is about: the token itself, or the service account that owns it (then
 * the entry's before or after names the token by id too).
 */
function auditedAs(owner: TokenOwner, verb: 'create' | 'revoke', tokenId: string) {
  return owner.serviceAccount
    ? { action: `service_account.token.${verb}`, targetType: 'service_account', targetId: owner.serviceAccount.id, token: { tokenId } }
    : { action: `token.${verb}`, targetType: 'api_token', targetId: tokenId, token: {} };
}

/**
 * Access tokens: an account's own, created in its session, listed without their secret, revoked; and the same for
 * service accounts, whose tokens user managers handle.
 */
@Injectable()
export class TokensService {
  private readonly logger = new Logger(TokensService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: TokensRepository,
    private readonly authenticator: TokenAuthenticator,
    private readonly audit: AuditService,
    private readonly bus: RealtimeBus,
    private readonly organization: OrganizationSettings,
  ) {}

  /** Refuses a token lifetime beyond the organisation's limit: one rule for every kind of token this API issues. */
  async assertLifetimeAllowed(expiresInDays: number): Promise<void> {
    const { maxTokenDays } = await this.organization.current();
    if (expiresInDays > maxTokenDays) {
      throw new BadRequestException(`expiresInDays: must be at most ${maxTokenDays} days, the organisation's limit for access tokens`);
    }
  }

  async create(
    req: AppRequest,
    body: { name: string; expiresInDays: number; permissions?: string[] | undefined; remotes?: string[] | undefined },
    owner: TokenOwner = { account: req.user! },
  ): Promise<CreatedApiTokenView> {
    const held = heldPermissions(owner.account);
    const words = wordsFor(owner);
    // a token narrows what its owner may do, never widens it
    const permissions = body.permissions ? PERMISSIONS.filter((permission) => body.permissions!.includes(permission)) : held;
    const lacking = permissions.filter((permission) => !held.includes(permission));
    if (lacking.length) throw new BadRequestException(`permissions: ${words.lacks} ${lacking.join(', ')}`);
    await this.assertLifetimeAllowed(body.expiresInDays);
    const secret = TOKEN_PREFIX + randomBytes(TOKEN_BYTES).toString('base64url');
    const prefix = secret.slice(0, TOKEN_SHOWN_LENGTH);
    const token = await this.dataSource.transaction(async (manager) => {
      const created = await this.repository.insertWithinCap(
        manager,
        {
          userId: owner.account.id,
          name: body.name,
          tokenHash: tokenHash(secret),
          prefix,
          permissions,
          remotes: body.remotes ?? null,
          expiresInDays: body.expiresInDays,
        },
        TOKENS_PER_ACCOUNT,
      );
      if (created === 'gone') throw new NotFoundException('The account was deleted meanwhile');
      if (created === 'full') {
        throw new HttpException(
          `${words.alreadyHolds} ${TOKENS_PER_ACCOUNT} access tokens, the most one account may; revoke one first`,
          HttpStatus.TOO_MANY_REQUESTS,
        );
      }
      const { token: named, ...about } = auditedAs(owner, 'create', created.id);
      await this.audit.record(
        req,
        {
          ...about,
          after: {
            ...named,
            name: created.name,
            prefix,
            permissions,
            remotes: created.remotes,
            expiresAt: created.expiresAt.toISOString(),
          },
        },
        manager,
      );
      return created;
    });
    const view = toTokenView(token);
    return {
      id: view.id,
      name: view.name,
      token: secret,
      prefix,
      permissions: view.permissions,
      remotes: view.remotes,
      expiresAt: view.expiresAt,
      createdAt: view.createdAt,
    };
  }

  async list(ownerId: string): Promise<ApiTokenView[]> {
    return (await this.repository.listOf(ownerId)).map(toTokenView);
  }

  /** Revokes one of the owner's tokens; someone else's is answered as one that does not exist. */
  async revoke(req: AppRequest, id: string, owner: TokenOwner = { account: req.user! }): Promise<void> {
    const removed = await this.dataSource.transaction(async (manager) => {
      const token = await this.repository.deleteOwned(manager, id, owner.account.id);
      if (!token) throw new NotFoundException('No such access token');
      const { token: named, ...about } = auditedAs(owner, 'revoke', token.id);
      await this.audit.record(req, { ...about, before: { ...named, name: token.name, prefix: token.prefix } }, manager);
      return token;
    });
    await this.announceRevoked([removed.id]);
  }

  /**
   * Revokes every token of `userId` within the caller's transaction: signing an account out everywhere takes its
   * tokens too, since a token made from a stolen session outlives the session. announceRevoked once it commits.
   */
  revokeAllOf(manager: EntityManager, userId: string): Promise<Pick<ApiTokenEntity, 'id' | 'name' | 'prefix'>[]> {
    return this.repository.deleteAllOf(manager, userId);
  }

  /** Every replica forgets these revoked tokens and closes their sockets now, not when its cached copy runs out; this one at once. */
  async announceRevoked(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      this.authenticator.forget(id);
      await this.bus.publishInternal('token-revoked', id).catch((error: Error) => {
        this.logger.warn(`revoked token not announced: ${error.message}; other replicas refuse it within 10 s`);
      });
    }
  }

  /**
   * Shortens, within the caller's transaction, every token that would outlive `maxDays` from now (the organisation's
   * lowered limit) to that; how many. Every replica drops its cached tokens when the organisation's change is
   * announced (TokenAuthenticator), so none keeps the old expiry.
   */
  capLifetimes(manager: EntityManager, maxDays: number): Promise<number> {
    return this.repository.capExpiry(manager, maxDays);
  }
}
