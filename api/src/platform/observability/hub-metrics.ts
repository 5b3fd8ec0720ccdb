import { Global, Injectable, Module } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { LATENCY_BUCKETS_SECONDS } from './exposition';

/** The route label of a request that matched no route: the site's pages (served where Nest would answer 404) and 404s. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * This replica's own figures, as Prometheus clients write them (prom-client): the process's and Node's (CPU, memory,
 * event-loop lag, garbage collection…), HTTP requests by route pattern and status, /ws sockets, and the work it did
 * for the cluster (notification deliveries, domain checks, scrapes, agent reports). Every label takes a bounded set of
 * values: a route is its pattern (/api/circuit-breakers/:id), never the URL asked for.
 */
@Injectable()
export class HubMetrics {
  readonly registry = new Registry();
  private readonly registers = [this.registry];

  private readonly httpRequests = new Histogram({
    name: 'cbh_http_request_duration_seconds',
    help: 'HTTP requests answered by this replica, by method, route pattern and status, and how long they took',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [...LATENCY_BUCKETS_SECONDS],
    registers: this.registers,
  });
  /** The histogram's series by method, route and status, found once (a request's path through labels() is slower). */
  private readonly httpSeries = new Map<string, { observe(seconds: number): void }>();
  private wsSockets: () => number = () => 0;

  readonly notificationDeliveries = this.counter(
    'cbh_notification_deliveries_total',
    'Notification deliveries tried by this replica, by outcome: delivered, retry (failed, to be tried again) or failed (for good)',
    'outcome',
  );
  readonly domainChecks = this.counter(
    'cbh_domain_checks_total',
    'Domain checks run by this replica, by kind (verification, dns, tls, http, registration) and outcome',
    'kind',
    'outcome',
  );
  readonly scrapes = this.counter(
    'cbh_scrapes_total',
    'Scrapes of resilience4j targets made by this replica, by outcome (ok or error)',
    'outcome',
  );
  readonly agentReports = this.counter(
    'cbh_agent_reports_total',
    "Agents' reports taken by this replica, by outcome (accepted or refused)",
    'outcome',
  );

  /** The SLOs' counting rounds this replica ran as the holder of slos.counts (api/src/slos). */
  readonly sloRounds = new Histogram({
    name: 'cbh_slo_round_seconds',
    help: "The SLOs' counting rounds run by this replica (the holder of slos.counts): counters read, minutes recounted, alerts judged",
    buckets: [...LATENCY_BUCKETS_SECONDS],
    registers: this.registers,
  });

  constructor() {
    const sockets = () => this.wsSockets();
    new Gauge({
      name: 'cbh_ws_connections',
      help: 'Open /ws sockets on this replica',
      registers: this.registers,
      collect() {
        this.set(sockets());
      },
    });
    collectDefaultMetrics({ register: this.registry });
    // gauges named like counters, which Prometheus's linter refuses; nodejs_active_handles and _requests say the same
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
      this.registry.removeSingleMetric(name);
  }

  private counter<Label extends string>(name: string, help: string, ...labelNames: Label[]) {
    return new Counter({ name, help, labelNames, registers: this.registers });
  }

  /** Where the /ws socket count comes from (the gateway). */
  countWsConnections(count: () => number) {
    this.wsSockets = count;
  }

  /** Times every request the HTTP server answers. */
  observeRequests(http: FastifyInstance) {
    http.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      const key = `${request.method} ${reply.statusCode} ${route}`;
      let series = this.httpSeries.get(key);
      if (!series) {
        series = this.httpRequests.labels(request.method, route, String(reply.statusCode));
        this.httpSeries.set(key, series);
      }
      series.observe(reply.elapsedTime / 1000);
      done();
    });
  }

  /** The exposition of every figure here. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}

/** HubMetrics for every module, so that whatever does the work counts it. */
@Global()
@Module({ providers: [HubMetrics], exports: [HubMetrics] })
export class HubMetricsModule {}
