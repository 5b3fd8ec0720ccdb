import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type Permission, type Role, serviceAccountEmail, type ServiceAccountView } from '@cbh/contracts';

/** A service account to create, if the name is free and the cap allows. */
export interface NewServiceAccount {
  name: string;
  role: Role;
  permissions: readonly Permission[];
  /** The remotes its tokens may release; null: every remote. */
  remotes: readonly string[] | null;
  createdBy: string;
}

/** A row of SELECT_VIEW: the view itself, but for the time the driver reads as a Date. */
type ServiceAccountRow = Omit<ServiceAccountView, 'createdAt'> & { createdAt: Date };

/** A service account with who created it and how many tokens it holds, which TypeORM would read in three queries. */
const SELECT_VIEW = `
  SELECT u.id, u.first_name AS name, u.role, u.permissions, u.release_remotes AS remotes, u.is_active AS "isActive", u.created_at AS "createdAt",
         creator.email AS "createdBy", (SELECT count(*)::int FROM api_tokens t WHERE t.user_id = u.id) AS "tokenCount"
  FROM users u LEFT JOIN users creator ON creator.id = u.created_by
  WHERE u.kind = 'service'`;

function toView(row: ServiceAccountRow): ServiceAccountView {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

/**
 * The service-account statements TypeORM does not say well: the list with its creators and token counts, and the
 * insert that must stay within the cap and take a name at most once while replicas create at the same moment.
 */
@Injectable()
export class ServiceAccountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async list(limit: number): Promise<ServiceAccountView[]> {
    const rows = await this.dataSource.query<ServiceAccountRow[]>(`${SELECT_VIEW} ORDER BY u.created_at, u.id LIMIT $1`, [limit]);
    return rows.map(toView);
  }

  async view(id: string): Promise<ServiceAccountView | null> {
    const [row] = await this.dataSource.query<ServiceAccountRow[]>(`${SELECT_VIEW} AND u.id = $1`, [id]);
    return row ? toView(row) : null;
  }

  /**
   * Creates the service account unless `cap` exist or its name is taken: creations are taken one at a time (an
   * advisory lock held until the transaction ends), and the name is unique through the e-mail it stands in.
   */
  async insertWithinCap(manager: EntityManager, account: NewServiceAccount, cap: number): Promise<string | 'full' | 'taken'> {
    await manager.query("SELECT pg_advisory_xact_lock(hashtext('service_accounts.add'))");
    const [count] = await manager.query<{ n: number }[]>("SELECT count(*)::int AS n FROM users WHERE kind = 'service'");
    if (count!.n >= cap) return 'full';
    const rows = await manager.query<{ id: string }[]>(
      `INSERT INTO users (email, role, first_name, permissions, is_active, activated_at, kind, created_by, release_remotes)
       VALUES ($1, $2, $3, $4, true, now(), 'service', $5, $6)
       ON CONFLICT ((lower(email))) DO NOTHING RETURNING id`,
      [
        serviceAccountEmail(account.name),
        account.role,
        account.name,
        [...account.permissions],
        account.createdBy,
        account.remotes && [...account.remotes],
      ],
    );
    return rows[0]?.id ?? 'taken';
  }

  /** The remotes a service account's tokens may release (null: every remote). */
  async remotesOf(manager: EntityManager, id: string): Promise<string[] | null> {
    const [row] = await manager.query<{ remotes: string[] | null }[]>('SELECT release_remotes AS remotes FROM users WHERE id = $1', [id]);
    return row?.remotes ?? null;
  }

  async setRemotes(manager: EntityManager, id: string, remotes: readonly string[] | null): Promise<void> {
    await manager.query('UPDATE users SET release_remotes = $2 WHERE id = $1', [id, remotes && [...remotes]]);
  }
}
