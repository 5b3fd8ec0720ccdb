import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig, PeriodicWork, RealtimeBus, type Repeating } from '../platform';
import { OutboxWriter, type NewDelivery } from '../notifications';
import { AlertGroupJournal, JournalBatch } from './alert-group-journal';
import { AlertGroupsRepository } from './alert-groups.repository';
import type { AlertGroupEntity } from './entities/alert-group.entity';
import { EscalationPolicyEntity } from './entities/escalation-policy.entity';
import { StepRecipients, TurnReads } from './step-recipients';

/** What one transaction of the runner gathers before writing it at once. */
interface Turn {
  policies: Map<string, EscalationPolicyEntity | null>;
  reads: TurnReads;
  batch: JournalBatch;
  deliveries: NewDelivery[];
}

/** Groups one transaction takes: their steps' deliveries are written with them. */
const GROUPS_PER_TURN = 200;
/**
 * A step due already but left by a turn (another replica holds its group, or it failed) is looked at again this much
 * later; a replica that knows of no step due looks every IDLE_LOOK_MS (a group changed on any replica wakes it: the bus).
 */
const RETRY_MS = 1000;

/**
 * Fires escalation steps, on every replica. A step is due when its group's `next_step_at` passes; one replica locks
 * the group (SKIP LOCKED), writes the step's deliveries to the outbox, its timeline entry and the next step's time in
 * one transaction, and commits. A replica killed mid-step commits nothing, and another takes the step: each step fires
 * exactly once, and the outbox delivers each of its messages once. A silence that ended restarts the escalation from
 * its first step; a group whose steps (and repeats) are all fired waits for someone.
 */
@Injectable()
export class EscalationRunner implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(EscalationRunner.name);
  private turns?: Repeating;
  private readonly minuteMs: number;

  constructor(
    private readonly work: PeriodicWork,
    private readonly dataSource: DataSource,
    private readonly repository: AlertGroupsRepository,
    private readonly journal: AlertGroupJournal,
    private readonly recipients: StepRecipients,
    private readonly outbox: OutboxWriter,
    private readonly bus: RealtimeBus,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.minuteMs = config.ESCALATION_MINUTE_SECONDS * 1000;
  }

  onModuleInit() {
    this.turns = this.work.whenDue({ soonestMs: 5 }, () => this.turn());
    // a group opened, un-acknowledged or silenced on any replica, or a step moved sooner by whatever wrote it, has a
    // step due at a time this replica did not know: the database tells every replica (DueWakeUps)
    this.bus.whenTold(['escalations-due'], () => this.turns?.runAgain());
  }

  onApplicationShutdown() {
    void this.turns?.stop();
  }

  /** Fires every due step, a batch per transaction; returns when the next step falls due (null: none known). */
  async turn(): Promise<number | null> {
    await this.fireDue();
    const next = await this.repository.nextDue().catch(() => new Date());
    if (!next) return null;
    const now = Date.now();
    // a step due already was left by this turn (another replica holds it, or it failed): looked at again, no sooner
    return next.getTime() <= now ? now + RETRY_MS : next.getTime() + 5;
  }

  private async fireDue(): Promise<number> {
    let fired = 0;
    try {
      for (;;) {
        const taken = await this.dataSource.transaction(async (manager) => {
          const due = await this.repository.claimDue(manager, GROUPS_PER_TURN);
          const turn: Turn = { policies: new Map(), reads: new TurnReads(), batch: new JournalBatch(), deliveries: [] };
          for (const group of due) await this.fire(manager, group, turn);
          // a few statements for the whole batch: a thousand groups falling due at once fire within a second or two
          await this.outbox.write(manager, turn.deliveries);
          await this.journal.flush(manager, turn.batch);
          return due.length;
        });
        fired += taken;
        if (taken < GROUPS_PER_TURN) return fired;
      }
    } catch (error) {
      this.logger.warn(`escalation steps not fired: ${(error as Error).message}`);
      return fired;
    }
  }

  private async fire(manager: EntityManager, group: AlertGroupEntity, { policies, reads, batch, deliveries }: Turn) {
    batch.changed(group);
    if (group.state === 'silenced') {
      group.state = 'firing';
      group.silencedUntil = null;
      group.nextStep = 0;
      batch.entry(group, { kind: 'unsilenced', text: 'The silence ended: the escalation starts again' });
    }
    const policyId = group.escalationPolicyId;
    if (policyId && !policies.has(policyId)) {
      policies.set(policyId, await manager.getRepository(EscalationPolicyEntity).findOneBy({ id: policyId }));
    }
    const policy = policyId ? policies.get(policyId) : null;
    const total = policy ? policy.steps.length * (policy.repeat + 1) : 0;
    if (!policy || group.nextStep >= total) {
      group.nextStepAt = null;
      const text = policy
        ? 'Every step fired and nobody acknowledged: the escalation ends'
        : 'The escalation policy was deleted: no further steps';
      batch.entry(group, { kind: 'escalation_ended', text });
      return;
    }
    const step = policy.steps[group.nextStep % policy.steps.length]!;
    const number = group.nextStep + 1;
    const sent = await this.recipients.of(manager, group, step, number, reads);
    deliveries.push(...sent.deliveries);
    batch.entry(group, {
      kind: 'step',
      step: number,
      text: `Step ${number}: ${sent.told.length ? sent.told.join(', ') : 'nobody to tell'}`,
    });
    if (number > 1) batch.raise(group, 'alert_group.escalated', { step: number });
    group.nextStep++;
    // after the last step too: its wait ends the escalation, said on the timeline
    group.nextStepAt = new Date(Date.now() + step.waitMinutes * this.minuteMs);
  }
}
