import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { hydrate, type RawRow, SqlRunner } from '../../platform';
import { ScrapeTargetEntity } from './entities/scrape-target.entity';
import type { ScrapedBreaker } from './resilience4j-metrics';
import type { AbsentBreakers } from './scraped-breakers';

/** The scrape targets' lease: what TypeORM cannot say in one atomic statement. */
@Injectable()
export class ScrapeTargetsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sql: SqlRunner,
  ) {}

  /** Claims up to `limit` targets due and not leased (or whose lease lapsed) for `owner`, in one statement. */
  async claimDue(owner: string, limit: number, leaseMs: number): Promise<ScrapeTargetEntity[]> {
    if (limit <= 0) return [];
    const rows = (await this.dataSource.query(
      `UPDATE scrape_targets SET lease_owner = $1, lease_until = now() + make_interval(secs => $3 / 1000.0)
       WHERE id IN (
         SELECT id FROM scrape_targets
         WHERE next_run_at <= now() AND (lease_until IS NULL OR lease_until < now())
         ORDER BY next_run_at LIMIT $2 FOR UPDATE SKIP LOCKED
       )
       RETURNING *`,
      [owner, limit, leaseMs],
    )) as [RawRow[], number];
    return rows[0].map((row) => hydrate(this.dataSource, ScrapeTargetEntity, row));
  }

  /** When a target may next be claimed (ms since the epoch); null without targets. */
  nextDue(): Promise<number | null> {
    return this.sql.earliestDue('scrape_targets', 'next_run_at', 'lease_until');
  }

  /** Whether `owner` still holds the target's lease, under that name: what a scrape checks before it writes. */
  async stillLeased(id: number, owner: string, name: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      'SELECT 1 FROM scrape_targets WHERE id = $1 AND lease_owner = $2 AND name = $3 AND lease_until > now()',
      [id, owner, name],
    )) as unknown[];
    return rows.length === 1;
  }

  /**
   * Ends `owner`'s lease with the scrape's outcome: the next one due an interval from now; a good scrape's breakers
   * kept for the next one's counters (and the breakers it no longer exposes, see scraped-breakers), a failed one's error
   * (the counters stay, so the calls in between still count).
   */
  async finish(
    id: number,
    owner: string,
    outcome: { error: string | null; breakers: readonly ScrapedBreaker[] | null; absent?: AbsentBreakers },
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE scrape_targets SET
         lease_owner = NULL, lease_until = NULL, next_run_at = now() + make_interval(secs => interval_seconds),
         last_error = $3,
         last_scrape_at = CASE WHEN $4::jsonb IS NULL THEN last_scrape_at ELSE now() END,
         last_breakers = CASE WHEN $4::jsonb IS NULL THEN last_breakers ELSE jsonb_array_length($4::jsonb) END,
         counters = coalesce($4::jsonb, counters),
         absent = coalesce($5::jsonb, absent)
       WHERE id = $1 AND lease_owner = $2`,
      [
        id,
        owner,
        outcome.error,
        outcome.breakers === null ? null : JSON.stringify(outcome.breakers),
        outcome.absent === undefined ? null : JSON.stringify(outcome.absent),
      ],
    );
  }
}
