import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { BreakerStateName } from '@cbh/contracts';
import { BreakerTransitionEntity } from '../entities/breaker-transition.entity';

/** One step of a breaker's stored calls, summed over every replica: only the steps that had a bucket. */
export interface HistoryStepRow {
  /** The step's index from the start of the span. */
  step: number;
  calls: number;
  errors: number;
}

/** Reads of a breaker's past: its per-second buckets summed into steps, and its journal over a span. */
@Injectable()
export class BreakerHistoryRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The calls and errors of each step of `stepSeconds` from `from` (inclusive) to `to` (exclusive) that had any bucket. */
  async steps(configId: number, from: Date, to: Date, stepSeconds: number): Promise<HistoryStepRow[]> {
    const rows: { step: number; calls: number; errors: number }[] = await this.dataSource.query(
      `SELECT floor(extract(epoch FROM second - $2::timestamptz) / $4)::int AS step,
              sum(success + failure + timeout + short_circuited + bulkhead_rejected)::int AS calls,
              sum(failure + timeout + short_circuited + bulkhead_rejected)::int AS errors
       FROM metric_buckets
       WHERE config_id = $1 AND second >= $2 AND second < $3
       GROUP BY 1 ORDER BY 1`,
      [configId, from.toISOString(), to.toISOString(), stepSeconds],
    );
    return rows.map((row) => ({ step: Number(row.step), calls: Number(row.calls), errors: Number(row.errors) }));
  }

  private get transitions() {
    return this.dataSource.getRepository(BreakerTransitionEntity);
  }

  /** Up to `count` of the breaker's moves from `from` to `to`, newest first. */
  movesBetween(configId: number, from: Date, to: Date, count: number): Promise<BreakerTransitionEntity[]> {
    return this.transitions
      .createQueryBuilder('t')
      .where('t.configId = :configId', { configId })
      .andWhere('t.at >= :from AND t.at < :to', { from, to })
      .orderBy('t.id', 'DESC')
      .take(count)
      .getMany();
  }

  /** The state the breaker's last move before `at` left it in, or null when none is journalled. */
  async stateAt(configId: number, at: Date): Promise<BreakerStateName | null> {
    const row = await this.transitions
      .createQueryBuilder('t')
      .where('t.configId = :configId', { configId })
      .andWhere('t.at < :at', { at })
      .orderBy('t.at', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .getOne();
    return row?.to ?? null;
  }
}
