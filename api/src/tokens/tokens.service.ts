import { randomBytes } from 'node:crypto';
import { BadRequestException, HttpException, HttpStatus, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  type ApiTokenView,
  type CreatedApiTokenView,
  hasPermission,
  PERMISSIONS,
  TOKEN_PREFIX,
  TOKEN_SHOWN_LENGTH,
  TOKENS_PER_ACCOUNT,
} from '@cbh/contracts';
import { AuditService } from '../audit/audit.service';
import { OrganizationSettings } from '../organization/organization-settings.service';
import type { AppRequest } from '../auth/session-user';
import { RealtimeBus } from '../bus/realtime-bus.service';
import { toTokenView } from './entities/api-token.entity';
import { TokenAuthenticator, tokenHash } from './token-authenticator.service';
import { TokensRepository } from './tokens.repository';

/** Bytes of randomness in a token: 256 bits, so a hash of it is as safe to keep as a slow password hash would be. */
const TOKEN_BYTES = 32;

/** Personal access tokens: an account's own, created in its session, listed without their secret, revoked. */
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
    body: { name: string; expiresInDays: number; permissions?: string[] | undefined },
  ): Promise<CreatedApiTokenView> {
    const owner = req.user!;
    const held = PERMISSIONS.filter((permission) => hasPermission(owner, permission));
    // a token narrows what its owner may do, never widens it
    const permissions = body.permissions ? PERMISSIONS.filter((permission) => body.permissions!.includes(permission)) : held;
    const lacking = permissions.filter((permission) => !held.includes(permission));
    if (lacking.length) throw new BadRequestException(`permissions: you do not hold ${lacking.join(', ')}`);
    await this.assertLifetimeAllowed(body.expiresInDays);
    const secret = TOKEN_PREFIX + randomBytes(TOKEN_BYTES).toString('base64url');
    const prefix = secret.slice(0, TOKEN_SHOWN_LENGTH);
    const token = await this.dataSource.transaction(async (manager) => {
      const created = await this.repository.insertWithinCap(
        manager,
        { userId: owner.id, name: body.name, tokenHash: tokenHash(secret), prefix, permissions, expiresInDays: body.expiresInDays },
        TOKENS_PER_ACCOUNT,
      );
      if (created === 'full') {
        throw new HttpException(
          `You already hold ${TOKENS_PER_ACCOUNT} access tokens, the most one account may; revoke one first`,
          HttpStatus.TOO_MANY_REQUESTS,
        );
      }
      await this.audit.record(
        req,
        {
          action: 'token.create',
          targetType: 'api_token',
          targetId: created.id,
          after: { name: created.name, prefix, permissions, expiresAt: created.expiresAt.toISOString() },
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
      expiresAt: view.expiresAt,
      createdAt: view.createdAt,
    };
  }

  async list(req: AppRequest): Promise<ApiTokenView[]> {
    return (await this.repository.listOf(req.user!.id)).map(toTokenView);
  }

  /** Revokes one of the account's own tokens; someone else's is answered as one that does not exist. */
  async revoke(req: AppRequest, id: string): Promise<void> {
    const removed = await this.dataSource.transaction(async (manager) => {
      const token = await this.repository.deleteOwned(manager, id, req.user!.id);
      if (!token) throw new NotFoundException('No such access token');
      await this.audit.record(
        req,
        { action: 'token.revoke', targetType: 'api_token', targetId: token.id, before: { name: token.name, prefix: token.prefix } },
        manager,
      );
      return token;
    });
    this.authenticator.forget(removed.id);
    // every replica forgets its copy and closes the token's sockets now, not when its cached copy runs out
    await this.bus.publishInternal('token-revoked', removed.id).catch((error: Error) => {
      this.logger.warn(`revoked token not announced: ${error.message}; other replicas refuse it within 10 s`);
    });
  }
}
