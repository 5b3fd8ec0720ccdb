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

const UNIQUE_VIOLATION = '23505';

/**
 * The statements on users that must stay single statements because several replicas share the database:
 * creating an account whose e-mail may be taken at the same moment, and locking the other super admins.
 * E-mails are unique whatever their letter case (a unique index on lower(email)), and TypeORM cannot name
 * an expression index as the conflict target, so those inserts are written in SQL.
 */
@Injectable()
export class UsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Creates the active account a first OpenID Connect sign-in stands for, bound to its identity, in one statement:
   * the account exists with its identity or not at all. The new id, or null when the e-mail was taken or the
   * identity was bound by a sign-in racing this one.
   */
  async createWithIdentityUnlessTaken(account: NewAccount, identity: { issuer: string; subject: string }): Promise<string | null> {
    try {
      const rows = await this.dataSource.query<UserIdRow[]>(
        `WITH account AS (
           INSERT INTO users (email, role, first_name, last_name, profile_image_url, permissions, is_active, activated_at)
           VALUES (lower($1), $2, $3, $4, $5, $6, true, now())
           ON CONFLICT ((lower(email))) DO NOTHING RETURNING id)
         INSERT INTO user_identities (issuer, subject, user_id) SELECT $7, $8, id FROM account RETURNING user_id AS id`,
        [
          account.email,
          account.role,
          account.firstName,
          account.lastName ?? null,
          account.profileImageUrl ?? null,
          [...account.permissions],
          identity.issuer,
          identity.subject,
        ],
      );
      return rows[0]?.id ?? null;
    } catch (error) {
      // the identity's key was taken: the whole statement, account included, was rolled back
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return null;
      throw error;
    }
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
   * requests demoting, deactivating or deleting different super admins cannot both leave none. Only people count:
   * a service account cannot sign in to manage anyone.
   */
  lockOtherActiveSuperAdmins(manager: EntityManager, exceptId: string): Promise<UserIdRow[]> {
    return manager.getRepository(UserEntity).find({
      select: { id: true },
      where: { role: 'super_admin', isActive: true, kind: 'person', id: Not(exceptId) },
      lock: { mode: 'pessimistic_write' },
    });
  }
}
