import { Controller, Get, Header } from '@nestjs/common';
import { MetricsScrape } from '../auth/access.decorator';
import { BreakerRegistry } from '../breakers/breaker-registry.service';
import { MetricsService } from './metrics.service';
import { prometheusText } from './prometheus';

/** GET /metrics (outside /api, where scrapers look): this replica's breakers in Prometheus format. */
@Controller('metrics')
export class PrometheusController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly registry: BreakerRegistry,
  ) {}

  @Get()
  @MetricsScrape()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape() {
    return prometheusText(this.metrics.latest(), (id) => this.registry.nameOf(id), this.metrics.totals);
  }
}
