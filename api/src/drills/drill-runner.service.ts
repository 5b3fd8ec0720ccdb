import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { DrillEventData } from '@cbh/contracts';
import { HubEvents, PeriodicWork, RealtimeBus, type Repeating } from '../platform';
import { judgeExpectation, referenceOf, verdictOf } from './drill-judge';
import { DrillPlan } from './drill-plan';
import { DrillViews, stepText } from './drill-views';
import { DrillEntity } from './entities/drill.entity';
import { DrillsRepository } from './drills.repository';

/** How often every replica ends due drills and judges expectations while any drill is running or being judged. */
const TURN_MS = 1000;
/** Drills judged per turn at most. */
const JUDGED_PER_TURN = 20;

/**
 * Ends each drill when its last step does, and judges its expectations from the breakers' journal, on every replica
 * and once: ending is one UPDATE whose rows only one replica gets, judging takes the drill's row with SKIP LOCKED.
 * Once a drill has ended and its verdict is known, drill.finished goes out (once: `told`).
 */
@Injectable()
export class DrillRunner implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(DrillRunner.name);
  private turns?: Repeating;

  constructor(
    private readonly work: PeriodicWork,
    private readonly dataSource: DataSource,
    private readonly repository: DrillsRepository,
    private readonly views: DrillViews,
    private readonly events: HubEvents,
    private readonly bus: RealtimeBus,
    private readonly plan: DrillPlan,
  ) {}

  onModuleInit() {
    // a replica that saw no drill to judge sleeps until one starts anywhere (the bus), or IDLE_LOOK_MS
    this.turns = this.work.whenDue({ soonestMs: TURN_MS }, () => this.turn());
    this.bus.whenTold(['drills-changed'], () => this.turns?.runAgain());
  }

  onModuleDestroy() {
    void this.turns?.stop();
  }

  /** Ends the due drills and judges the others; returns when to look again (null: no drill running or being judged). */
  async turn(): Promise<number | null> {
    try {
      const ended = await this.repository.end('finished', null, null);
      if (ended.length > 0) await this.announce(ended, 'finished');
      const judged = await this.judge();
      // drills another replica judged meanwhile (their rows locked) are looked at here too: that replica may stop
      const busy = ended.length > 0 || judged > 0 || (await this.repository.anyToJudge());
      return busy ? Date.now() + TURN_MS : null;
    } catch (error) {
      this.logger.warn(`drills not judged: ${(error as Error).message}`);
      return Date.now() + TURN_MS;
    }
  }

  /**
   * Tells every replica (their fault plans) and every admin's page that drills changed; this replica's plan first, so
   * that its next reply already follows (the others' follow when the NOTIFY reaches them, milliseconds later).
   */
  async announce(ids: readonly number[], state: DrillEntity['state']): Promise<void> {
    await this.plan.reload();
    await this.bus.publishInternal('drills-changed', { ids });
    for (const id of ids) await this.bus.publish({ type: 'drillChanged', data: { id, state } });
  }

  /** Judges the drills not yet told (a running drill is one), as many as a turn takes; returns how many it saw. */
  private async judge(): Promise<number> {
    const changed: DrillEntity[] = [];
    const seen = await this.dataSource.transaction(async (manager) => {
      const drills = await manager.getRepository(DrillEntity).find({
        where: [{ verdict: 'pending' }, { told: false }],
        order: { id: 'ASC' },
        take: JUDGED_PER_TURN,
        lock: { mode: 'pessimistic_write', onLocked: 'skip_locked' },
      });
      const now = new Date();
      for (const drill of drills) {
        const before = JSON.stringify([drill.expectations, drill.verdict, drill.told]);
        const ids = [...new Set(drill.expectations.map((expectation) => expectation.breakerId))];
        const until = new Date(Math.min(now.getTime(), (drill.endedAt ?? now).getTime() + 3_600_000));
        const moves = ids.length ? await this.repository.moves(ids, drill.startedAt, until, 10_000) : [];
        const statesAt = new Map<string, Map<number, string>>();
        for (const after of ['start', 'end'] as const) {
          const reference = referenceOf(drill, after);
          if (reference && ids.length) statesAt.set(after, await this.repository.statesAt(ids, reference));
        }
        drill.expectations = drill.expectations.map((expectation) =>
          judgeExpectation(
            expectation,
            referenceOf(drill, expectation.after),
            (statesAt.get(expectation.after)?.get(expectation.breakerId) ?? 'CLOSED') as typeof expectation.state,
            moves,
            now,
          ),
        );
        drill.verdict = verdictOf(drill.expectations, drill.state !== 'running');
        if (drill.state !== 'running' && drill.verdict !== 'pending' && !drill.told) {
          drill.told = true;
          await this.events.raiseIn(manager, {
            type: 'drill.finished',
            subject: { kind: 'drill', id: drill.id, name: drill.name },
            data: await this.eventData(drill),
            dedupeKey: `drill.finished:${drill.id}`,
          });
        }
        if (JSON.stringify([drill.expectations, drill.verdict, drill.told]) !== before) {
          await manager.getRepository(DrillEntity).update(drill.id, {
            expectations: drill.expectations,
            verdict: drill.verdict,
            told: drill.told,
          });
          changed.push(drill);
        }
      }
      return drills.length;
    });
    for (const drill of changed) await this.bus.publish({ type: 'drillChanged', data: { id: drill.id, state: drill.state } });
    return seen;
  }

  /** drill.started's and drill.finished's data (the url is the outbox's to add). */
  async eventData(drill: DrillEntity): Promise<Omit<DrillEventData, 'url'>> {
    const [view] = await this.views.views([drill]);
    return {
      drill: { id: drill.id, name: drill.name, state: drill.state, verdict: drill.verdict },
      steps: view!.steps.map((step) => stepText(step, step.breaker)),
      startedBy: view!.startedBy,
      ...(drill.state === 'stopped' ? { stoppedBy: view!.stoppedBy } : {}),
    };
  }
}
