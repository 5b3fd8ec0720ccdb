import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { GoodTotal } from '@cbh/contracts';

/** A canary's and its live version's remote loads over the judged span, and how many people the canary failed. */
export interface CanaryLoads {
  canary: GoodTotal;
  live: GoodTotal;
  /** People one of whose canary loads or errors after render was bad. */
  failingPeople: number;
}

/**
 * The SQL of judging canaries by SLOs: which SLOs exist of some ids, and the good and all remote loads (errors after
 * render count as bad ones) of a canary and of the live version over the last minutes.
 */
@Injectable()
export class CanaryJudgementRepository {
  constructor(private readonly dataSource: DataSource) {}

  async slos(ids: readonly number[]): Promise<{ id: number; name: string; kind: string; remote: string | null; target: number }[]> {
    return (await this.dataSource.query(
      `SELECT id, name, kind, indicator ->> 'remote' AS remote, target::float8 AS target FROM slos WHERE id = ANY ($1::int[]) ORDER BY id`,
      [ids],
    )) as { id: number; name: string; kind: string; remote: string | null; target: number }[];
  }

  /**
   * The loads of `remote`'s canary `versionId` since max(its start, `minutes` ago), and of the live version (null:
   * the deployed folder) over the last `minutes`: reports of people only, as every remote load the hub keeps.
   */
  async loads(remote: string, versionId: number, liveVersionId: number | null, startedAt: Date, minutes: number): Promise<CanaryLoads> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*) FILTER (WHERE version_id = $2 AND at >= $4)::int AS canary_total,
              count(*) FILTER (WHERE version_id = $2 AND at >= $4 AND ok)::int AS canary_good,
              count(DISTINCT visitor) FILTER (WHERE version_id = $2 AND at >= $4 AND NOT ok)::int AS failing_people,
              count(*) FILTER (WHERE version_id IS NOT DISTINCT FROM $3::int)::int AS live_total,
              count(*) FILTER (WHERE version_id IS NOT DISTINCT FROM $3::int AND ok)::int AS live_good
       FROM remote_loads WHERE remote = $1 AND at > now() - make_interval(mins => $5)`,
      [remote, versionId, liveVersionId, startedAt, minutes],
    )) as { canary_total: number; canary_good: number; failing_people: number; live_total: number; live_good: number }[];
    return {
      canary: { good: row!.canary_good, total: row!.canary_total },
      live: { good: row!.live_good, total: row!.live_total },
      failingPeople: row!.failing_people,
    };
  }
}
