import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { Public } from '../auth/access.decorator';
import { ApiInstancesRepository } from '../replicas/api-instances.repository';
import { InstanceRegistry } from '../replicas/instance-registry.service';

@Controller('health')
export class HealthController {
  constructor(
    private readonly database: ApiInstancesRepository,
    private readonly instances: InstanceRegistry,
  ) {}

  /** 200 when the database answers, 503 otherwise. */
  @Get()
  @Public()
  async health() {
    try {
      await this.database.ping();
      const replicas = await this.instances.aliveCount();
      return { status: 'ok', database: 'up', instance: this.instances.id, replicas };
    } catch (error) {
      throw new ServiceUnavailableException(`database unreachable: ${(error as Error).message}`);
    }
  }
}
