import { Controller, Get, Header } from '@nestjs/common';
import { exposition, HubMetrics, MetricsScrape } from '../../platform';
import { BreakerRegistry } from '../breaker-registry.service';
import { FleetCatalog } from '../fleet/fleet-catalog.service';
import { FleetFigures } from '../fleet/fleet-figures.service';
import { spanOf, windowOf } from '../fleet/instance-periods';
import { MetricsService } from './metrics.service';
import { type AgentInstance, breakerFamilies, type ClusterBreaker, MAX_AGENT_INSTANCES } from './prometheus';

const byKey = (a: AgentInstance, b: AgentInstance) =>
  a.service.localeCompare(b.service) || a.name.localeCompare(b.name) || a.instance.localeCompare(b.instance);

/**
 * GET /metrics (outside /api, where scrapers look): this replica's own figures and breakers, the agents' breakers on
 * the replica that writes them, and the cluster's view under names of its own (see prometheus.ts).
 */
@Controller('metrics')
export class PrometheusController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly registry: BreakerRegistry,
    private readonly fleet: FleetFigures,
    private readonly catalog: FleetCatalog,
    private readonly hub: HubMetrics,
  ) {}

  @Get()
  @MetricsScrape()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  async scrape(): Promise<string> {
    const now = Date.now();
    const agents = this.agentInstances(now);
    const replicas = this.metrics.replicas(now);
    const cluster: ClusterBreaker[] = [
      ...this.metrics.latest(now, replicas).map((stats) => ({ name: this.registry.nameOf(stats.configId), service: null, stats })),
      ...this.fleet.stats().flatMap((stats) => {
        const config = this.catalog.get(stats.configId);
        return config?.source === 'agent' ? [{ name: config.name, service: config.service, stats }] : [];
      }),
    ];
    const breakers = breakerFamilies({
      own: this.metrics.ownBreakers(now),
      agents: agents?.slice(0, MAX_AGENT_INSTANCES) ?? null,
      agentsLeftOut: Math.max(0, (agents?.length ?? 0) - MAX_AGENT_INSTANCES),
      cluster,
      replicas: replicas.length,
      now,
    });
    const own = await this.hub.text();
    return `${own}${own.endsWith('\n') ? '' : '\n'}${exposition(breakers)}`;
  }

  /** Every live instance of every agent breaker, by service, name and instance. */
  private agentInstances(now: number): AgentInstance[] | null {
    const instances = this.fleet.agentInstances(now);
    if (instances === null) return null;
    return instances
      .flatMap(({ config, rows }) =>
        rows.map((row) => ({
          service: config.service ?? '',
          name: config.name,
          instance: row.instance,
          state: row.state,
          override: row.override,
          window: windowOf(row.periods, now, spanOf(row.periodMs)).window,
          totals: row.totals,
        })),
      )
      .sort(byKey);
  }
}
