import {
  APP_CONFIG,
  type AppConfig,
  outboundGet,
  OutboundTimeoutError,
  pageOptions,
  RealtimeBus,
  seedOnce,
  withUniqueName,
} from '../../platform';
import type { AddressInfo } from 'node:net';
import { ConflictException, Inject, Injectable, NotFoundException, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { DataSource, type EntityManager } from 'typeorm';
import type { z } from 'zod';
import { REJECTION_MESSAGES, type CallOutcome } from '@cbh/breaker';
import {
  CHAOS_PATH,
  type createServiceSchema,
  type ListPageQuery,
  type ServiceView,
  type TestResultView,
  type updateServiceSchema,
  outsideBreakerMessage,
} from '@cbh/contracts';
import { type AppRequest, AuditService } from '../../identity';
import { BreakerFaults, faultedCall } from '../breaker-faults';
import { BreakerRegistry } from '../breaker-registry.service';
import { BreakerConfigEntity } from '../entities/breaker-config.entity';
import { MetricsService } from '../metrics/metrics.service';
import { ServiceEntity, toServiceView } from './entities/service.entity';
import { ownCallHeaders } from './own-call';

/** A test call's whole deadline, body included. */
const TEST_CALL_TIMEOUT_MS = 10_000;
/**
 * The chaos target answers within a test call's deadline at most: a later answer would never be read, and a
 * request held longer only ties up the API (averageResponseTime goes up to 60 s; the demo services' are 50–200 ms).
 */
const CHAOS_MAX_DELAY_MS = TEST_CALL_TIMEOUT_MS;

/** A service's own chaos target. */
export const chaosPathOf = (serviceId: number) => `/api/chaos/${serviceId}`;

/** SEED_DEMO's services: the first three behind the three demo breakers, each answered by the chaos target. */
const DEMO_SERVICES = [
  { name: 'Payment Service', failureRate: 10, averageResponseTime: 120, breakerName: 'Payment Gateway' },
  { name: 'Inventory Service', failureRate: 20, averageResponseTime: 200, breakerName: 'Inventory Service' },
  { name: 'Search Service', failureRate: 5, averageResponseTime: 80, breakerName: 'Search API' },
  { name: 'Notification Service', failureRate: 2, averageResponseTime: 50, breakerName: null },
];

@Injectable()
export class ServicesService implements OnApplicationBootstrap {
  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: BreakerRegistry,
    private readonly audit: AuditService,
    private readonly http: HttpAdapterHost,
    private readonly metrics: MetricsService,
    private readonly bus: RealtimeBus,
    private readonly faults: BreakerFaults,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get repository() {
    return this.dataSource.getRepository(ServiceEntity);
  }

  async onApplicationBootstrap() {
    if (!this.config.SEED_DEMO) return;
    await seedOnce(this.dataSource, ServiceEntity, async (manager) => {
      for (const demo of DEMO_SERVICES) {
        const breaker = demo.breakerName ? await manager.findOneBy(BreakerConfigEntity, { name: demo.breakerName }) : null;
        const service = await manager.save(
          ServiceEntity,
          manager.create(ServiceEntity, { ...demo, endpoint: '/api/chaos/0', circuitBreakerConfigId: breaker?.id ?? null }),
        );
        await manager.update(ServiceEntity, { id: service.id }, { endpoint: chaosPathOf(service.id) });
      }
    });
  }

  async list(page: ListPageQuery): Promise<ServiceView[]> {
    return (await this.repository.find(pageOptions(page))).map(toServiceView);
  }

  /** Every service in id order, read in the caller's transaction (a configuration document's). */
  allIn(manager: EntityManager): Promise<ServiceEntity[]> {
    return manager.find(ServiceEntity, { order: { id: 'ASC' } });
  }

  async find(id: number): Promise<ServiceEntity> {
    const service = await this.repository.findOneBy({ id });
    if (!service) throw new NotFoundException(`No service with id ${id}`);
    return service;
  }

  async create(req: AppRequest, input: z.infer<typeof createServiceSchema>): Promise<ServiceView> {
    const service = await this.dataSource.transaction((manager) => this.createIn(manager, req, input));
    return this.announceChange(service);
  }

  /**
   * Creates and audits a service inside the caller's transaction; announceChange tells the screens once it commits.
   * ownChaosTarget points its endpoint at its own chaos target, whose path holds the id the row only now receives.
   */
  async createIn(
    manager: EntityManager,
    req: AppRequest,
    input: z.infer<typeof createServiceSchema>,
    { ownChaosTarget = false } = {},
  ): Promise<ServiceEntity> {
    await this.assertBreakerExists(manager, input.circuitBreakerConfigId);
    const service = await withUniqueName('service', input.name, () => manager.save(ServiceEntity, manager.create(ServiceEntity, input)));
    if (ownChaosTarget) {
      service.endpoint = chaosPathOf(service.id);
      await manager.update(ServiceEntity, { id: service.id }, { endpoint: service.endpoint });
    }
    await this.audit.record(
      req,
      { action: 'service.create', targetType: 'service', targetId: String(service.id), after: service },
      manager,
    );
    return service;
  }

  async update(req: AppRequest, id: number, input: z.infer<typeof updateServiceSchema>): Promise<ServiceView> {
    const service = await this.dataSource.transaction((manager) => this.updateIn(manager, req, id, input));
    return this.announceChange(service);
  }

  async updateIn(manager: EntityManager, req: AppRequest, id: number, input: z.infer<typeof updateServiceSchema>): Promise<ServiceEntity> {
    if (input.circuitBreakerConfigId !== undefined) await this.assertBreakerExists(manager, input.circuitBreakerConfigId);
    const before = await manager.findOneBy(ServiceEntity, { id });
    if (!before) throw new NotFoundException(`No service with id ${id}`);
    await withUniqueName('service', input.name ?? before.name, () => manager.update(ServiceEntity, { id }, input));
    const after = await manager.findOneByOrFail(ServiceEntity, { id });
    await this.audit.record(req, { action: 'service.update', targetType: 'service', targetId: String(id), before, after }, manager);
    return after;
  }

  async remove(req: AppRequest, id: number): Promise<void> {
    await this.dataSource.transaction((manager) => this.removeIn(manager, req, id));
    await this.announceRemoval(id);
  }

  async removeIn(manager: EntityManager, req: AppRequest, id: number): Promise<void> {
    const service = await manager.findOneBy(ServiceEntity, { id });
    if (!service) throw new NotFoundException(`No service with id ${id}`);
    await manager.delete(ServiceEntity, { id });
    await this.audit.record(req, { action: 'service.delete', targetType: 'service', targetId: String(id), before: service }, manager);
  }

  /** Tells every replica's screens about a committed service. */
  async announceChange(service: ServiceEntity): Promise<ServiceView> {
    const view = toServiceView(service);
    await this.bus.publish({ type: 'serviceUpdated', data: { serviceId: view.id, service: view } });
    return view;
  }

  async announceRemoval(id: number): Promise<void> {
    await this.bus.publish({ type: 'serviceUpdated', data: { serviceId: id, service: null } });
  }

  /** One real HTTP call to the service's endpoint, through its breaker; counted in the metrics and pushed live. */
  async test(id: number): Promise<TestResultView> {
    const { result, outcome, configId } = await this.call(id);
    if (configId !== null) this.metrics.record(configId, outcome, result.responseTime);
    await this.bus.publish({ type: 'testResult', data: result });
    return result;
  }

  private async call(id: number): Promise<{ result: TestResultView; outcome: CallOutcome; configId: number | null }> {
    const service = await this.find(id);
    const breaker = service.circuitBreakerConfigId ? this.registry.get(service.circuitBreakerConfigId) : undefined;
    const result = (success: boolean, responseTime: number, statusCode: number | null, error: string | null): TestResultView => ({
      serviceId: service.id,
      success,
      responseTime,
      circuitBreakerState: breaker?.state ?? 'CLOSED',
      statusCode,
      error,
      at: new Date().toISOString(),
    });

    const configId = breaker ? service.circuitBreakerConfigId : null;
    const admission = breaker?.admit() ?? 'permitted';
    if (admission !== 'permitted') {
      return { result: result(false, 0, null, REJECTION_MESSAGES[admission]), outcome: admission, configId };
    }
    let timedOut = false;
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      // The chaos target is this API on loopback; only it may be called there without ALLOW_PRIVATE_TARGETS, and only
      // it is shown this process's mark (it answers nobody else).
      const chaos = CHAOS_PATH.test(service.endpoint);
      const allowPrivate = chaos || this.config.ALLOW_PRIVATE_TARGETS.allowPrivate;
      const headers = chaos ? ownCallHeaders() : {};
      statusCode = (await outboundGet(this.urlOf(service), { timeoutMs: TEST_CALL_TIMEOUT_MS, allowPrivate, headers })).status;
      if (statusCode >= 400) error = `HTTP ${statusCode}`;
    } catch (caught) {
      error = (caught as Error).message;
      timedOut = caught instanceof OutboundTimeoutError;
    }
    const responseTime = Math.round(performance.now() - started);
    breaker?.record(error === null, responseTime);
    const outcome: CallOutcome = error === null ? 'success' : timedOut ? 'timeout' : 'failure';
    return { result: result(error === null, responseTime, statusCode, error), outcome, configId };
  }

  /** The chaos target is this API itself, on loopback; any other endpoint is called as given. */
  private urlOf(service: ServiceEntity): URL {
    if (!CHAOS_PATH.test(service.endpoint)) return new URL(service.endpoint);
    const { port } = this.http.httpAdapter.getHttpServer().address() as AddressInfo;
    return new URL(`http://127.0.0.1:${port}${service.endpoint}`);
  }

  /**
   * The chaos target's behaviour for a service: its average latency (±25 %, at most CHAOS_MAX_DELAY_MS) and its failure
   * rate, and a drill's fault on its breaker.
   */
  async chaos(id: number): Promise<{ delayMs: number; fail: boolean }> {
    const service = await this.find(id);
    const jitter = 0.75 + Math.random() * 0.5;
    const drawn = { ok: Math.random() * 100 >= service.failureRate, latencyMs: Math.round(service.averageResponseTime * jitter) };
    // a drill's fault on the service's breaker: the demo services take it like a real service's calls would
    const fault = service.circuitBreakerConfigId ? this.faults.forHubBreaker(service.circuitBreakerConfigId) : undefined;
    // a timeout fault holds the answer past the test call's deadline, so that the call really times out
    const { ok, latencyMs } = faultedCall(fault, drawn, TEST_CALL_TIMEOUT_MS + 500);
    return { delayMs: Math.min(fault?.kind === 'timeout' ? TEST_CALL_TIMEOUT_MS + 500 : CHAOS_MAX_DELAY_MS, latencyMs), fail: !ok };
  }

  private async assertBreakerExists(manager: EntityManager, configId: number | null) {
    if (configId === null) return;
    const breaker = await manager.findOneBy(BreakerConfigEntity, { id: configId });
    if (!breaker) throw new NotFoundException(`No circuit breaker with id ${configId}`);
    if (breaker.source !== 'hub') throw new ConflictException(outsideBreakerMessage(breaker.name, breaker.service ?? ''));
  }
}
