import { BadRequestException, ConflictException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  accountChangeRefusal,
  type ApiTokenView,
  type CreatedApiTokenView,
  hasPermission,
  PERMISSIONS,
  type Permission,
  type Role,
  ROLE_DEFAULT_PERMISSIONS,
  SERVICE_ACCOUNTS_MAX,
  type ServiceAccountView,
} from '@cbh/contracts';
import { AuditService } from '../audit/audit.service';
import type { AppRequest, SessionUser } from '../auth/session-user';
import { UserDirectory } from '../auth/user-directory.service';
import { RealtimeBus } from '../../platform';
import { TokensService, type TokenOwner } from '../tokens/tokens.service';
import { toUserView, UserEntity } from '../users/entities/user.entity';
import { ServiceAccountsRepository } from './service-accounts.repository';

const DEFAULT_ROLE: Role = 'viewer';

/** What a service account's audit entries show of it. */
const audited = (account: Pick<UserEntity, 'firstName' | 'role' | 'permissions' | 'isActive'>, remotes: readonly string[] | null) => ({
  name: account.firstName,
  role: account.role,
  permissions: account.permissions,
  isActive: account.isActive,
  remotes,
});

/**
 * The permissions a role and an optional list give, if the actor may grant them: only a super_admin makes a
 * super_admin, and nobody grants a permission they do not hold.
 */
function grantable(actor: SessionUser, role: Role, permissions: readonly Permission[] | undefined): Permission[] {
  if (role === 'super_admin' && actor.role !== 'super_admin')
    throw new ForbiddenException('Only a super_admin can grant the super_admin role');
  const granted = PERMISSIONS.filter((permission) => (permissions ?? ROLE_DEFAULT_PERMISSIONS[role]).includes(permission));
  const lacking = granted.filter((permission) => !hasPermission(actor, permission));
  if (lacking.length) throw new BadRequestException(`permissions: you do not hold ${lacking.join(', ')}`);
  return granted;
}

/**
 * Service accounts: accounts for machines that user managers create, change and delete, and whose access tokens
 * they make and revoke. Each is a row of users of the kind 'service', so its tokens are judged against it like a
 * person's, and a change of it reaches every replica through userChanged as a person's does.
 */
