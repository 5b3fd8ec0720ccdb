import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ClusterLeases, HubMetrics, PeriodicWork, type Repeating } from '../platform';
import { SloEntity } from './entities/slo.entity';
import { judgeSlo, SloAlerts } from './slo-alerts';
import { SloCountsRepository } from './slo-counts.repository';
import { sloView } from './slos.service';
import { SlosRepository } from './slos.repository';

/** How often the SLOs are counted and judged. */
const ROUND_MS = 15_000;
/** Each round recounts this many minutes back: figures written late (a replica's backlog, a slow check) still count. */
const RECOUNT_MINUTES = 5;
/** Days are kept this long: the monthly reports of the past year read them. */
const DAYS_KEPT = 400;
const PRUNE_EVERY_MS = 600_000;
const DAY_MINUTES = 1440;

/**
 * Counts every SLO's good and all events per minute from the hub's own figures and judges its burn-rate alerts, on the
 * one replica holding the `slos.counts` role, in one transaction under the counting's lock: a round of a replica that
 * lost the role meanwhile waits for the other's and counts the same minutes to the same numbers.
 */
@Injectable()
export class SloCounter implements OnModuleInit {
  private readonly logger = new Logger(SloCounter.name);
  private rounds?: Repeating;
  private lastPrune = 0;

  constructor(
    private readonly work: PeriodicWork,
    private readonly dataSource: DataSource,
    private readonly leases: ClusterLeases,
    private readonly counts: SloCountsRepository,
    private readonly figures: SlosRepository,
    private readonly alerts: SloAlerts,
    private readonly hubMetrics: HubMetrics,
  ) {}

  onModuleInit() {
    this.rounds = this.work.every(ROUND_MS, () => this.round());
  }

  /** Runs a round now (the tests' way of not waiting for the next). */
  runNow(): Promise<void> {
    return this.rounds?.runAgain() ?? Promise.resolve();
  }

  private async round() {
    if (!this.leases.holds('slos.counts')) return;
    try {
      const timed = this.hubMetrics.sloRounds.startTimer();
      await this.countAndJudge(new Date());
      timed();
      if (Date.now() - this.lastPrune >= PRUNE_EVERY_MS) {
        this.lastPrune = Date.now();
        await this.counts.prune(Math.floor(Date.now() / 60_000), DAYS_KEPT);
      }
    } catch (error) {
      this.logger.warn(`SLOs not counted: ${(error as Error).message}`);
    }
  }

  /** One round at `now`: the agents' counters read, the recent minutes recounted, every SLO judged. */
  async countAndJudge(now: Date): Promise<{ events: number }> {
    const minute = Math.floor(now.getTime() / 60_000);
    return this.dataSource.transaction(async (manager) => {
      await this.counts.takeCountingTurn(manager);
      await this.counts.readInstanceCounters(manager, minute);
      const rows = await manager.getRepository(SloEntity).find();
      if (rows.length === 0) return { events: 0 };
      // new SLOs first count their whole window from what the hub keeps (its own breakers' buckets, checks, loads)
      const fresh = rows.filter((row) => !row.backfilled);
      if (fresh.length > 0) {
        await this.counts.recount(
          manager,
          minute - 30 * DAY_MINUTES,
          fresh.map((row) => row.id),
        );
        await manager.getRepository(SloEntity).update(
          fresh.map((row) => row.id),
          { backfilled: true },
        );
      }
      await this.counts.recount(manager, minute - RECOUNT_MINUTES);
      const windows = new Map((await this.figures.windows(now, undefined, manager)).map((entry) => [entry.sloId, entry]));
      const judged = rows.map((row) => ({ row, judgement: judgeSlo(sloView(row, windows.get(row.id)), row.alerts, now) }));
      return { events: await this.alerts.write(manager, judged) };
    });
  }
}
