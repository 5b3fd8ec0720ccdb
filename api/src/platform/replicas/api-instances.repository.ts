import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiInstanceEntity } from './entities/api-instance.entity';

/**
 * The api_instances reads and writes that go by the database clock: every replica's heartbeat and every
 * liveness question are timed by the one clock they share, whatever the clocks of their hosts say.
 */
@Injectable()
export class ApiInstancesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get instances() {
    return this.dataSource.getRepository(ApiInstanceEntity);
  }

  /** Resolves when the database answers, rejects with the reason when it does not. */
  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }

  /** Marks the instance as seen now. */
  async touch(id: string): Promise<void> {
    await this.instances.update({ id }, { lastSeenAt: () => 'now()' });
  }

  /** Marks the instance as seen now and down: it shut down in order. */
  async markStopped(id: string): Promise<void> {
    await this.instances.update({ id }, { lastSeenAt: () => 'now()', stoppedAt: () => 'now()' });
  }

  /** How many instances reported within the last withinSeconds and have not shut down. */
  async countAlive(withinSeconds: number): Promise<number> {
    return this.instances
      .createQueryBuilder('instance')
      .where('instance.last_seen_at > now() - make_interval(secs => :withinSeconds)', { withinSeconds })
      .andWhere('instance.stopped_at IS NULL')
      .getCount();
  }
}