@Injectable()
export class ServiceAccountsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: ServiceAccountsRepository,
    private readonly tokens: TokensService,
    private readonly audit: AuditService,
    private readonly directory: UserDirectory,
    private readonly bus: RealtimeBus,
  ) {}

  list(): Promise<ServiceAccountView[]> {
    return this.repository.list(SERVICE_ACCOUNTS_MAX);
  }

  async create(
    req: AppRequest,
    body: { name: string; role?: Role | undefined; permissions?: Permission[] | undefined; remotes?: string[] | undefined },
  ) {
    const remotes = body.remotes ?? null;
    const role = body.role ?? DEFAULT_ROLE;
    const permissions = grantable(req.user!, role, body.permissions);
    const id = await this.dataSource.transaction(async (manager) => {
      const created = await this.repository.insertWithinCap(
        manager,
        { name: body.name, role, permissions, remotes, createdBy: req.user!.id },
        SERVICE_ACCOUNTS_MAX,
      );
      if (created === 'full') {
        throw new ConflictException(`There are already ${SERVICE_ACCOUNTS_MAX} service accounts, the most there may be; delete one first`);
      }
      if (created === 'taken') throw new ConflictException(`A service account named ${body.name} already exists`);
      await this.audit.record(
        req,
        {
          action: 'service_account.create',
          targetType: 'service_account',
          targetId: created,
          after: audited({ firstName: body.name, role, permissions, isActive: true }, remotes),
        },
        manager,
      );
      return created;
    });
    await this.announce(id);
    return this.viewOf(id);
  }

  /** Changes its status, role or permissions; disabled, its tokens are refused on every replica's next request. */
  async update(
    req: AppRequest,
    id: string,
    body: {
      isActive?: boolean | undefined;
      role?: Role | undefined;
      permissions?: Permission[] | undefined;
      remotes?: string[] | null | undefined;
    },
  ): Promise<ServiceAccountView> {
    const changed = await this.dataSource.transaction(async (manager) => {
      const account = await this.loadChangeable(req.user!, id, manager);
      const remotesBefore = await this.repository.remotesOf(manager, account.id);
      if (body.remotes !== undefined) await this.repository.setRemotes(manager, account.id, body.remotes);
      const patch: Partial<UserEntity> = {};
      if (body.role !== undefined || body.permissions !== undefined) {
        // a new role brings its default permissions unless a list is given; a list alone keeps the role
        const role = body.role ?? (account.role as Role);
        patch.role = role;
        patch.permissions = grantable(req.user!, role, body.permissions);
      }
      if (body.isActive !== undefined) patch.isActive = body.isActive;
      const users = manager.getRepository(UserEntity);
      if (Object.keys(patch).length > 0) await users.update({ id: account.id }, patch);
      const after = await users.findOneByOrFail({ id: account.id });
      await this.audit.record(
        req,
        {
          action: 'service_account.update',
          targetType: 'service_account',
          targetId: account.id,
          before: audited(account, remotesBefore),
          after: audited(after, body.remotes === undefined ? remotesBefore : body.remotes),
        },
        manager,
      );
      return account.id;
    });
    this.directory.evict(changed);
    await this.announce(changed);
    return this.viewOf(changed);
  }

  /** Deletes it and, with it, its tokens: they are refused on every replica's next request. */
  async remove(req: AppRequest, id: string): Promise<void> {
    const removed = await this.dataSource.transaction(async (manager) => {
      const account = await this.loadChangeable(req.user!, id, manager);
      await manager.getRepository(UserEntity).delete({ id: account.id });
      await this.audit.record(
        req,
        {
          action: 'service_account.delete',
          targetType: 'service_account',
          targetId: account.id,
          before: audited(account, await this.repository.remotesOf(manager, account.id)),
        },
        manager,
      );
      return account.id;
    });
    this.directory.evict(removed);
    await this.announce(removed);
  }

  /** A token of the service account, narrowed to its permissions, made as personal tokens are. */
  async createToken(
    req: AppRequest,
    id: string,
    body: { name: string; expiresInDays: number; permissions?: string[] | undefined; remotes?: string[] | undefined },
  ): Promise<CreatedApiTokenView> {
    const account = await this.loadChangeable(req.user!, id);
    const created = await this.tokens.create(req, body, ownerOf(account));
    await this.announce(account.id);
    return created;
  }

  async listTokens(id: string): Promise<ApiTokenView[]> {
    return this.tokens.list((await this.load(id)).id);
  }

  async revokeToken(req: AppRequest, id: string, tokenId: string): Promise<void> {
    const account = await this.loadChangeable(req.user!, id);
    await this.tokens.revoke(req, tokenId, ownerOf(account));
    await this.announce(account.id);
  }

  private async viewOf(id: string): Promise<ServiceAccountView> {
    const view = await this.repository.view(id);
    if (!view) throw new NotFoundException(`No service account with id ${id}`);
    return view;
  }

  private async load(id: string, manager: EntityManager = this.dataSource.manager): Promise<UserEntity> {
    const account = await manager.getRepository(UserEntity).findOne({
      where: { id, kind: 'service' },
      lock: manager.queryRunner?.isTransactionActive ? { mode: 'pessimistic_write' } : undefined,
    });
    if (!account) throw new NotFoundException(`No service account with id ${id}`);
    return account;
  }

  /**
   * The service account, if the actor may change it and its tokens: as with people's accounts, only a super_admin
   * touches a super_admin one and nobody one holding a permission they lack (its tokens could do what they cannot),
   * and a service account's token cannot change the service account itself.
   */
  private async loadChangeable(actor: SessionUser, id: string, manager?: EntityManager): Promise<UserEntity> {
    const account = await this.load(id, manager);
    if (account.id === actor.id) throw new ForbiddenException('You cannot change your own account');
    const refusal = accountChangeRefusal(actor, account);
    if (refusal) throw new ForbiddenException(refusal);
    return account;
  }

  /** Tells user managers on every replica, and every replica's caches, that the account changed. */
  private async announce(userId: string) {
    await this.bus.publish({ type: 'userChanged', data: { userId } });
  }
}

function ownerOf(account: UserEntity): TokenOwner {
  return { account: toUserView(account), serviceAccount: { id: account.id, name: account.firstName ?? '' } };
}
