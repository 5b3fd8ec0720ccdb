import { Controller, Get } from '@nestjs/common';
import { RequirePermission } from '../../platform';
import { MetricsService } from './metrics.service';

@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  /** Every breaker's state and figures over the last 10 s, served from memory. */
  @Get('latest')
  @RequirePermission('circuit_breaker_view')
  latest() {
    return { stats: this.metrics.everyBreaker() };
  }
}
