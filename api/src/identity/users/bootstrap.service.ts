import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { ROLE_DEFAULT_PERMISSIONS, type Role } from '@cbh/contracts';
import { hashPassword } from '../auth/passwords';
import { APP_CONFIG, type AppConfig } from '../../platform';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

/** The demo accounts SEED_DEMO adds, one per role below super_admin. */
export const DEMO_USERS: { email: string; role: Role; firstName: string }[] = [
  { email: 'viewer@example.com', role: 'viewer', firstName: 'Vera' },
  { email: 'operator@example.com', role: 'operator', firstName: 'Omar' },
  { email: 'admin@demo.example.com', role: 'admin', firstName: 'Ada' },
];

/** Creates the bootstrap super admin (and, with SEED_DEMO, the demo accounts) when they do not exist. */
@Injectable()
export class AccountBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger(AccountBootstrap.name);

  constructor(
    private readonly users: UsersRepository,
    private readonly usersService: UsersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap() {
    const adminPassword = this.config.ADMIN_PASSWORD ?? randomBytes(12).toString('base64url');
    if ((await this.ensure(this.config.ADMIN_EMAIL, 'super_admin', 'Admin', adminPassword)) && !this.config.ADMIN_PASSWORD) {
      console.log(
        `\nCreated the super admin ${this.config.ADMIN_EMAIL} with the password: ${adminPassword}\n(shown once; set ADMIN_PASSWORD to choose it)\n`,
      );
    }
    if (this.config.NODE_ENV === 'production') await this.retireDemoAccounts();
    if (!this.config.SEED_DEMO) return;
    const demoPassword = this.config.DEMO_PASSWORD ?? randomBytes(12).toString('base64url');
    const demo = [...DEMO_USERS];
    if (this.config.ELEVATION_EMAIL) demo.push({ email: this.config.ELEVATION_EMAIL, role: 'admin', firstName: 'Eli' });
    const created = [];
    for (const user of demo) if (await this.ensure(user.email, user.role, user.firstName, demoPassword)) created.push(user.email);
    if (created.length && !this.config.DEMO_PASSWORD) {
      console.log(
        `\nCreated the demo accounts ${created.join(', ')} with the password: ${demoPassword}\n(shown once; set DEMO_PASSWORD to choose it)\n`,
      );
    }
  }

  /**
   * Production refuses SEED_DEMO, but a database seeded before keeps the demo accounts, whose password was printed
   * or is in a test's settings: in production they are deactivated at start (a person can reactivate one on purpose).
   */
  private async retireDemoAccounts() {
    const retired = await this.usersService.deactivateAtStart(
      DEMO_USERS.map((user) => user.email),
      'demo account in production',
    );
    if (retired.length) this.logger.warn(`deactivated the demo accounts ${retired.join(', ')}: demo accounts are not for production`);
  }

  /** Inserts an active account unless one with that e-mail exists; replicas starting together insert once. */
  private async ensure(email: string, role: Role, firstName: string, password: string): Promise<boolean> {
    const id = await this.users.createWithPasswordUnlessEmailTaken({
      email,
      role,
      firstName,
      permissions: ROLE_DEFAULT_PERMISSIONS[role],
      passwordHash: await hashPassword(password),
    });
    if (id) this.logger.log(`created ${role} ${email}`);
    return id !== null;
  }
}
