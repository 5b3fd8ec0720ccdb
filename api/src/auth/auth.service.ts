import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ROLE_DEFAULT_PERMISSIONS, type AuthUser } from '@cbh/contracts';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { profileOf, UserEntity } from '../users/entities/user.entity';
import { UsersRepository } from '../users/users.repository';
import { isElevationAccount } from './access.guard';
import { verifyPassword } from './passwords';
import type { OidcProfile } from './oidc.strategy';
import type { SessionUser } from './session-user';

export type SignInResult = { ok: true; user: UserEntity } | { ok: false; message: string };

@Injectable()
export class AuthService {
  /** Set at start-up once the OpenID Connect provider was discovered. */
  oidcEnabled = false;

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
    if (!user.isActive) return { ok: false, message: 'This account is deactivated; ask an administrator to reactivate it' };
    return { ok: true, user };
  }

  /** The account an OpenID Connect sign-in stands for: found by e-mail, or created as an active viewer. */
  async accountForOidc(profile: OidcProfile): Promise<SessionUser> {
    await this.users.createUnlessEmailTaken({ ...profile, role: 'viewer', permissions: ROLE_DEFAULT_PERMISSIONS.viewer });
    const user = await this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('user')
      .where('lower(user.email) = :email', { email: profile.email })
      .getOneOrFail();
    if (!user.isActive) throw new Error('This account is deactivated; ask an administrator to reactivate it');
    return user;
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
}
