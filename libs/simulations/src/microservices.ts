import { CircuitBreaker } from '@cbh/breaker';
import { DEFAULT_BREAKER_SETTINGS, type BreakerStateName } from '@cbh/contracts';
import { between, pick, wholeBetween } from './random';
import { Simulation, type SimulationOptions } from './simulation';

/** §9: a call every 2 s, 50 kept and 20 shown, at least 1 instance; breaker and highlight thresholds. */
export const MICROSERVICES = {
  callEveryMs: 2000,
  callsKept: 50,
  callsShown: 20,
  minInstances: 1,
  /** error rate (%) above which a service's breaker starts OPEN, and above which it starts HALF_OPEN */
  openAboveErrorRate: 3,
  halfOpenAboveErrorRate: 1,
  /** response time (ms) shown as slow, error rate (%) shown as failing, error rate (%) that raises an alert */
  slowAboveMs: 200,
  failingAboveErrorRate: 3,
  alertAboveErrorRate: 2,
} as const;

export type ServiceHealth = 'healthy' | 'degraded' | 'down';

export interface Microservice {
  id: string;
  name: string;
  status: ServiceHealth;
  version: string;
  instances: number;
  /** ms */
  responseTime: number;
  /** % */
  errorRate: number;
  /** % */
  cpu: number;
  /** % */
  memory: number;
  dependencies: string[];
  breaker: BreakerStateName;
}

export interface CallRecord {
  id: string;
  from: string;
  to: string;
  endpoint: string;
  method: 'GET' | 'POST' | 'PUT';
  status: 200 | 404 | 500;
  responseTime: number;
  timestamp: number;
}

export interface ServiceAlert {
  serviceId: string;
  service: string;
  message: string;
}

export interface MicroservicesState {
  services: Microservice[];
  /** the last 50, newest first (the page shows 20) */
  calls: CallRecord[];
}

type Seed = Omit<Microservice, 'breaker'>;
const SEED: Seed[] = [
  {
    id: 'user',
    name: 'User Service',
    status: 'healthy',
    version: '2.4.1',
    instances: 3,
    responseTime: 85,
    errorRate: 0.2,
    cpu: 34,
    memory: 48,
    dependencies: ['authentication'],
  },
  {
    id: 'order',
    name: 'Order Service',
    status: 'healthy',
    version: '3.1.0',
    instances: 4,
    responseTime: 120,
    errorRate: 1.4,
    cpu: 52,
    memory: 61,
    dependencies: ['user', 'inventory', 'payment'],
  },
  {
    id: 'payment',
    name: 'Payment Service',
    status: 'degraded',
    version: '1.9.3',
    instances: 2,
    responseTime: 340,
    errorRate: 4.8,
    cpu: 78,
    memory: 72,
    dependencies: ['user'],
  },
  {
    id: 'inventory',
    name: 'Inventory Service',
    status: 'healthy',
    version: '2.0.7',
    instances: 3,
    responseTime: 95,
    errorRate: 0.6,
    cpu: 41,
    memory: 55,
    dependencies: [],
  },
  {
    id: 'notification',
    name: 'Notification Service',
    status: 'healthy',
    version: '1.3.2',
    instances: 2,
    responseTime: 60,
    errorRate: 0.3,
    cpu: 22,
    memory: 37,
    dependencies: ['user'],
  },
  {
    id: 'authentication',
    name: 'Authentication Service',
    status: 'healthy',
    version: '4.0.0',
    instances: 3,
    responseTime: 45,
    errorRate: 0.1,
    cpu: 30,
    memory: 42,
    dependencies: [],
  },
];

const ENDPOINTS = ['/api/v1/items', '/api/v1/status', '/api/v1/validate', '/api/v1/orders'] as const;
const METHODS = ['GET', 'POST', 'PUT'] as const;

/** The state a service's breaker starts in: OPEN above 3 % errors, HALF_OPEN above 1 %, else CLOSED. */
export function initialBreakerState(errorRate: number): BreakerStateName {
  if (errorRate > MICROSERVICES.openAboveErrorRate) return 'OPEN';
  if (errorRate > MICROSERVICES.halfOpenAboveErrorRate) return 'HALF_OPEN';
  return 'CLOSED';
}

/** What Toggle moves a breaker to: closed → open → half-open → closed. */
export const NEXT_BREAKER_STATE: Record<BreakerStateName, BreakerStateName> = { CLOSED: 'OPEN', OPEN: 'HALF_OPEN', HALF_OPEN: 'CLOSED' };

export const isSlow = (service: Pick<Microservice, 'responseTime'>) => service.responseTime > MICROSERVICES.slowAboveMs;
export const isFailing = (service: Pick<Microservice, 'errorRate'>) => service.errorRate > MICROSERVICES.failingAboveErrorRate;

/** Services that are not healthy, or whose error rate is above 2 %. */
export function serviceAlerts(services: readonly Microservice[]): ServiceAlert[] {
  return services.flatMap((service) => {
    const alerts: ServiceAlert[] = [];
    if (service.status !== 'healthy')
      alerts.push({ serviceId: service.id, service: service.name, message: `${service.name} is ${service.status}` });
    if (service.errorRate > MICROSERVICES.alertAboveErrorRate) {
      alerts.push({ serviceId: service.id, service: service.name, message: `${service.name} error rate is ${service.errorRate}%` });
    }
    return alerts;
  });
}

