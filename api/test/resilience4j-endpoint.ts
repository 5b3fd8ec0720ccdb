import http from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A Java service's /actuator/prometheus on loopback, as Spring Boot 3 with resilience4j-micrometer writes it
 * (Micrometer 1.13+, Prometheus text format 0.0.4): every breaker's six state series with one at 1, its failure and
 * slow-call rates (-1 below the minimum number of calls), its sliding window's buffered and slow calls by kind, the
 * calls timer by kind, the not-permitted counter, all tagged with the application's name, among a few JVM metrics
 * the hub must skip. The test drives it: states, calls, a restart, a bad answer.
 */

export type EndpointBreakerState = 'closed' | 'open' | 'half_open' | 'forced_open' | 'disabled' | 'metrics_only';

export interface EndpointBreaker {
  name: string;
  /** Default closed. */
  state?: EndpointBreakerState;
  /** resilience4j's defaults: a count-based window of 100 calls, rates only from 100 calls on, slow above 60 s. */
  slidingWindowSize?: number;
  minimumNumberOfCalls?: number;
  slowCallDurationThresholdMs?: number;
  /** Written instead of the rate the window gives (NaN and infinities included). */
  failureRate?: number;
  slowCallRate?: number;
}

export interface RecordedCalls {
  successful?: number;
  failed?: number;
  /** Calls that failed with an exception the breaker ignores: timed, kept out of the window. */
  ignored?: number;
  notPermitted?: number;
  /** How long each call took; default 20 ms. */
  durationMs?: number;
}

export interface Resilience4jEndpoint {
  /** The full URL of /actuator/prometheus. */
  url: string;
  /** Adds the breaker, or changes the given fields of an existing one. */
  setBreaker(name: string, change?: Partial<Omit<EndpointBreaker, 'name'>>): void;
  removeBreaker(name: string): void;
  /** Counts calls as the breaker would: timers, not-permitted counter, and the sliding window. */
  recordCalls(name: string, calls: RecordedCalls): void;
  /** Every counter, timer and window back to zero, as after the JVM restarted; breakers and states stay. */
  restart(): void;
  /** Answer every request with this instead (a 500, a login page…), or again with the metrics after null. */
  respondWith(answer: { status: number; body?: string; contentType?: string } | null): void;
  /** The exposition as it would be served now. */
  exposition(): string;
  /** Requests to any path, refused ones included, and the Authorization header of the last one. */
  requests: { count: number; lastAuthorization: string | undefined };
  close(): Promise<void>;
}

interface Timer {
  count: number;
  sumSeconds: number;
  maxSeconds: number;
}

interface BreakerFigures {
  spec: Required<Omit<EndpointBreaker, 'failureRate' | 'slowCallRate'>> & Pick<EndpointBreaker, 'failureRate' | 'slowCallRate'>;
  /** The sliding window, oldest first. */
  window: { failed: boolean; slow: boolean }[];
  timers: Record<'successful' | 'failed' | 'ignored', Timer>;
  notPermitted: number;
}

const STATES: EndpointBreakerState[] = ['disabled', 'metrics_only', 'closed', 'open', 'forced_open', 'half_open'];

