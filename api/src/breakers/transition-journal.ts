import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { BreakerTransition } from '@cbh/contracts';
import { isDatabaseUnavailable } from '../platform';

/** How often moves held through an outage are tried again. */
const RETRY_EVERY_MS = 2000;
/** The most moves held while the database is away; the oldest go first. */
const MAX_WAITING = 10_000;

/** A move waiting to be written, and its writer's, told once it is written (or held through an outage). */
interface Waiting {
  transition: BreakerTransition;
  settled?: () => void;
}

/**
 * Writes this replica's breaker moves to the journal in the order they happened. While the database is away the
 * moves wait here and are written, oldest first, as soon as it answers again; each is written once (the journal's
 * unique key on breaker, replica, moment and state makes a repeated write a no-op), so an outage neither loses
 * nor doubles a move.
 */
@Injectable()
export class TransitionJournal implements OnModuleDestroy {
  private readonly logger = new Logger(TransitionJournal.name);
  private waiting: Waiting[] = [];
  private retryTimer?: NodeJS.Timeout;
  private draining = false;

  constructor(private readonly dataSource: DataSource) {}

  get backlog() {
    return this.waiting.length;
  }

  async onModuleDestroy() {
    clearTimeout(this.retryTimer);
    await this.drain();
  }

  /**
   * Journals the move now, or after the moves still waiting for the database: settled once it is written, or once the
   * database is found away (the move then waits here, and its writer goes on).
   */
  write(transition: BreakerTransition): Promise<void> {
    return new Promise((settled) => {
      this.waiting.push({ transition, settled });
      if (this.waiting.length > MAX_WAITING) {
        this.waiting.shift()!.settled?.();
        this.logger.error('a breaker move was dropped from the journal: the database was away too long');
      }
      void this.drain();
    });
  }

  private async drain() {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.slice(0, 500);
        try {
          await this.insert(batch.map((entry) => entry.transition));
        } catch (error) {
          if (isDatabaseUnavailable(error)) {
            for (const entry of this.waiting) {
              entry.settled?.();
              entry.settled = undefined;
            }
            this.retrySoon();
            return;
          }
          this.logger.warn(`breaker moves not journalled: ${(error as Error).message}`);
        }
        // by identity: a move dropped meanwhile (the backlog past MAX_WAITING) may have been one of the batch
        const written = new Set(batch);
        this.waiting = this.waiting.filter((entry) => !written.has(entry));
        for (const entry of batch) entry.settled?.();
      }
    } finally {
      this.draining = false;
    }
  }

  private retrySoon() {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.drain();
    }, RETRY_EVERY_MS);
    this.retryTimer.unref();
  }

  /** One statement for the batch; moves of a breaker deleted meanwhile went with it. */
  private async insert(batch: BreakerTransition[]) {
    const rows = batch.map((t) => ({
      config_id: t.configId,
      from_state: t.from,
      to_state: t.to,
      reason: t.reason,
      instance_id: t.instanceId,
      at: t.at,
    }));
    await this.dataSource.query(
      `INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, instance_id, at)
       SELECT r.config_id, r.from_state, r.to_state, r.reason, r.instance_id, r.at
       FROM jsonb_to_recordset($1::jsonb) AS r(config_id int, from_state text, to_state text, reason text, instance_id uuid, at timestamptz)
       WHERE EXISTS (SELECT 1 FROM circuit_breaker_configs c WHERE c.id = r.config_id)
       ON CONFLICT (config_id, instance_id, at, to_state) DO NOTHING`,
      [JSON.stringify(rows)],
    );
  }
}
