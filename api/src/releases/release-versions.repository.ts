import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/** The rows a DELETE … RETURNING gave (TypeORM's query() answers a DELETE as [rows, count]); in a transaction. */
async function deleted<T>(manager: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  return (await manager.queryRunner!.query(sql, params, true)).records as T[];
}

/**
 * The release statements TypeORM does not say well: the lock that takes one remote's release changes one at a time
 * across replicas, the pruning of old versions and of files no version holds any more, and the remotes a token may
 * release.
 */
@Injectable()
export class ReleaseVersionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Takes the remote's release changes one at a time until the transaction ends: a version is deleted or pruned only
   * while no promote, canary or rollback of that remote can make it live.
   */
  async lockRemote(manager: EntityManager, remote: string): Promise<void> {
    await manager.query("SELECT pg_advisory_xact_lock(hashtext('remote_releases:' || $1))", [remote]);
  }

  /**
   * Files are written by uploads side by side (a shared lock) and pruned alone (an exclusive one), so a prune never
   * deletes a file an upload in flight found stored and means to use.
   */
  async lockFiles(manager: EntityManager, mode: 'upload' | 'prune'): Promise<void> {
    await manager.query(
      mode === 'upload'
        ? "SELECT pg_advisory_xact_lock_shared(hashtext('remote_files'))"
        : "SELECT pg_advisory_xact_lock(hashtext('remote_files'))",
    );
  }

  /** Deletes the remote's oldest versions that are neither live, previous nor canary, until it has `kept` at most. */
  async pruneVersions(manager: EntityManager, remote: string, kept: number): Promise<number[]> {
    const rows = await deleted<{ id: number }>(
      manager,
      `DELETE FROM remote_versions WHERE id IN (
         SELECT v.id FROM remote_versions v
         WHERE v.remote = $1 AND NOT EXISTS (
           SELECT 1 FROM remote_releases r
           WHERE r.remote = v.remote AND v.id IN (r.live_version_id, r.previous_version_id, r.canary_version_id))
         ORDER BY v.id
         LIMIT GREATEST(0, (SELECT count(*) FROM remote_versions WHERE remote = $1) - $2))
       RETURNING id`,
      [remote, kept],
    );
    return rows.map((row) => row.id);
  }

  /** Deletes the stored files no version holds any more; how many. */
  async pruneFiles(manager: EntityManager): Promise<number> {
    await this.lockFiles(manager, 'prune');
    const rows = await deleted<{ sha256: string }>(
      manager,
      `DELETE FROM remote_files f
       WHERE NOT EXISTS (SELECT 1 FROM remote_versions v, jsonb_each_text(v.files) held WHERE held.value = f.sha256)
       RETURNING sha256`,
      [],
    );
    return rows.length;
  }

  /**
   * The remotes a token may release: those both it and its account are limited to (a service account may be); null
   * when neither is limited.
   */
  async releasableWith(tokenId: string): Promise<string[] | null> {
    const [row] = await this.dataSource.query<{ token: string[] | null; account: string[] | null }[]>(
      `SELECT t.remotes AS token, u.release_remotes AS account FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.id = $1`,
      [tokenId],
    );
    if (!row) return [];
    if (row.token && row.account) return row.token.filter((remote) => row.account!.includes(remote));
    return row.token ?? row.account;
  }
}
