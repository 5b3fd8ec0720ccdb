import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Public } from '../auth/access.decorator';
import { InstanceRegistry } from '../replicas/instance-registry.service';

@Controller('health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly instances: InstanceRegistry,
  ) {}

  /** 200 when the database answers, 503 otherwise. */
  @Get()
  @Public()
  async health() {
    try {
      await this.dataSource.query('SELECT 1');
      const replicas = await this.instances.aliveCount();
      return { status: 'ok', database: 'up', instance: this.instances.id, replicas };
    } catch (error) {
      throw new ServiceUnavailableException(`database unreachable: ${(error as Error).message}`);
    }
  }
}
