import { createHash } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { drillFaultId, type AgentFault, type AgentFaultsStatus, type DrillFault } from '@cbh/contracts';
import { BreakerFaults, type FaultPlan } from '../breakers';
import { newestRead, RealtimeBus } from '../platform';
import { DrillEntity, type StoredStep } from './entities/drill.entity';
import { DrillsRepository } from './drills.repository';

/** A running drill's step as every replica keeps it: its fault's id, its breaker, and when it runs (ms). */
interface PlannedStep {
  drillId: number;
  step: StoredStep;
  faultId: string;
  startsAt: number;
  endsAt: number;
}

/** Whether an instance is among a step's share: a hash of the fault and the instance, the same on every replica. */
export function instanceChosen(faultId: string, instance: string, instances: 'all' | number): boolean {
  if (instances === 'all' || instances >= 100) return true;
  return createHash('sha256').update(`${faultId}:${instance}`).digest().readUInt32BE(0) % 100 < instances;
}

/** Notes of faults written at most this often, in one statement. */
const NOTE_EVERY_MS = 500;
/** Notes remembered as written, so that each (fault, instance, what) is written once; emptied when full. */
const NOTED_KEPT = 100_000;

/**
 * The faults of the running drills, as every replica answers them on each agent report and each simulated call:
 * read from the database at start and whenever any replica starts or ends a drill (drills-changed over
 * LISTEN/NOTIFY), and again at each step's start and end. What instances say of them is written to drill_faults.
 */
@Injectable()
export class DrillPlan implements FaultPlan, OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DrillPlan.name);
  private byBreaker = new Map<number, PlannedStep[]>();
  private timer?: NodeJS.Timeout;
  private noteTimer?: NodeJS.Timeout;
  private notes = new Map<string, { drillId: number; step: number; instance: string; applied: boolean; refused: string | null }>();
  private readonly noted = new Set<string>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly faults: BreakerFaults,
    private readonly repository: DrillsRepository,
    private readonly bus: RealtimeBus,
  ) {}

  onModuleInit() {
    this.faults.register(this);
    this.bus.whenTold(['drills-changed'], () => this.reload());
  }

  async onApplicationBootstrap() {
    await this.reload();
  }

  onModuleDestroy() {
    clearTimeout(this.timer);
    clearTimeout(this.noteTimer);
  }

  /** The running drills' steps, as the database has them now; then a timer for the next step to start or end. */
  async reload(): Promise<void> {
    try {
      await this.readNewest();
    } catch (error) {
      this.logger.warn(`drills not read: ${(error as Error).message}`);
    }
  }

  /** The running drills read; kept unless a read started later was kept first. */
  private readonly readNewest = newestRead(
    () => this.dataSource.getRepository(DrillEntity).find({ where: { state: 'running' } }),
    (drills) => {
      const byBreaker = new Map<number, PlannedStep[]>();
      for (const drill of drills) {
        for (const step of drill.steps) {
          const planned = {
            drillId: drill.id,
            step,
            faultId: drillFaultId(drill.id, step.index),
            startsAt: Date.parse(step.startsAt),
            endsAt: Date.parse(step.endsAt),
          };
          byBreaker.set(step.breakerId, [...(byBreaker.get(step.breakerId) ?? []), planned]);
        }
      }
      this.byBreaker = byBreaker;
      this.wakeAtNextEdge();
    },
  );

  /** A step's start or end needs no database read (the times are known), but its end is when faults must be gone. */
  private wakeAtNextEdge() {
    clearTimeout(this.timer);
    const now = Date.now();
    const edges = [...this.byBreaker.values()]
      .flat()
      .flatMap((planned) => [planned.startsAt, planned.endsAt])
      .filter((at) => at > now);
    if (edges.length === 0) return;
    this.timer = setTimeout(() => void this.reload(), Math.min(...edges) - now + 5);
    this.timer.unref();
  }

  /** The step running on a breaker now, if any. */
  private current(breakerId: number, now: number): PlannedStep | undefined {
    return this.byBreaker.get(breakerId)?.find((planned) => planned.startsAt <= now && now < planned.endsAt);
  }

  forInstance(service: string, instance: string, breakers: readonly { id: number; name: string }[]): AgentFault[] {
    if (this.byBreaker.size === 0) return [];
    const now = Date.now();
    return breakers.flatMap(({ id, name }) => {
      const planned = this.current(id, now);
      if (!planned || !instanceChosen(planned.faultId, `${service}/${instance}`, planned.step.instances)) return [];
      const { kind, rate, latencyMs } = planned.step.fault;
      return [{ id: planned.faultId, breaker: name, kind, rate, ...(latencyMs ? { latencyMs } : {}), until: planned.step.endsAt }];
    });
  }

  forHubBreaker(configId: number): DrillFault | undefined {
    if (this.byBreaker.size === 0) return undefined;
    return this.current(configId, Date.now())?.step.fault;
  }

  reported(service: string, instance: string, status: AgentFaultsStatus | undefined, sent: readonly AgentFault[]): void {
    if (sent.length === 0 && !status?.refused?.length) return;
    const who = `${service}/${instance}`;
    const active = new Set(status?.active ?? []);
    const refused = new Map((status?.refused ?? []).map((refusal) => [refusal.id, refusal.reason]));
    for (const fault of sent) {
      const [, drill, step] = /^drill-(\d+)-(\d+)$/.exec(fault.id) ?? [];
      if (!drill) continue;
      // an agent from before faults says nothing of them: it is sent them, and applies none
      const why = status === undefined ? null : !status.allowed ? 'this service does not take faults' : (refused.get(fault.id) ?? null);
      const what = why ? 'refused' : active.has(fault.id) ? 'applied' : 'sent';
      this.note(`${fault.id}|${who}|${what}`, {
        drillId: Number(drill),
        step: Number(step),
        instance: who,
        applied: what === 'applied',
        refused: why,
      });
    }
  }

  private note(key: string, row: { drillId: number; step: number; instance: string; applied: boolean; refused: string | null }) {
    if (this.noted.has(key)) return;
    if (this.noted.size >= NOTED_KEPT) this.noted.clear();
    this.noted.add(key);
    this.notes.set(key, row);
    this.noteTimer ??= setTimeout(() => void this.writeNotes(), NOTE_EVERY_MS);
  }

  private async writeNotes() {
    this.noteTimer = undefined;
    // one row per (drill, step, instance): an upsert may not touch a row twice in one statement
    const merged = new Map<string, { drillId: number; step: number; instance: string; applied: boolean; refused: string | null }>();
    for (const row of this.notes.values()) {
      const key = `${row.drillId}|${row.step}|${row.instance}`;
      const before = merged.get(key);
      merged.set(key, before ? { ...row, applied: before.applied || row.applied, refused: before.refused ?? row.refused } : row);
    }
    const written = [...this.notes.keys()];
    const rows = [...merged.values()];
    this.notes = new Map();
    try {
      await this.repository.noteFaults(rows);
      for (const drillId of new Set(rows.map((row) => row.drillId))) {
        await this.bus.publish({ type: 'drillChanged', data: { id: drillId, state: 'running' } });
      }
    } catch (error) {
      // written again when the instance next reports
      for (const key of written) this.noted.delete(key);
      this.logger.warn(`drill faults not noted: ${(error as Error).message}`);
    }
  }
}