/** A double as Java writes it: 1.0, -1.0, NaN, +Inf. */
function double(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

function labels(pairs: Record<string, string>): string {
  const sorted = Object.keys(pairs).sort();
  return `{${sorted.map((label) => `${label}="${escapeLabel(pairs[label] ?? '')}"`).join(',')}}`;
}

export async function startResilience4jEndpoint({
  bearerToken,
  breakers: initial = [],
  application = 'orders-service',
}: {
  bearerToken?: string;
  breakers?: EndpointBreaker[];
  /** The `application` tag Spring Boot puts on every meter (management.metrics.tags.application). */
  application?: string;
} = {}): Promise<Resilience4jEndpoint> {
  const breakers = new Map<string, BreakerFigures>();
  const startedAt = Date.now();
  let answer: { status: number; body?: string; contentType?: string } | null = null;
  const requests: Resilience4jEndpoint['requests'] = { count: 0, lastAuthorization: undefined };

  const emptyTimers = (): BreakerFigures['timers'] => ({
    successful: { count: 0, sumSeconds: 0, maxSeconds: 0 },
    failed: { count: 0, sumSeconds: 0, maxSeconds: 0 },
    ignored: { count: 0, sumSeconds: 0, maxSeconds: 0 },
  });
  const setBreaker = (name: string, change: Partial<Omit<EndpointBreaker, 'name'>> = {}) => {
    const existing = breakers.get(name);
    if (existing) {
      Object.assign(existing.spec, change);
      return;
    }
    breakers.set(name, {
      spec: { name, state: 'closed', slidingWindowSize: 100, minimumNumberOfCalls: 100, slowCallDurationThresholdMs: 60_000, ...change },
      window: [],
      timers: emptyTimers(),
      notPermitted: 0,
    });
  };
  for (const { name, ...rest } of initial) setBreaker(name, rest);

  const figuresOf = (name: string) => {
    const figures = breakers.get(name);
    if (!figures) throw new Error(`no breaker ${name} on this endpoint`);
    return figures;
  };

  const recordCalls = (name: string, calls: RecordedCalls) => {
    const figures = figuresOf(name);
    const durationMs = calls.durationMs ?? 20;
    const slow = durationMs > figures.spec.slowCallDurationThresholdMs;
    for (const kind of ['successful', 'failed', 'ignored'] as const) {
      const count = calls[kind] ?? 0;
      if (count <= 0) continue;
      const timer = figures.timers[kind];
      timer.count += count;
      timer.sumSeconds += (count * durationMs) / 1000;
      timer.maxSeconds = Math.max(timer.maxSeconds, durationMs / 1000);
      if (kind === 'ignored') continue;
      for (let i = 0; i < count; i++) figures.window.push({ failed: kind === 'failed', slow });
      figures.window.splice(0, Math.max(0, figures.window.length - figures.spec.slidingWindowSize));
    }
    figures.notPermitted += calls.notPermitted ?? 0;
  };

  const exposition = () => {
    const families: { name: string; help: string; type: string; lines: string[] }[] = [];
    const family = (name: string, help: string, type: string, lines: string[]) => families.push({ name, help, type, lines });
    const all = [...breakers.values()];
    const tags = (figures: BreakerFigures, more: Record<string, string> = {}) => labels({ application, name: figures.spec.name, ...more });
    const windowOf = (figures: BreakerFigures) => {
      const failed = figures.window.filter((call) => call.failed).length;
      const slowFailed = figures.window.filter((call) => call.failed && call.slow).length;
      const slowSuccessful = figures.window.filter((call) => !call.failed && call.slow).length;
      const buffered = figures.window.length;
      const enough = buffered > 0 && buffered >= figures.spec.minimumNumberOfCalls;
      return {
        failed,
        successful: buffered - failed,
        slowFailed,
        slowSuccessful,
        failureRate: figures.spec.failureRate ?? (enough ? (100 * failed) / buffered : -1),
        slowCallRate: figures.spec.slowCallRate ?? (enough ? (100 * (slowFailed + slowSuccessful)) / buffered : -1),
      };
    };

    family('jvm_memory_used_bytes', 'The amount of used memory', 'gauge', [
      `jvm_memory_used_bytes${labels({ application, area: 'heap', id: 'G1 Eden Space' })} 2.5165824E7`,
      `jvm_memory_used_bytes${labels({ application, area: 'nonheap', id: 'Metaspace' })} 6.1403136E7`,
    ]);
    // a meter without description: Micrometer writes a blank help, "# HELP <name>  "
    family('http_server_requests_seconds', ' ', 'summary', [
      `http_server_requests_seconds_count${labels({ application, method: 'GET', outcome: 'SUCCESS', status: '200', uri: '/actuator/prometheus' })} ${requests.count}`,
      `http_server_requests_seconds_sum${labels({ application, method: 'GET', outcome: 'SUCCESS', status: '200', uri: '/actuator/prometheus' })} ${double(requests.count * 0.004)}`,
    ]);
    family('process_uptime_seconds', 'The uptime of the Java virtual machine', 'gauge', [
      `process_uptime_seconds${labels({ application })} ${double((Date.now() - startedAt) / 1000)}`,
    ]);
    if (all.length > 0) {
      family(
        'resilience4j_circuitbreaker_buffered_calls',
        'The number of buffered failed calls stored in the ring buffer',
        'gauge',
        all.flatMap((figures) => {
          const window = windowOf(figures);
          return [
            `resilience4j_circuitbreaker_buffered_calls${tags(figures, { kind: 'failed' })} ${double(window.failed)}`,
            `resilience4j_circuitbreaker_buffered_calls${tags(figures, { kind: 'successful' })} ${double(window.successful)}`,
          ];
        }),
      );
      family(
        'resilience4j_circuitbreaker_calls_seconds',
        'Total number of successful calls',
        'summary',
        all.flatMap((figures) =>
          (['failed', 'ignored', 'successful'] as const).flatMap((kind) => [
            `resilience4j_circuitbreaker_calls_seconds_count${tags(figures, { kind })} ${figures.timers[kind].count}`,
            `resilience4j_circuitbreaker_calls_seconds_sum${tags(figures, { kind })} ${double(figures.timers[kind].sumSeconds)}`,
          ]),
        ),
      );
      family(
        'resilience4j_circuitbreaker_calls_seconds_max',
        'Total number of successful calls',
        'gauge',
        all.flatMap((figures) =>
          (['failed', 'ignored', 'successful'] as const).map(
            (kind) => `resilience4j_circuitbreaker_calls_seconds_max${tags(figures, { kind })} ${double(figures.timers[kind].maxSeconds)}`,
          ),
        ),
      );
      family(
        'resilience4j_circuitbreaker_failure_rate',
        'The failure rate of the circuit breaker',
        'gauge',
        all.map((figures) => `resilience4j_circuitbreaker_failure_rate${tags(figures)} ${double(windowOf(figures).failureRate)}`),
      );
      family(
        'resilience4j_circuitbreaker_not_permitted_calls_total',
        'Total number of not permitted calls',
        'counter',
        all.map(
          (figures) =>
            `resilience4j_circuitbreaker_not_permitted_calls_total${tags(figures, { kind: 'not_permitted' })} ${double(figures.notPermitted)}`,
        ),
      );
      family(
        'resilience4j_circuitbreaker_slow_call_rate',
        'The slow call of the circuit breaker',
        'gauge',
        all.map((figures) => `resilience4j_circuitbreaker_slow_call_rate${tags(figures)} ${double(windowOf(figures).slowCallRate)}`),
      );
      family(
        'resilience4j_circuitbreaker_slow_calls',
        'The number of slow successful which were slower than a certain threshold',
        'gauge',
        all.flatMap((figures) => {
          const window = windowOf(figures);
          return [
            `resilience4j_circuitbreaker_slow_calls${tags(figures, { kind: 'failed' })} ${double(window.slowFailed)}`,
            `resilience4j_circuitbreaker_slow_calls${tags(figures, { kind: 'successful' })} ${double(window.slowSuccessful)}`,
          ];
        }),
      );
      family(
        'resilience4j_circuitbreaker_state',
        'The states of the circuit breaker',
        'gauge',
        all.flatMap((figures) =>
          STATES.map(
            (state) => `resilience4j_circuitbreaker_state${tags(figures, { state })} ${double(figures.spec.state === state ? 1 : 0)}`,
          ),
        ),
      );
    }
    return families.map(({ name, help, type, lines }) => `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${lines.join('\n')}\n`).join('');
  };

  const server = http.createServer((request, response) => {
    requests.count++;
    requests.lastAuthorization = request.headers.authorization;
    if (bearerToken !== undefined && request.headers.authorization !== `Bearer ${bearerToken}`) {
      // as Spring Security's resource server answers
      response.writeHead(401, { 'www-authenticate': 'Bearer', 'content-length': '0' }).end();
      return;
    }
    if (answer) {
      response.writeHead(answer.status, { 'content-type': answer.contentType ?? 'text/plain;charset=utf-8' }).end(answer.body ?? '');
      return;
    }
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/actuator/prometheus') {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 404, error: 'Not Found', path }));
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET' }).end();
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/plain;version=0.0.4;charset=utf-8' })
      .end(request.method === 'HEAD' ? undefined : exposition());
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

  return {
    url: `http://127.0.0.1:${port}/actuator/prometheus`,
    setBreaker,
    removeBreaker: (name) => void breakers.delete(name),
    recordCalls,
    restart: () => {
      for (const figures of breakers.values()) {
        figures.window = [];
        figures.timers = emptyTimers();
        figures.notPermitted = 0;
      }
    },
    respondWith: (next) => (answer = next),
    exposition,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
