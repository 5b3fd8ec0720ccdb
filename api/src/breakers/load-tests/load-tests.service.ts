import {
  ConflictException,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  ServiceUnavailableException,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { z } from 'zod';
import { runCalls } from '@cbh/breaker';
import { BreakerFaults, faultedCall, HUB_TIMEOUT_FAULT_MS } from '../breaker-faults';
import { outsideBreakerMessage, type startTestSessionSchema, type TestSessionView } from '@cbh/contracts';
import { type AppRequest, AuditService } from '../../identity';
import { BreakerRegistry } from '../breaker-registry.service';
import { BreakerConfigEntity } from '../entities/breaker-config.entity';
import { APP_CONFIG, type AppConfig, InstanceRegistry, PeriodicWork, RealtimeBus, type Repeating } from '../../platform';
import { MetricsService } from '../metrics/metrics.service';
import { TestSessionEntity, type TestSessionStatus, toTestSessionView } from './entities/test-session.entity';
import { TestSessionsRepository } from './test-sessions.repository';

const TICK_MS = 100;
const HEARTBEAT_MS = 1000;
/** A running session whose owner has not reported for this long is taken over by another replica. */
const ORPHAN_AFTER_SECONDS = 10;
/** Claims are looked for this often, so a crashed replica's session resumes within ORPHAN_AFTER_SECONDS + 2 s. */
const CLAIM_EVERY_MS = 2000;
const SIMULATED_MEAN_LATENCY_MS = 80;

/**
 * Load tests run in the API at the session's rate through the configuration's breaker against a simulated
 * downstream. A session lives in the database: it ends by itself, can be stopped from any replica, and one
 * whose replica died is picked up by another (or by the same one after a restart).
 */
@Injectable()
export class LoadTestsService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(LoadTestsService.name);
  private readonly running = new Map<number, NodeJS.Timeout>();
  private claiming?: Repeating;

  constructor(
    private readonly work: PeriodicWork,
    private readonly dataSource: DataSource,
    private readonly claims: TestSessionsRepository,
    private readonly registry: BreakerRegistry,
    private readonly metrics: MetricsService,
    private readonly instance: InstanceRegistry,
    private readonly audit: AuditService,
    private readonly bus: RealtimeBus,
    private readonly faults: BreakerFaults,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Set once the replica shuts down: it starts and claims no session any more. */
  private stopping = false;

  private get sessions() {
    return this.dataSource.getRepository(TestSessionEntity);
  }

  async onApplicationBootstrap() {
    this.claiming = this.work.every(
      CLAIM_EVERY_MS,
      () => this.claimOrphans(),
      (error) => this.logger.warn(`load tests not claimed: ${error.message}`),
    );
    // a replica shutting down hands its sessions over: take them now rather than at the next claim round (after a
    // claim going on, which may have read the table before they were let go)
    this.bus.subscribeInternal('sessions-released', ({ origin }) => {
      if (origin !== this.instance.id) void this.claiming?.runAgain();
    });
    // the first claim's failure fails the start, as a database that cannot be read should
    await this.claimOrphans();
  }

  /**
   * Shutting down in order: stop driving the sessions and hand them to the other replicas at once, without
   * waiting for the heartbeat to lapse (a crashed replica's sessions are claimed after ORPHAN_AFTER_SECONDS).
   */
  async beforeApplicationShutdown() {
    this.stopping = true;
    // a claim in flight would drive what it took after the sessions below are let go
    await this.claiming?.stop();
    for (const timer of this.running.values()) clearInterval(timer);
    this.running.clear();
    const released = await this.claims.release(this.instance.id).catch(() => []);
    if (released.length > 0) await this.bus.publishInternal('sessions-released', released).catch(() => undefined);
  }

  async list(status?: TestSessionStatus, configId?: number): Promise<TestSessionView[]> {
    const sessions = await this.sessions.find({
      where: { ...(status ? { status } : {}), ...(configId ? { configId } : {}) },
      order: { id: 'DESC' },
      take: configId ? 50 : 100,
    });
    return sessions.map(toTestSessionView);
  }

  async start(req: AppRequest, input: z.infer<typeof startTestSessionSchema>): Promise<TestSessionView> {
    if (this.stopping) throw new ServiceUnavailableException('This replica is shutting down; start the load test again');
    if (!this.registry.get(input.configId)) {
      const outside = await this.dataSource.getRepository(BreakerConfigEntity).findOneBy({ id: input.configId });
      if (outside) throw new ConflictException(outsideBreakerMessage(outside.name, outside.service ?? ''));
      throw new NotFoundException(`No circuit breaker with id ${input.configId}`);
    }
    const session = await this.claims.insertRunning(
      {
        configId: input.configId,
        failureRate: input.failureRate,
        requestRate: input.requestRate,
        durationMinutes: input.duration,
        ownerInstance: this.instance.id,
        createdBy: req.user!.id,
      },
      { perUser: this.config.LOAD_TESTS_PER_USER, total: this.config.LOAD_TESTS_TOTAL },
    );
    if (session === 'per-user') {
      throw new HttpException(
        `You already run ${this.config.LOAD_TESTS_PER_USER} load tests, the most one account may run at once (LOAD_TESTS_PER_USER); stop one first`,
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    if (session === 'total') {
      throw new HttpException(
        `${this.config.LOAD_TESTS_TOTAL} load tests are running, the most the site runs at once (LOAD_TESTS_TOTAL); try again when one ends`,
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    if (session === 'busy') throw new ConflictException(`A load test is already running for circuit breaker ${input.configId}`);
    if (session === 'gone') throw new NotFoundException(`No circuit breaker with id ${input.configId}`);
    await this.audit.record(req, {
      action: 'load-test.start',
      targetType: 'test_session',
      targetId: String(session.id),
      after: toTestSessionView(session),
    });
    this.drive(session);
    return toTestSessionView(session);
  }

  async stop(req: AppRequest, id: number): Promise<TestSessionView> {
    const stopped = await this.claims.stopRunning(id);
    this.halt(id);
    if (stopped) {
      await this.audit.record(req, {
        action: 'load-test.stop',
        targetType: 'test_session',
        targetId: String(id),
        after: toTestSessionView(stopped),
      });
      return toTestSessionView(stopped);
    }
    const existing = await this.sessions.findOneBy({ id });
    if (!existing) throw new NotFoundException(`No test session with id ${id}`);
    return toTestSessionView(existing);
  }

  /** Takes over running sessions nobody drives (their replica stopped or crashed), and drives them here. */
  private async claimOrphans() {
    // a replica shutting down takes nothing more on
    if (this.stopping) return;
    for (const session of await this.claims.claimOrphans(this.instance.id, ORPHAN_AFTER_SECONDS)) {
      this.logger.log(`resuming load test ${session.id} of breaker ${session.configId}`);
      this.drive(session);
    }
  }

  private drive(session: TestSessionEntity) {
    // a session claimed back by its own driver (its beats lapsed through a database outage) goes on from the row
    this.halt(session.id);
    const downstream = { failureRate: session.failureRate, meanLatencyMs: SIMULATED_MEAN_LATENCY_MS };
    const record = (outcome: Parameters<MetricsService['record']>[1], latency: number) =>
      this.metrics.record(session.configId, outcome, latency);
    let origin = Date.now();
    let made = 0;
    let lastBeat = Date.now();
    const timer = setInterval(() => {
      const breaker = this.registry.get(session.configId);
      const now = Date.now();
      if (!breaker) return this.halt(session.id);
      // past its end no call is made, even while the database is away and cannot record the end yet
      const due = now < session.endsAt.getTime() ? Math.floor(((now - origin) * session.requestRate) / 1000) - made : 0;
      if (due > 0) {
        // a drill's fault on this breaker changes the simulated calls it sees, as it would a service's real ones
        const fault = this.faults.forHubBreaker(session.configId);
        runCalls(
          breaker,
          due,
          fault ? { ...downstream, alter: (call) => faultedCall(fault, call, HUB_TIMEOUT_FAULT_MS) } : downstream,
          record,
        );
        made += due;
      }
      if (made > 1_000_000) {
        origin = now;
        made = 0;
      }
      if (now - lastBeat >= HEARTBEAT_MS) {
        lastBeat = now;
        // a database outage does not stop the session: its calls go on and are counted, and the beat is tried again
        void this.beat(session.id, session.endsAt).catch((error: Error) => this.logger.warn(`load test ${session.id}: ${error.message}`));
      }
    }, TICK_MS);
    timer.unref();
    this.running.set(session.id, timer);
  }

  /** Keeps ownership fresh; ends the session at its end time, and stops driving one stopped elsewhere. */
  private async beat(id: number, endsAt: Date) {
    if (Date.now() >= endsAt.getTime()) {
      await this.sessions.update({ id, status: 'running' }, { status: 'completed' });
      return this.halt(id);
    }
    if (!(await this.claims.heartbeat(id, this.instance.id))) this.halt(id);
  }

  private halt(id: number) {
    clearInterval(this.running.get(id));
    this.running.delete(id);
  }
}
