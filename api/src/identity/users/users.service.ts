import { createHash, randomBytes } from 'node:crypto';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  GoneException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { DataSource, type EntityManager, In, IsNull } from 'typeorm';
import {
  accountChangeRefusal,
  type EndedSessionsView,
  hasPermission,
  invitationDomainRefusal,
  ROLE_DEFAULT_PERMISSIONS,
  type Permission,
  RECENT_USER_DAYS,
  type Role,
  type UserSummary,
  type UserView,
} from '@cbh/contracts';
import { AuditService } from '../audit/audit.service';
import { hashPassword } from '../auth/passwords';
import { PgSessionStore } from '../auth/session-store';
import { SessionsRepository } from '../auth/sessions.repository';
import { APP_CONFIG, type AppConfig, MailService, RealtimeBus } from '../../platform';
import type { AppRequest, SessionUser } from '../auth/session-user';
import { UserDirectory } from '../auth/user-directory.service';
import { OrganizationSettings } from '../organization/organization-settings.service';
import { SessionsService } from '../sessions/sessions.service';
import { TokensService } from '../tokens/tokens.service';
import { InvitationEntity } from './entities/invitation.entity';
import { toUserView, UserEntity } from './entities/user.entity';
import { UsersRepository } from './users.repository';

export const INVITATION_TTL_MS = 24 * 60 * 60_000;
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

