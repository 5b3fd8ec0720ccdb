import { Global, Injectable, Module } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { BUCKET_SLOTS, bucketOf, Family, type Labels, LATENCY_BUCKETS_SECONDS } from './exposition';

const HTTP_REQUESTS_HELP = 'HTTP requests answered by this replica, by method, route pattern and status, and how long they took';

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

  /**
   * The HTTP requests' histogram, by method, route and status: each series' bucket counts kept here and written as
   * the breakers' are (exposition.ts). It is counted on every request, and prom-client's observe (a label hash, a
   * bucket looked up by its bound as a property name) cost a fast read several times what a bucket's index does.
   * Found by route, method and status in turn: the route and method are the same string objects on every request
   * (their hashes kept), where one key built of the three was a new string to hash each time.
   */
  private readonly httpSeries: HttpSeries[] = [];
  private readonly httpSeriesByRoute = new Map<string, Map<string, Map<number, HttpSeries>>>();
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

  /** Times a request the HTTP server answered: a part of the API's one onResponse hook (app.ts). */
  timeRequest(request: FastifyRequest, reply: FastifyReply) {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const { method } = request;
    const status = reply.statusCode;
    let byMethod = this.httpSeriesByRoute.get(route);
    if (!byMethod) this.httpSeriesByRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) {
      series = { labels: { method, route, status: String(status) }, buckets: new Float64Array(BUCKET_SLOTS), sum: 0 };
      byStatus.set(status, series);
      this.httpSeries.push(series);
    }
    const ms = reply.elapsedTime;
    series.buckets[bucketOf(ms)]! += 1;
    series.sum += ms / 1000;
  }

  /** The exposition of every figure here. */
  async text(): Promise<string> {
    const requests = new Family('cbh_http_request_duration_seconds', 'histogram', HTTP_REQUESTS_HELP);
    for (const series of this.httpSeries) requests.histogram(series.labels, series.buckets, series.sum);
    const text = await this.registry.metrics();
    return requests.empty ? text : `${text}\n${requests.text()}\n`;
  }
}

interface HttpSeries {
  labels: Labels;
  buckets: Float64Array;
  sum: number;
}

/** HubMetrics for every module, so that whatever does the work counts it. */
@Global()
@Module({ providers: [HubMetrics], exports: [HubMetrics] })
export class HubMetricsModule {}
