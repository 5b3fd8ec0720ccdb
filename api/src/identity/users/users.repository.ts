import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, Not } from 'typeorm';
import type { Permission, Role, UserSummary } from '@cbh/contracts';
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
interface SummaryRow {
  role: string;
  total: number;
  active: number;
  pending: number;
  recent: number;
}

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

  /**
   * A page of people's accounts, oldest first, and how many match: `search` is found in the e-mail or the name, in
   * any letter case (its % and _ taken literally).
   */
  async page(query: { search?: string; limit: number; offset: number }): Promise<{ users: UserEntity[]; total: number }> {
    const builder = this.dataSource.getRepository(UserEntity).createQueryBuilder('user').where("user.kind = 'person'");
    if (query.search) {
      const pattern = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      builder.andWhere("(user.email ILIKE :pattern OR concat_ws(' ', user.first_name, user.last_name) ILIKE :pattern)", { pattern });
    }
    const [users, total] = await builder
      .orderBy('user.created_at', 'ASC')
      .addOrderBy('user.id', 'ASC')
      .skip(query.offset)
      .take(query.limit)
      .getManyAndCount();
    return { users, total };
  }

  /** The figures over every person's account: enabled, invitations pending, created in the last `recentDays`, per role. */
  async summary(recentDays: number): Promise<UserSummary> {
    const rows = await this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('user')
      .select('user.role', 'role')
      .addSelect('count(*)::int', 'total')
      .addSelect('(count(*) FILTER (WHERE user.is_active))::int', 'active')
      .addSelect('(count(*) FILTER (WHERE user.activated_at IS NULL))::int', 'pending')
      .addSelect('(count(*) FILTER (WHERE user.created_at >= now() - make_interval(days => :days)))::int', 'recent')
      .where("user.kind = 'person'")
      .setParameter('days', recentDays)
      .groupBy('user.role')
      .getRawMany<SummaryRow>();
    const summary: UserSummary = { total: 0, active: 0, pendingInvites: 0, recent: 0, byRole: {} };
    for (const row of rows) {
      summary.total += row.total;
      summary.active += row.active;
      summary.pendingInvites += row.pending;
      summary.recent += row.recent;
      summary.byRole[row.role] = row.total;
    }
    return summary;
  }
}