@Injectable()
export class UsersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
    private readonly mail: MailService,
    private readonly directory: UserDirectory,
    private readonly sessions: PgSessionStore,
    private readonly usersRepository: UsersRepository,
    private readonly bus: RealtimeBus,
    private readonly organization: OrganizationSettings,
    private readonly sessionsRepository: SessionsRepository,
    private readonly sessionsService: SessionsService,
    private readonly tokens: TokensService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** People's accounts: service accounts have their own list and routes. */
  async list(query: { search?: string; limit: number; offset: number }): Promise<{ users: UserView[]; total: number }> {
    const { users, total } = await this.usersRepository.page(query);
    return { users: users.map(toUserView), total };
  }

  /** The figures above the list, over every account. */
  summary(): Promise<UserSummary> {
    return this.usersRepository.summary(RECENT_USER_DAYS);
  }

  async invite(req: AppRequest, email: string, role: Role): Promise<UserView> {
    assertMayGrant(req.user!, role, ROLE_DEFAULT_PERMISSIONS[role]);
    const refusal = invitationDomainRefusal(email, (await this.organization.current()).invitationDomains);
    if (refusal) throw new BadRequestException(refusal);
    const token = randomBytes(32).toString('base64url');
    const user = await this.dataSource.transaction(async (manager) => {
      const existing = await manager
        .getRepository(UserEntity)
        .createQueryBuilder('user')
        .where('lower(user.email) = :email', { email })
        .getOne();
      if (existing) throw new ConflictException(`A user with the e-mail ${email} already exists`);
      const created = await manager
        .getRepository(UserEntity)
        .save(manager.getRepository(UserEntity).create({ email, role, permissions: [...ROLE_DEFAULT_PERMISSIONS[role]], isActive: true }));
      await manager.getRepository(InvitationEntity).insert({
        userId: created.id,
        tokenHash: tokenHash(token),
        expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
        invitedBy: req.user!.id,
      });
      await this.audit.record(
        req,
        { action: 'user.invite', targetType: 'user', targetId: created.id, after: toUserView(created) },
        manager,
      );
      return created;
    });
    await this.mail.send({
      to: email,
      subject: 'You are invited to Circuit Breaker Hub',
      text: `${req.user!.email} invited you to Circuit Breaker Hub as ${role}.\n\nSet your password within 24 hours: ${this.config.PUBLIC_URL}/api/invitations/${token}\n\nThe link works once.`,
      secrets: [token],
    });
    await this.announce(user.id);
    return toUserView(user);
  }

  /** The invitation a token names while it can still be used, else a 410. */
  async openInvitation(token: string, manager: EntityManager = this.dataSource.manager): Promise<InvitationEntity> {
    const invitation = await manager.getRepository(InvitationEntity).findOne({
      where: { tokenHash: tokenHash(token), usedAt: IsNull(), revokedAt: IsNull() },
      lock: manager.queryRunner?.isTransactionActive ? { mode: 'pessimistic_write' } : undefined,
    });
    if (!invitation || invitation.expiresAt.getTime() < Date.now()) {
      throw new GoneException('This invitation link is invalid, was already used or has expired. Ask for a new invitation.');
    }
    return invitation;
  }

  async acceptInvitation(
    req: AppRequest,
    token: string,
    input: { password: string; firstName?: string; lastName?: string },
  ): Promise<UserEntity> {
    const passwordHash = await hashPassword(input.password);
    const accepted = await this.dataSource.transaction(async (manager) => {
      const invitation = await this.openInvitation(token, manager);
      await manager.getRepository(InvitationEntity).update({ id: invitation.id }, { usedAt: new Date() });
      const users = manager.getRepository(UserEntity);
      const before = await users.findOneByOrFail({ id: invitation.userId });
      await users.update(
        { id: before.id },
        {
          passwordHash,
          isActive: true,
          activatedAt: before.activatedAt ?? new Date(),
          firstName: input.firstName || before.firstName,
          lastName: input.lastName || before.lastName,
        },
      );
      const after = await users.findOneByOrFail({ id: before.id });
      await this.audit.record(
        req,
        {
          action: 'invitation.accept',
          targetType: 'user',
          targetId: after.id,
          actor: after,
          before: toUserView(before),
          after: toUserView(after),
        },
        manager,
      );
      this.directory.evict(after.id);
      return after;
    });
    await this.announce(accepted.id);
    return accepted;
  }

  async updateRole(req: AppRequest, id: string, role: Role, permissions?: Permission[]): Promise<UserView> {
    const granted = permissions ?? [...ROLE_DEFAULT_PERMISSIONS[role]];
    assertMayGrant(req.user!, role, granted);
    return this.change(req, id, 'user.role.update', async (user, manager) => {
      if (user.role === 'super_admin' && role !== 'super_admin') await this.assertAnotherActiveSuperAdmin(manager, user.id, 'demoted');
      return { role, permissions: granted };
    });
  }

  async updatePermissions(req: AppRequest, id: string, permissions: Permission[]): Promise<UserView> {
    const actor = req.user!;
    for (const permission of permissions) {
      if (!hasPermission(actor, permission)) throw new ForbiddenException(`You cannot grant ${permission}, which you do not hold`);
    }
    return this.change(req, id, 'user.permissions.update', async () => ({ permissions }));
  }

  async updateStatus(req: AppRequest, id: string, isActive: boolean): Promise<UserView> {
    const view = await this.change(req, id, isActive ? 'user.activate' : 'user.deactivate', async (user, manager) => {
      if (!isActive && user.role === 'super_admin' && user.isActive)
        await this.assertAnotherActiveSuperAdmin(manager, user.id, 'deactivated');
      if (!isActive) {
        await manager
          .getRepository(InvitationEntity)
          .update({ userId: user.id, usedAt: IsNull(), revokedAt: IsNull() }, { revokedAt: new Date() });
      }
      return { isActive, activatedAt: isActive ? (user.activatedAt ?? new Date()) : user.activatedAt };
    });
    if (!isActive) await this.sessions.destroyForUser(view.id);
    return view;
  }

  /**
   * Deactivates the active accounts with these e-mails without a request (at start): audited with no actor, their
   * invitations revoked, their sessions ended and every replica told. The e-mails of the accounts it deactivated.
   */
  async deactivateAtStart(emails: readonly string[], reason: string): Promise<string[]> {
    const users = await this.dataSource.getRepository(UserEntity).find({ where: { email: In([...emails]), isActive: true } });
    for (const user of users) {
      await this.dataSource.transaction(async (manager) => {
        await manager.getRepository(UserEntity).update({ id: user.id }, { isActive: false });
        await manager
          .getRepository(InvitationEntity)
          .update({ userId: user.id, usedAt: IsNull(), revokedAt: IsNull() }, { revokedAt: new Date() });
        await this.audit.record(
          null,
          {
            action: 'user.deactivate',
            targetType: 'user',
            targetId: user.id,
            before: toUserView(user),
            after: { isActive: false, reason },
          },
          manager,
        );
      });
      await this.sessions.destroyForUser(user.id);
      await this.announce(user.id);
    }
    return users.map((user) => user.email);
  }

  async remove(req: AppRequest, id: string): Promise<void> {
    const removed = await this.dataSource.transaction(async (manager) => {
      const user = await this.loadChangeable(req.user!, manager, id, 'delete');
      if (user.role === 'super_admin' && user.isActive) await this.assertAnotherActiveSuperAdmin(manager, user.id, 'deleted');
      await manager.getRepository(UserEntity).delete({ id: user.id });
      await this.audit.record(req, { action: 'user.delete', targetType: 'user', targetId: user.id, before: toUserView(user) }, manager);
      return user;
    });
    await this.sessions.destroyForUser(removed.id);
    this.directory.evict(removed.id);
    await this.announce(removed.id);
  }

  /**
   * Signs an account another may change (accountChangeRefusal) out everywhere, audited: ends its sessions and revokes
   * its access tokens (a token made from a stolen session would outlive it). How many of each.
   */
  async endSessions(req: AppRequest, id: string): Promise<EndedSessionsView> {
    const { sids, revoked } = await this.dataSource.transaction(async (manager) => {
      const user = await this.loadChangeable(req.user!, manager, id, 'change');
      const ended = {
        sids: await this.sessionsRepository.deleteForUser(user.id, manager),
        revoked: await this.tokens.revokeAllOf(manager, user.id),
      };
      await this.audit.record(
        req,
        {
          action: 'user.sessions.end',
          targetType: 'user',
          targetId: user.id,
          after: { ended: ended.sids.length, revokedTokens: ended.revoked.length },
        },
        manager,
      );
      return ended;
    });
    await this.sessionsService.announceEnded(sids);
    await this.tokens.announceRevoked(revoked.map((token) => token.id));
    return { ended: sids.length, revokedTokens: revoked.length };
  }

  /** Tells user managers (and the account itself) on every replica that an account changed. */
  private async announce(userId: string) {
    await this.bus.publish({ type: 'userChanged', data: { userId } });
  }

  /** Refuses to leave no active super_admin; the others stay locked until the transaction ends. */
  private async assertAnotherActiveSuperAdmin(manager: EntityManager, exceptId: string, verb: string) {
    const others = await this.usersRepository.lockOtherActiveSuperAdmins(manager, exceptId);
    if (others.length === 0) throw new ConflictException(`The last active super_admin cannot be ${verb}`);
  }

  /**
   * Locks the account the actor means to change or delete, if they may: not their own, and none holding more
   * than they do. Later steps use the row's id, the one spelling the caches, sockets and audit trail know. A
   * service account is not found here: it is changed through its own routes, which keep it from ever signing in.
   */
  private async loadChangeable(actor: SessionUser, manager: EntityManager, id: string, verb: 'change' | 'delete'): Promise<UserEntity> {
    const user = await manager.getRepository(UserEntity).findOne({ where: { id, kind: 'person' }, lock: { mode: 'pessimistic_write' } });
    if (!user) throw new NotFoundException(`No user with id ${id}`);
    if (user.id === actor.id) throw new ForbiddenException(`You cannot ${verb} your own account`);
    const refusal = accountChangeRefusal(actor, user);
    if (refusal) throw new ForbiddenException(refusal);
    return user;
  }

  /** Loads, changes and audits one user in a transaction. */
  private async change(
    req: AppRequest,
    id: string,
    action: string,
    patch: (user: UserEntity, manager: EntityManager) => Promise<Partial<UserEntity>>,
  ): Promise<UserView> {
    const view = await this.dataSource.transaction(async (manager) => {
      const user = await this.loadChangeable(req.user!, manager, id, 'change');
      const before = toUserView(user);
      const users = manager.getRepository(UserEntity);
      await users.update({ id: user.id }, await patch(user, manager));
      const after = toUserView(await users.findOneByOrFail({ id: user.id }));
      await this.audit.record(req, { action, targetType: 'user', targetId: user.id, before, after }, manager);
      return after;
    });
    this.directory.evict(view.id);
    await this.announce(view.id);
    return view;
  }
}

/** Only what the actor holds can be granted; only a super_admin makes another. */
function assertMayGrant(actor: SessionUser, role: Role, permissions: readonly Permission[]) {
  if (role === 'super_admin' && actor.role !== 'super_admin')
    throw new ForbiddenException('Only a super_admin can grant the super_admin role');
  const missing = permissions.filter((permission) => !hasPermission(actor, permission));
  if (missing.length) throw new ForbiddenException(`You cannot grant ${missing.join(', ')}, which you do not hold`);
}