/**
 * Microservices: six services calling each other, each behind a real @cbh/breaker breaker — the state machine
 * the learning page teaches. Toggle drives that machine, not a label: CLOSED → OPEN by failed calls up to its
 * threshold, OPEN → HALF_OPEN by its open period passing, HALF_OPEN → CLOSED by the library's reset.
 */
export class MicroservicesSimulation extends Simulation<MicroservicesState> {
  private readonly breakers = new Map<string, CircuitBreaker>();

  constructor(options: SimulationOptions = {}) {
    super({ services: [], calls: [] }, options);
    for (const seed of SEED) this.breakers.set(seed.id, this.breakerIn(initialBreakerState(seed.errorRate)));
    this.update((state) => ({ ...state, services: SEED.map((seed) => ({ ...seed, breaker: this.breakers.get(seed.id)!.state })) }));
    // whatever moves a breaker (a call, its open period passing, Toggle), the page shows its state at once
    for (const [id, breaker] of this.breakers)
      breaker.onTransition(() => this.patch(id, (service) => ({ ...service, breaker: breaker.state })));
  }

  start() {
    this.every(MICROSERVICES.callEveryMs, () => {
      // an open breaker whose open period has passed is HALF_OPEN now, called or not
      for (const breaker of this.breakers.values()) breaker.tick(this.scheduler.now());
      this.call();
    });
  }

  /** The breaker itself, for a test or a view that shows its transitions. */
  breakerOf(serviceId: string): CircuitBreaker | undefined {
    return this.breakers.get(serviceId);
  }

  scale(serviceId: string, by: 1 | -1) {
    this.patch(serviceId, (service) => ({ ...service, instances: Math.max(MICROSERVICES.minInstances, service.instances + by) }));
  }

  /** Healthy again, with new figures (its breaker keeps its own state: it learns from the calls that follow). */
  restart(serviceId: string) {
    this.patch(serviceId, (service) => ({
      ...service,
      status: 'healthy',
      responseTime: wholeBetween(this.random, 40, 150),
      errorRate: Math.round(between(this.random, 0, 1) * 10) / 10,
      cpu: wholeBetween(this.random, 10, 45),
      memory: wholeBetween(this.random, 20, 50),
    }));
  }

  toggleBreaker(serviceId: string) {
    const breaker = this.breakers.get(serviceId);
    if (!breaker) return;
    const now = this.scheduler.now();
    switch (breaker.tick(now)) {
      case 'CLOSED':
        // the library's own way to open: failed calls up to its threshold (forceOpen would be an override that
        // cannot half-open, and clearing it would add an OPEN → CLOSED step to its journal)
        this.trip(breaker);
        break;
      case 'OPEN':
        // its open period is over: the next call would be a trial
        breaker.tick(now + breaker.settings.timeout);
        break;
      case 'HALF_OPEN':
        breaker.reset();
        break;
    }
    this.patch(serviceId, (service) => ({ ...service, breaker: breaker.state }));
  }

  /**
   * One call along a dependency, through the callee's breaker: an open breaker refuses it at once (a 500 with no
   * wait); otherwise the callee answers 500 as often as its error rate says, 404 one time in twenty, else 200, and
   * the breaker records a 500 as a failure.
   */
  call() {
    const from = pick(
      this.random,
      this.state.services.filter((service) => service.dependencies.length > 0),
    );
    const toId = pick(this.random, from.dependencies);
    const to = this.state.services.find((s) => s.id === toId)!;
    const breaker = this.breakers.get(to.id)!;
    const roll = this.random.next();
    const admitted = breaker.admit() === 'permitted';
    const status: CallRecord['status'] = !admitted || roll < to.errorRate / 100 ? 500 : roll < to.errorRate / 100 + 0.05 ? 404 : 200;
    if (admitted) breaker.record(status !== 500);
    const record: CallRecord = {
      id: this.nextId('call'),
      from: from.name,
      to: to.name,
      endpoint: pick(this.random, ENDPOINTS),
      method: pick(this.random, METHODS),
      status,
      responseTime: admitted ? Math.max(1, Math.round(to.responseTime * between(this.random, 0.6, 1.4))) : 0,
      timestamp: this.scheduler.now(),
    };
    this.update((state) => ({ ...state, calls: [record, ...state.calls].slice(0, MICROSERVICES.callsKept) }));
  }

  private patch(serviceId: string, change: (service: Microservice) => Microservice) {
    this.update((state) => ({
      ...state,
      services: state.services.map((service) => (service.id === serviceId ? change(service) : service)),
    }));
  }

  /** A breaker on this simulation's clock, driven into the state asked for. */
  private breakerIn(state: BreakerStateName): CircuitBreaker {
    const breaker = new CircuitBreaker({ type: 'simple', ...DEFAULT_BREAKER_SETTINGS }, this.scheduler);
    if (state !== 'CLOSED') this.trip(breaker);
    if (state === 'HALF_OPEN') breaker.tick(this.scheduler.now() + breaker.settings.timeout);
    return breaker;
  }

  /** Failed calls up to its threshold: it opens as it would in production. */
  private trip(breaker: CircuitBreaker) {
    for (let i = 0; i < breaker.settings.failureThreshold && breaker.state === 'CLOSED'; i++) {
      if (breaker.admit() === 'permitted') breaker.record(false);
    }
  }
}
