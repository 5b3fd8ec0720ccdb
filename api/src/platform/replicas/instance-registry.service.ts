import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PeriodicWork } from '../common/periodic-work';
import type { Repeating } from '../common/repeating';
import { ApiInstancesRepository } from './api-instances.repository';
import { ApiInstanceEntity } from './entities/api-instance.entity';

const HEARTBEAT_MS = 5_000;
/** An instance that has not reported for this long counts as gone. */
const ALIVE_WINDOW_SECONDS = 15;

/** Records this API process in api_instances (start and last heartbeat: the API's availability record). */
@Injectable()
export class InstanceRegistry implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly id = randomUUID();
  private beating?: Repeating;

  constructor(
    private readonly work: PeriodicWork,
    private readonly dataSource: DataSource,
    private readonly instances: ApiInstancesRepository,
  ) {}

  async onApplicationBootstrap() {
    await this.dataSource.getRepository(ApiInstanceEntity).insert({ id: this.id, hostname: hostname(), pid: process.pid });
    // a missed beat is the next one's to make up: 15 s of silence before this replica counts as gone
    this.beating = this.work.every(HEARTBEAT_MS, () => this.instances.touch(this.id));
  }

  async onApplicationShutdown() {
    void this.beating?.stop();
    if (this.dataSource.isInitialized) {
      // The row stays (the availability record the dashboard's uptime is measured from), marked down.
      await this.instances.markStopped(this.id).catch(() => undefined);
    }
  }

  async aliveCount(): Promise<number> {
    return this.instances.countAlive(ALIVE_WINDOW_SECONDS);
  }
}
