import { ConflictException, Injectable, Logger, NotFoundException, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { z } from 'zod';
import { runCalls } from '@cbh/breaker';
import type { startTestSessionSchema, TestSessionView } from '@cbh/contracts';
import { AuditService } from '../audit/audit.service';
import type { AppRequest } from '../auth/session-user';
import { BreakerRegistry } from '../breakers/breaker-registry.service';
import { InstanceRegistry } from '../replicas/instance-registry.service';
import { MetricsService } from '../metrics/metrics.service';

const TICK_MS = 100;
const HEARTBEAT_MS = 1000;
/** A running session whose owner has not reported for this long is taken over by another replica. */
const ORPHAN_AFTER_SECONDS = 10;
const CLAIM_EVERY_MS = 5000;
const SIMULATED_MEAN_LATENCY_MS = 80;

interface SessionRow {
  id: number;
  config_id: number;
  failure_rate: number;
  request_rate: number;
  duration_minutes: number;
  status: TestSessionView['status'];
  started_at: Date;
  ends_at: Date;
  stopped_at: Date | null;
}

const toView = (row: SessionRow): TestSessionView => ({
  id: row.id,
  configId: row.config_id,
  failureRate: row.failure_rate,
  requestRate: row.request_rate,
  duration: row.duration_minutes,
  status: row.status,
  startedAt: row.started_at.toISOString(),
  endsAt: row.ends_at.toISOString(),
  stoppedAt: row.stopped_at?.toISOString() ?? null,
});

/**
 * Load tests run in the API at the session's rate through the configuration's breaker against a simulated
 * downstream. A session lives in the database: it ends by itself, can be stopped from any replica, and one
 * whose replica died is picked up by another (or by the same one after a restart).
 */
@Injectable()
export class LoadTestsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(LoadTestsService.name);
  private readonly running = new Map<number, NodeJS.Timeout>();
  private claimTimer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: BreakerRegistry,
    private readonly metrics: MetricsService,
    private readonly instance: InstanceRegistry,
    private readonly audit: AuditService,
  ) {}

  async onApplicationBootstrap() {
    await this.claimOrphans();
    this.claimTimer = setInterval(() => void this.claimOrphans().catch((e: Error) => this.logger.warn(e.message)), CLAIM_EVERY_MS);
    this.claimTimer.unref();
  }

  onApplicationShutdown() {
    clearInterval(this.claimTimer);
    for (const timer of this.running.values()) clearInterval(timer);
    this.running.clear();
  }

  async list(status?: string): Promise<TestSessionView[]> {
    const rows: SessionRow[] = await this.dataSource.query(
      `SELECT * FROM test_sessions ${status ? 'WHERE status = $1' : ''} ORDER BY id DESC LIMIT 100`,
      status ? [status] : [],
    );
    return rows.map(toView);
  }

  async start(req: AppRequest, input: z.infer<typeof startTestSessionSchema>): Promise<TestSessionView> {
    if (!this.registry.get(input.configId)) throw new NotFoundException(`No circuit breaker with id ${input.configId}`);
    let row: SessionRow;
    try {
      [row] = await this.dataSource.query(
        `INSERT INTO test_sessions (config_id, failure_rate, request_rate, duration_minutes, status, ends_at, owner_instance, created_by)
         VALUES ($1, $2, $3, $4, 'running', now() + make_interval(mins => $4), $5, $6) RETURNING *`,
        [input.configId, input.failureRate, input.requestRate, input.duration, this.instance.id, req.user!.id],
      );
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new ConflictException(`A load test is already running for circuit breaker ${input.configId}`);
      throw error;
    }
    await this.audit.record(req, { action: 'load-test.start', targetType: 'test_session', targetId: String(row!.id), after: toView(row!) });
    this.drive(row!);
    return toView(row!);
  }

  async stop(req: AppRequest, id: number): Promise<TestSessionView> {
    const [rows]: [SessionRow[], number] = await this.dataSource.query(
      `UPDATE test_sessions SET status = 'stopped', stopped_at = now() WHERE id = $1 AND status = 'running' RETURNING *`,
      [id],
    );
    this.halt(id);
    if (rows[0]) {
      await this.audit.record(req, { action: 'load-test.stop', targetType: 'test_session', targetId: String(id), after: toView(rows[0]) });
      return toView(rows[0]);
    }
    const [existing]: SessionRow[] = await this.dataSource.query('SELECT * FROM test_sessions WHERE id = $1', [id]);
    if (!existing) throw new NotFoundException(`No test session with id ${id}`);
    return toView(existing);
  }

  /** Takes over running sessions nobody drives (their replica stopped or crashed), and drives them here. */
  private async claimOrphans() {
    const [rows]: [SessionRow[], number] = await this.dataSource.query(
      `UPDATE test_sessions SET owner_instance = $1, heartbeat_at = now()
       WHERE status = 'running' AND heartbeat_at < now() - make_interval(secs => $2) RETURNING *`,
      [this.instance.id, ORPHAN_AFTER_SECONDS],
    );
    for (const row of rows) {
      this.logger.log(`resuming load test ${row.id} of breaker ${row.config_id}`);
      this.drive(row);
    }
  }

  private drive(row: SessionRow) {
    if (this.running.has(row.id)) return;
    const downstream = { failureRate: row.failure_rate, meanLatencyMs: SIMULATED_MEAN_LATENCY_MS };
    const record = (outcome: Parameters<MetricsService['record']>[1], latency: number) => this.metrics.record(row.config_id, outcome, latency);
    let origin = Date.now();
    let made = 0;
    let lastBeat = Date.now();
    const timer = setInterval(() => {
      const breaker = this.registry.get(row.config_id);
      const now = Date.now();
      if (!breaker) return this.halt(row.id);
      const due = Math.floor(((now - origin) * row.request_rate) / 1000) - made;
      if (due > 0) {
        runCalls(breaker, due, downstream, record);
        made += due;
      }
      if (made > 1_000_000) {
        origin = now;
        made = 0;
      }
      if (now - lastBeat >= HEARTBEAT_MS) {
        lastBeat = now;
        void this.beat(row.id, row.ends_at).catch((error: Error) => this.logger.warn(`load test ${row.id}: ${error.message}`));
      }
    }, TICK_MS);
    timer.unref();
    this.running.set(row.id, timer);
  }

  /** Keeps ownership fresh; ends the session at its end time, and stops driving one stopped elsewhere. */
  private async beat(id: number, endsAt: Date) {
    if (Date.now() >= endsAt.getTime()) {
      await this.dataSource.query(`UPDATE test_sessions SET status = 'completed' WHERE id = $1 AND status = 'running'`, [id]);
      return this.halt(id);
    }
    const [rows]: [unknown[], number] = await this.dataSource.query(
      `UPDATE test_sessions SET heartbeat_at = now() WHERE id = $1 AND status = 'running' AND owner_instance = $2 RETURNING id`,
      [id, this.instance.id],
    );
    if (rows.length === 0) this.halt(id);
  }

  private halt(id: number) {
    clearInterval(this.running.get(id));
    this.running.delete(id);
  }
}
