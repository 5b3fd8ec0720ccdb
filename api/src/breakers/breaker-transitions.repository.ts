import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BreakerTransitionEntity } from './entities/breaker-transition.entity';

/** Reads of the breakers' journal (breaker_transitions) that need PostgreSQL's own SQL or keyset paging. */
@Injectable()
export class BreakerTransitionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get transitions() {
    return this.dataSource.getRepository(BreakerTransitionEntity);
  }

  /** When each breaker last moved (ms since the epoch), by breaker id: one row per breaker with DISTINCT ON. */
  async lastMoveTimes(): Promise<Map<number, number>> {
    const rows = await this.transitions
      .createQueryBuilder('t')
      .distinctOn(['t.configId'])
      .orderBy('t.configId')
      .addOrderBy('t.id', 'DESC')
      .getMany();
    return new Map(rows.map((row) => [row.configId, row.at.getTime()]));
  }

  /** Up to `count` of a breaker's moves, newest first, below id `before` when given (keyset paging). */
  newestOf(configId: number, count: number, before?: number): Promise<BreakerTransitionEntity[]> {
    const query = this.transitions
      .createQueryBuilder('t')
      .where('t.configId = :configId', { configId })
      .orderBy('t.id', 'DESC')
      .take(count);
    if (before !== undefined) query.andWhere('t.id < :before', { before });
    return query.getMany();
  }
}
