import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { PruneCounts, PrunedKind, RetentionSettings } from '@cbh/contracts';
import { BREAKER_HISTORY } from '../breakers';
import { DOMAIN_HISTORY } from '../domains';
import { IDENTITY_HISTORY } from '../identity';
import { NOTIFICATION_HISTORY } from '../notifications';
import { hydrate, SqlRunner, type PrunableHistory } from '../platform';
import { RetentionSettingsEntity } from './entities/retention-settings.entity';

/** Rows one DELETE takes at most: each statement holds its locks for milliseconds, however large the backlog. */
const ROWS_PER_BATCH = 5000;
/** A claim older than this is taken to belong to a replica that died mid-prune, and may be claimed again. */
const CLAIM_LAPSES_AFTER = '1 hour';
/**
 * What each kind of history is, in SQL, as the contexts that own the tables name it: retention deletes, the owners
 * say what is old. Within a kind, in the order listed here.
 */
const HISTORY: readonly PrunableHistory[] = [...IDENTITY_HISTORY, ...BREAKER_HISTORY, ...DOMAIN_HISTORY, ...NOTIFICATION_HISTORY];

/**
 * The retention settings' one row, the daily prune's claim on it, and the batched deletes of old history: the
 * claim and the deletes need SQL TypeORM does not say well (an UPDATE … RETURNING that only one replica wins, a
 * DELETE bounded by LIMIT).
 */
@Injectable()
export class RetentionRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sql: SqlRunner,
  ) {}

  settings(manager: EntityManager = this.dataSource.manager): Promise<RetentionSettingsEntity> {
    return manager.getRepository(RetentionSettingsEntity).findOneByOrFail({ id: true });
  }

  /** Changes the settings named; the row before and after. The row is locked, so two changes at once apply one after the other. */
  async update(
    manager: EntityManager,
    patch: Partial<RetentionSettings>,
  ): Promise<{ before: RetentionSettingsEntity; after: RetentionSettingsEntity }> {
    const repository = manager.getRepository(RetentionSettingsEntity);
    const before = await repository.findOneOrFail({ where: { id: true }, lock: { mode: 'pessimistic_write' } });
    await repository.update({ id: true }, patch);
    return { before, after: await repository.findOneByOrFail({ id: true }) };
  }

  /**
   * Claims the prune for this replica and answers the settings to prune by, or null when another replica holds it
   * (or, with `onlyIfDue`, the last prune was less than a day ago). One UPDATE on one row: replicas asking at once
   * queue on its lock, and each after the first finds the claim taken.
   */
  async claim(onlyIfDue: boolean): Promise<RetentionSettingsEntity | null> {
    const rows = await this.sql.rows(
      `UPDATE retention_settings SET pruning_since = now()
       WHERE (pruning_since IS NULL OR pruning_since < now() - interval '${CLAIM_LAPSES_AFTER}')
         AND (NOT $1 OR last_pruned_at IS NULL OR last_pruned_at < now() - interval '1 day')
       RETURNING *`,
      [onlyIfDue],
    );
    return rows[0] ? hydrate(this.dataSource, RetentionSettingsEntity, rows[0]) : null;
  }

  /** Ends the claim with what the prune removed. */
  async finish(manager: EntityManager, removed: PruneCounts): Promise<RetentionSettingsEntity> {
    const rows = await this.sql.rows(
      'UPDATE retention_settings SET pruning_since = NULL, last_pruned_at = now(), last_pruned = $1 RETURNING *',
      [JSON.stringify(removed)],
      manager,
    );
    return hydrate(this.dataSource, RetentionSettingsEntity, rows[0]!);
  }

  /** Gives the claim up after a failed prune, so the next check (on any replica) tries again. */
  async release(): Promise<void> {
    await this.sql.rows('UPDATE retention_settings SET pruning_since = NULL', []);
  }

  /** Deletes the rows of one kind that are older than `settings` keep, a batch at a time; how many went. */
  async prune(kind: PrunedKind, settings: RetentionSettings): Promise<number> {
    let removed = 0;
    for (const { table, old, days } of HISTORY.filter((history) => history.kind === kind)) {
      const params = days ? [settings[days]] : [];
      for (;;) {
        // ctid picks the batch's rows without assuming a single-column key (metric_buckets has three)
        const deleted = await this.sql.affected(
          `DELETE FROM ${table} WHERE ctid = ANY (ARRAY (SELECT ctid FROM ${table} WHERE ${old} LIMIT ${ROWS_PER_BATCH}))`,
          params,
        );
        removed += deleted;
        if (deleted < ROWS_PER_BATCH) break;
      }
    }
    return removed;
  }
}
