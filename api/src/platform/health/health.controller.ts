import { Controller, Get, Logger, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public } from '../web/access.decorator';
import { ApiInstancesRepository } from '../replicas/api-instances.repository';
import { InstanceRegistry } from '../replicas/instance-registry.service';
import { errorBody } from '../common/api-exception.filter';

/** A health check answers within this, whatever the database does: load balancers and compose time out. */
const PING_TIMEOUT_MS = 2000;

@Controller('health')
export class HealthController {
  private readonly logger = new Logger(HealthController.name);

  constructor(
    private readonly database: ApiInstancesRepository,
    private readonly instances: InstanceRegistry,
  ) {}

  /**
   * 200 with the replica count when the database answers; 503 in the error shape with `database: 'down'` when it
   * does not, while this replica keeps serving what needs no database. Anyone may ask, so the driver's words (host,
   * database and user names, the server's state) go to the log, not into the answer.
   */
  @Get()
  @Public()
  async health(@Res({ passthrough: true }) res: FastifyReply) {
    try {
      await withTimeout(this.database.ping(), PING_TIMEOUT_MS);
      const replicas = await withTimeout(this.instances.aliveCount(), PING_TIMEOUT_MS);
      return { status: 'ok', database: 'up', instance: this.instances.id, replicas };
    } catch (error) {
      this.logger.warn(`database unreachable: ${(error as Error).message}`);
      res.status(503);
      return {
        ...errorBody(503, 'The database is unreachable'),
        status: 'degraded',
        database: 'down',
        instance: this.instances.id,
      };
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
