import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isServiceAccountEmail, ROLE_DEFAULT_PERMISSIONS, SERVICE_ACCOUNT_EMAIL_DOMAIN, type AuthUser } from '@cbh/contracts';
import { APP_CONFIG, type AppConfig, toJsonBody } from '../../platform';
import { profileOf, UserEntity } from '../users/entities/user.entity';
import { UserIdentityEntity } from '../users/entities/user-identity.entity';
import { UsersRepository } from '../users/users.repository';
import { isElevationAccount } from './access.guard';
import { verifyPassword } from './passwords';
import { isPrivilegedAccount } from './privileged-account';
import type { PassportStatic } from 'passport';
import type { OidcIdentity, OidcSignIn } from './oidc-sign-in';
import type { SessionUser } from './session-user';

/** `accountId`: the account a failed sign-in named, when the e-mail is one (only those failures are audited). */
export type SignInResult = { ok: true; user: UserEntity } | { ok: false; message: string; accountId?: string };

/** An account an OpenID Connect sign-in stands for, or why there is none. */
export type OidcSignInResult = { ok: true; user: SessionUser } | { ok: false; message: string };

/** A link of an organization account to the signed-in account; `linked`: it was not linked before. */
export type LinkResult = { ok: true; linked: boolean } | { ok: false; message: string };

const DEACTIVATED = 'This account is deactivated; ask an administrator to reactivate it';

/** What a first sign-in with an organization account creates. */
const NEW_ACCOUNT_ROLE = 'viewer';

