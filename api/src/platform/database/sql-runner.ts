import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { RawRow } from './hydrate';

/**
 * Runs the SQL a repository writes by hand (what TypeORM cannot say well), in the caller's transaction when given
 * its manager. TypeORM shapes an UPDATE's result differently from a SELECT's or an INSERT's: the runner's full
 * result says both the rows and how many were affected. Provided once for every module (AppModule).
 */
@Injectable()
export class SqlRunner {
  constructor(private readonly dataSource: DataSource) {}

  /** The rows a statement returned, whatever its kind. */
  async rows(sql: string, params: unknown[], manager?: EntityManager): Promise<RawRow[]> {
    return (await this.run(sql, params, manager)).records as RawRow[];
  }

  /** How many rows a statement changed. */
  async affected(sql: string, params: unknown[], manager?: EntityManager): Promise<number> {
    return (await this.run(sql, params, manager)).affected ?? 0;
  }

  /**
   * When the earliest of a table's leased rows may next be claimed (ms since the epoch): its due time, or its lease's
   * end where that is later (the work going on will move the time, or the lease lapse); null without rows. What a
   * runner that sleeps until its work falls due asks (PeriodicWork.whenDue). The names are the caller's constants.
   */
  async earliestDue(table: string, dueColumn: string, leaseColumn: string): Promise<number | null> {
    const [row] = await this.rows(
      `SELECT (extract(epoch FROM min(greatest(${dueColumn}, coalesce(${leaseColumn}, ${dueColumn})))) * 1000)::float8 AS at
       FROM ${table}`,
      [],
    );
    return (row?.at as number | null | undefined) ?? null;
  }

  private async run(sql: string, params: unknown[], manager?: EntityManager) {
    const runner = manager?.queryRunner ?? this.dataSource.createQueryRunner();
    try {
      return await runner.query(sql, params, true);
    } finally {
      if (!manager?.queryRunner) await runner.release();
    }
  }
}
