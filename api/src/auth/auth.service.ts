import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ROLE_DEFAULT_PERMISSIONS, type AuthUser } from '@cbh/contracts';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { profileOf, UserEntity } from '../users/entities/user.entity';
import { UserIdentityEntity } from '../users/entities/user-identity.entity';
import { UsersRepository } from '../users/users.repository';
import { isElevationAccount } from './access.guard';
import { verifyPassword } from './passwords';
import type { OidcIdentity, OidcSignIn } from './oidc-sign-in';
import type { SessionUser } from './session-user';

export type SignInResult = { ok: true; user: UserEntity } | { ok: false; message: string };

/** An account an OpenID Connect sign-in stands for, or why there is none. */
export type OidcSignInResult = { ok: true; user: SessionUser } | { ok: false; message: string };

/** A link of an organization account to the signed-in account; `linked`: it was not linked before. */
export type LinkResult = { ok: true; linked: boolean } | { ok: false; message: string };

const DEACTIVATED = 'This account is deactivated; ask an administrator to reactivate it';

/** What a person is told when the identity provider's sign-in is refused (shown on the sign-in or linking page). */
export const OIDC_REFUSALS = {
  unverified:
    'Your organization account did not confirm its e-mail address, so it cannot sign you in here. Sign in with your password, or ask your administrator to have the address confirmed.',
  existingAccount:
    'An account with this e-mail address already exists here. Sign in with your password first, then link your organization account to it at /api/login/link.',
  domain: (domains: readonly string[]) =>
    `Signing in with an organization account is open to e-mail addresses at ${domains.join(', ')} only.`,
  otherEmail: (email: string) =>
    `Your organization account's confirmed e-mail address is not ${email}. Link the organization account that has this account's e-mail address.`,
  linkedElsewhere: 'This organization account is already linked to another account here.',
  signInFirst: 'Sign in with your password first, then open /api/login/link to link your organization account to your account.',
};

@Injectable()
export class AuthService {
  /** Set at start-up once the OpenID Connect provider was discovered. */
  oidc: OidcSignIn | null = null;

  get oidcEnabled(): boolean {
    return this.oidc !== null;
  }

  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async checkCredentials(email: string, password: string): Promise<SignInResult> {
    const user = await this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('user')
      .addSelect('user.passwordHash')
      .where('lower(user.email) = lower(:email)', { email })
      .getOne();
    if (!(await verifyPassword(user?.passwordHash, password)) || !user) {
      return { ok: false, message: 'Invalid e-mail or password' };
    }
    if (!user.isActive) return { ok: false, message: DEACTIVATED };
    return { ok: true, user };
  }

  /**
   * The account an OpenID Connect sign-in stands for: the one its (issuer, subject) is bound to; else, for an
   * e-mail no account has (within OIDC_ALLOWED_DOMAINS), a new active viewer bound to it. An e-mail an account
   * already has is never taken as proof of being that account, whatever the account's role: its owner links the
   * organization account while signed in (linkIdentity). The provider must have confirmed the e-mail.
   */
  async accountForOidc(identity: OidcIdentity): Promise<OidcSignInResult> {
    if (!identity.emailVerified || !identity.email) return { ok: false, message: OIDC_REFUSALS.unverified };
    const bound = await this.boundAccount(identity);
    if (bound) return signedInAs(bound);
    if (await this.emailTaken(identity.email)) return { ok: false, message: OIDC_REFUSALS.existingAccount };
    const domains = this.config.OIDC_ALLOWED_DOMAINS;
    if (domains.length && !domains.includes(domainOf(identity.email))) return { ok: false, message: OIDC_REFUSALS.domain(domains) };

    const created = await this.users.createWithIdentityUnlessTaken(
      {
        email: identity.email,
        firstName: identity.firstName,
        lastName: identity.lastName,
        profileImageUrl: identity.profileImageUrl,
        role: 'viewer',
        permissions: ROLE_DEFAULT_PERMISSIONS.viewer,
      },
      identity,
    );
    // not created: a sign-in racing this one bound the identity (then it is that account), or took the e-mail
    const account = created
      ? await this.dataSource.getRepository(UserEntity).findOneByOrFail({ id: created })
      : await this.boundAccount(identity);
    return account ? signedInAs(account) : { ok: false, message: OIDC_REFUSALS.existingAccount };
  }

  /**
   * Binds an organization account to the signed-in account that asked for it, when the provider confirmed that
   * the organization account has this account's e-mail address. An organization account is bound to one account.
   */
  async linkIdentity(account: SessionUser, identity: OidcIdentity): Promise<LinkResult> {
    if (!identity.emailVerified || !identity.email) return { ok: false, message: OIDC_REFUSALS.unverified };
    if (identity.email !== account.email.toLowerCase()) return { ok: false, message: OIDC_REFUSALS.otherEmail(account.email) };
    const identities = this.dataSource.getRepository(UserIdentityEntity);
    const key = { issuer: identity.issuer, subject: identity.subject };
    const before = await identities.findOneBy(key);
    if (before) return before.userId === account.id ? { ok: true, linked: false } : { ok: false, message: OIDC_REFUSALS.linkedElsewhere };
    await identities
      .createQueryBuilder()
      .insert()
      .values({ ...key, userId: account.id })
      .orIgnore()
      .execute();
    // a link of the same organization account racing this one may have won: the table says which account holds it
    const bound = await identities.findOneByOrFail(key);
    return bound.userId === account.id ? { ok: true, linked: true } : { ok: false, message: OIDC_REFUSALS.linkedElsewhere };
  }

  /** The issuers whose organization accounts are linked to an account, with when, oldest first. */
  linkedIdentities(userId: string): Promise<Pick<UserIdentityEntity, 'issuer' | 'createdAt'>[]> {
    return this.dataSource
      .getRepository(UserIdentityEntity)
      .find({ select: { issuer: true, createdAt: true }, where: { userId }, order: { createdAt: 'ASC' } });
  }

  async recordSignIn(userId: string) {
    await this.dataSource.getRepository(UserEntity).update({ id: userId }, { lastLoginAt: new Date() });
  }

  toAuthUser(user: SessionUser): AuthUser {
    return {
      ...profileOf(user),
      canElevate: isElevationAccount(this.config, user),
    };
  }

  private boundAccount(identity: OidcIdentity): Promise<UserEntity | null> {
    return this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('user')
      .innerJoin(UserIdentityEntity, 'identity', 'identity.user_id = user.id')
      .where('identity.issuer = :issuer AND identity.subject = :subject', { issuer: identity.issuer, subject: identity.subject })
      .getOne();
  }

  private async emailTaken(email: string): Promise<boolean> {
    return this.dataSource.getRepository(UserEntity).createQueryBuilder('user').where('lower(user.email) = :email', { email }).getExists();
  }
}

const signedInAs = (user: UserEntity): OidcSignInResult => (user.isActive ? { ok: true, user } : { ok: false, message: DEACTIVATED });

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);
