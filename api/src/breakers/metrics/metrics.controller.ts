import { Controller, Get } from '@nestjs/common';
import { JsonBody, PerTurn, RequirePermission, toJsonBody } from '../../platform';
import { MetricsService } from './metrics.service';

@Controller('metrics')
export class MetricsController {
  /** The body is built once per turn of the event loop: a wall of screens polls it, all asking the same. */
  private readonly latestBody = new PerTurn(() => toJsonBody({ stats: this.metrics.everyBreaker() }));

  constructor(private readonly metrics: MetricsService) {}

  /** Every breaker's state and figures over the last 10 s, served from memory. */
  @Get('latest')
  @RequirePermission('circuit_breaker_view')
  @JsonBody()
  latest(): Buffer {
    return this.latestBody.get();
  }
}
