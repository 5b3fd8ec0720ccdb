import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ComponentState } from '@cbh/contracts';
import { SqlRunner } from '../platform';

/** A component's state change, as the daily bars read them. */
export interface StateChange {
  componentId: number;
  state: ComponentState;
  at: Date;
}

/** The status context's SQL that TypeORM does not say well: locks, the changes behind the bars, request counting. */
@Injectable()
export class StatusRepository {
  constructor(private readonly sql: SqlRunner) {}

  /** Page writes one at a time across replicas (the page count and the slugs are judged alike). */
  async lockPageWrites(manager: EntityManager): Promise<void> {
    await this.sql.rows("SELECT pg_advisory_xact_lock(hashtext('status-pages.write'))", [], manager);
  }

  /**
   * The changes of some components since a moment, and for each the last change before it (the state it was in
   * then), in time order.
   */
  async changesSince(componentIds: readonly number[], since: Date): Promise<StateChange[]> {
    if (componentIds.length === 0) return [];
    const rows = await this.sql.rows(
      `(SELECT DISTINCT ON (component_id) component_id, state, at FROM status_component_changes
         WHERE component_id = ANY($1::int[]) AND at < $2 ORDER BY component_id, at DESC, id DESC)
       UNION ALL
       (SELECT component_id, state, at FROM status_component_changes WHERE component_id = ANY($1::int[]) AND at >= $2)
       ORDER BY at`,
      [componentIds, since],
    );
    return rows.map((row) => ({
      componentId: Number(row.component_id),
      state: row.state as ComponentState,
      at: new Date(row.at as string),
    }));
  }

  /**
   * Counts a request under each key and answers the highest count within the last `seconds` (this one included); the
   * old counts go. Every replica counts in the same table, so a limit holds across them.
   */
  async countRequest(keys: readonly string[], seconds: number): Promise<number> {
    const rows = await this.sql.rows(
      `WITH pruned AS (DELETE FROM status_subscription_requests WHERE at < now() - make_interval(secs => $2)),
            added AS (INSERT INTO status_subscription_requests (key) SELECT unnest($1::text[]))
       SELECT coalesce(max(n), 0) + 1 AS count FROM (
         SELECT count(*) AS n FROM status_subscription_requests
         WHERE key = ANY($1::text[]) AND at >= now() - make_interval(secs => $2) GROUP BY key) counted`,
      [keys, seconds],
    );
    return Number(rows[0]?.count ?? 1);
  }
}
