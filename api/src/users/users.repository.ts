import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, Not } from 'typeorm';
import type { Permission, Role } from '@cbh/contracts';
import { UserEntity } from './entities/user.entity';

/** An active account to create unless its e-mail is taken. */
export interface NewAccount {
  email: string;
  role: Role;
  permissions: readonly Permission[];
  firstName: string | null;
  lastName?: string | null;
  profileImageUrl?: string | null;
  passwordHash?: string | null;
}

type UserIdRow = Pick<UserEntity, 'id'>;

/**
 * The statements on users that must stay single statements because several replicas share the database:
 * creating an account whose e-mail may be taken at the same moment, and locking the other super admins.
 * E-mails are unique whatever their letter case (a unique index on lower(email)), and TypeORM cannot name
 * an expression index as the conflict target, so those inserts are written in SQL.
 */
@Injectable()
export class UsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Creates the active account an OpenID Connect sign-in stands for; does nothing when the e-mail is taken. */
  async createUnlessEmailTaken(account: NewAccount): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO users (email, role, first_name, last_name, profile_image_url, permissions, is_active, activated_at)
       VALUES ($1, $2, $3, $4, $5, $6, true, now())
       ON CONFLICT ((lower(email))) DO NOTHING`,
      [account.email, account.role, account.firstName, account.lastName ?? null, account.profileImageUrl ?? null, [...account.permissions]],
    );
  }

  /**
   * Creates an active account with a password, its e-mail stored in lower case; replicas starting together
   * create it once. The new id, or null when the e-mail was taken.
   */
  async createWithPasswordUnlessEmailTaken(account: NewAccount): Promise<string | null> {
    const rows = await this.dataSource.query<UserIdRow[]>(
      `INSERT INTO users (email, role, first_name, permissions, is_active, activated_at, password_hash)
       VALUES (lower($1), $2, $3, $4, true, now(), $5)
       ON CONFLICT ((lower(email))) DO NOTHING RETURNING id`,
      [account.email, account.role, account.firstName, [...account.permissions], account.passwordHash ?? null],
    );
    return rows[0]?.id ?? null;
  }

  /**
   * Locks the other active super admins until the transaction ends and returns their ids, so that two
   * requests demoting, deactivating or deleting different super admins cannot both leave none.
   */
  lockOtherActiveSuperAdmins(manager: EntityManager, exceptId: string): Promise<UserIdRow[]> {
    return manager.getRepository(UserEntity).find({
      select: { id: true },
      where: { role: 'super_admin', isActive: true, id: Not(exceptId) },
      lock: { mode: 'pessimistic_write' },
    });
  }
}
