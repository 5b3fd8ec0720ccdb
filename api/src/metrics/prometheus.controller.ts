import { Controller, Get, Header } from '@nestjs/common';
import { MetricsScrape } from '../auth/access.decorator';
import { BreakerRegistry } from '../breakers/breaker-registry.service';
import { MetricsService } from './metrics.service';
import { prometheusText } from './prometheus';

/** GET /metrics (outside /api, where scrapers look): every live replica's breakers and their sums, in Prometheus format. */
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
    const now = Date.now();
    // one snapshot of every replica serves both the cluster's figures and each replica's series
    const replicas = this.metrics.replicas(now);
    return prometheusText(this.metrics.latest(now, replicas), replicas, (id) => this.registry.nameOf(id));
  }
}