/** What a person is told when the identity provider's sign-in is refused (shown on the sign-in or linking page). */
export const OIDC_REFUSALS = {
  unverified:
    'Your organization account did not confirm its e-mail address, so it cannot sign you in here. Sign in with your password, or ask your administrator to have the address confirmed.',
  existingAccount:
    'An account with this e-mail address already exists here. Sign in with your password first, then link your organization account to it at /api/login/link.',
  privileged: 'Administrator accounts sign in with their password only, never with an organization account. Sign in with your password.',
  reservedEmail:
    'This e-mail address is reserved for an administrator account, which is created by invitation and signs in with its password only, never with an organization account.',
  serviceAccount: `Addresses at ${SERVICE_ACCOUNT_EMAIL_DOMAIN} name service accounts, which never sign in.`,
  privilegedLink: 'Administrator accounts sign in with their password only, so no organization account can be linked to them.',
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
  /** toAuthUser's views and their JSON bodies, by the account object they were built from. */
  private readonly authUsers = new WeakMap<SessionUser, { view: AuthUser; body: Buffer }>();
  /** This application's passport with the local strategy (app.ts sets it, as it does oidc). */
  passport: PassportStatic | null = null;

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
      // a service account never signs in, whatever is sent (it holds no password either)
      .andWhere("user.kind = 'person'")
      .getOne();
    if (!(await verifyPassword(user?.passwordHash, password)) || !user) {
      return { ok: false, message: 'Invalid e-mail or password', accountId: user?.id };
    }
    if (!user.isActive) return { ok: false, message: DEACTIVATED, accountId: user.id };
    return { ok: true, user };
  }

  /**
   * The account an OpenID Connect sign-in stands for: the one its (issuer, subject) is bound to, unless that account
   * is privileged now; else, for an e-mail the provider confirmed and no account has (within OIDC_ALLOWED_DOMAINS),
   * a new active viewer bound to it. An e-mail an account already has is never taken as proof of being that
   * account: its owner links the organization account while signed in (linkIdentity). A privileged account
   * (isPrivilegedAccount) is never created, nor signed in to, this way.
   */
  async accountForOidc(identity: OidcIdentity): Promise<OidcSignInResult> {
    // the binding, not the e-mail, names the account: some providers (Microsoft Entra ID) never send email_verified
    const bound = await this.boundAccount(identity);
    if (bound) return this.signInTo(bound);
    if (!identity.emailVerified || !identity.email) return { ok: false, message: OIDC_REFUSALS.unverified };
    if (isServiceAccountEmail(identity.email)) return { ok: false, message: OIDC_REFUSALS.serviceAccount };
    const taken = await this.accountWithEmail(identity.email);
    if (taken) {
      return { ok: false, message: isPrivilegedAccount(this.config, taken) ? OIDC_REFUSALS.privileged : OIDC_REFUSALS.existingAccount };
    }
    // ELEVATION_EMAIL (which can make itself super_admin) or ADMIN_EMAIL before its account exists: the account would
    // be privileged, so it is created by invitation, with a password
    if (
      isPrivilegedAccount(this.config, {
        email: identity.email,
        role: NEW_ACCOUNT_ROLE,
        permissions: ROLE_DEFAULT_PERMISSIONS[NEW_ACCOUNT_ROLE],
      })
    ) {
      return { ok: false, message: OIDC_REFUSALS.reservedEmail };
    }
    const domains = this.config.OIDC_ALLOWED_DOMAINS;
    if (domains.length && !domains.includes(domainOf(identity.email))) return { ok: false, message: OIDC_REFUSALS.domain(domains) };

    const created = await this.users.createWithIdentityUnlessTaken(
      {
        email: identity.email,
        firstName: identity.firstName,
        lastName: identity.lastName,
        profileImageUrl: identity.profileImageUrl,
        role: NEW_ACCOUNT_ROLE,
        permissions: ROLE_DEFAULT_PERMISSIONS[NEW_ACCOUNT_ROLE],
      },
      identity,
    );
    // not created: a sign-in racing this one bound the identity (then it is that account), or took the e-mail
    const account = created
      ? await this.dataSource.getRepository(UserEntity).findOneByOrFail({ id: created })
      : await this.boundAccount(identity);
    return account ? this.signInTo(account) : { ok: false, message: OIDC_REFUSALS.existingAccount };
  }

  /** Why `account` may not link an organization account, or null when it may. */
  linkRefusal(account: SessionUser): string | null {
    return isPrivilegedAccount(this.config, account) ? OIDC_REFUSALS.privilegedLink : null;
  }

  /**
   * Binds an organization account to the signed-in account that asked for it, when the provider confirmed that
   * the organization account has this account's e-mail address. An organization account is bound to one account;
   * a privileged account is bound to none (it may have become privileged while its person was at the provider).
   */
  async linkIdentity(account: SessionUser, identity: OidcIdentity): Promise<LinkResult> {
    const refusal = this.linkRefusal(account);
    if (refusal) return { ok: false, message: refusal };
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

  /**
   * The signed-in account as GET /api/auth/user shows it. The account directory keeps one object per account until it
   * changes (a change replaces it), so the view is built once per such object rather than at every read.
   */
  toAuthUser(user: SessionUser): AuthUser {
    return this.authUserView(user).view;
  }

  /** toAuthUser's view as the JSON body GET /api/auth/user sends, serialised once with the view. */
  authUserBody(user: SessionUser): Buffer {
    return this.authUserView(user).body;
  }

  private authUserView(user: SessionUser): { view: AuthUser; body: Buffer } {
    let built = this.authUsers.get(user);
    if (!built) {
      const view = { ...profileOf(user), canElevate: isElevationAccount(this.config, user) };
      built = { view, body: toJsonBody(view) };
      this.authUsers.set(user, built);
    }
    return built;
  }

  private boundAccount(identity: OidcIdentity): Promise<UserEntity | null> {
    return this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('user')
      .innerJoin(UserIdentityEntity, 'identity', 'identity.user_id = user.id')
      .where('identity.issuer = :issuer AND identity.subject = :subject', { issuer: identity.issuer, subject: identity.subject })
      .getOne();
  }

  private accountWithEmail(email: string): Promise<UserEntity | null> {
    return this.dataSource.getRepository(UserEntity).createQueryBuilder('user').where('lower(user.email) = :email', { email }).getOne();
  }

  /**
   * A sign-in through an organization account bound to `account`. An account bound before it became privileged
   * keeps its binding, which signs in again once the account is no longer privileged.
   */
  private signInTo(account: UserEntity): OidcSignInResult {
    if (!account.isActive) return { ok: false, message: DEACTIVATED };
    if (isPrivilegedAccount(this.config, account)) return { ok: false, message: OIDC_REFUSALS.privileged };
    return { ok: true, user: account };
  }
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);
