import { Injectable } from '@nestjs/common';
import { HISTORY_MAX_TRANSITIONS, HISTORY_RANGES, type BreakerHistory, type BreakerHistoryPoint, type HistoryRange } from '@cbh/contracts';
import { BreakersService } from '../breakers.service';
import { toJournalEntry } from '../entities/breaker-transition.entity';
import { BreakerHistoryRepository, type HistoryStepRow } from './breaker-history.repository';

/**
 * Every step of the span, oldest first: a step with no stored bucket had no calls, and its error percentage is null
 * (no traffic), never 0 %.
 */
export function historyPoints(rows: HistoryStepRow[], from: Date, stepSeconds: number, count: number): BreakerHistoryPoint[] {
  const byStep = new Map(rows.map((row) => [row.step, row]));
  return Array.from({ length: count }, (_unused, step) => {
    const row = byStep.get(step);
    const calls = row?.calls ?? 0;
    return {
      at: new Date(from.getTime() + step * stepSeconds * 1000).toISOString(),
      calls,
      callsPerSecond: Math.round((10 * calls) / stepSeconds) / 10,
      errorPercentage: row && calls > 0 ? Math.round((1000 * row.errors) / calls) / 10 : null,
    };
  });
}

/** A breaker's past from what the hub stores: the per-second buckets of its calls and its journal. */
@Injectable()
export class BreakerHistoryService {
  constructor(
    private readonly breakers: BreakersService,
    private readonly repository: BreakerHistoryRepository,
  ) {}

  async of(configId: number, range: HistoryRange, now = Date.now()): Promise<BreakerHistory> {
    await this.breakers.find(configId);
    const { seconds, stepSeconds } = HISTORY_RANGES[range];
    const count = seconds / stepSeconds;
    // steps end on the current whole second, the last one holding the second just completed
    const to = new Date(Math.floor(now / 1000) * 1000);
    const from = new Date(to.getTime() - seconds * 1000);
    const [rows, moves, stateBefore] = await Promise.all([
      this.repository.steps(configId, from, to, stepSeconds),
      this.repository.movesBetween(configId, from, new Date(now + 1000), HISTORY_MAX_TRANSITIONS + 1),
      this.repository.stateAt(configId, from),
    ]);
    return {
      range,
      from: from.toISOString(),
      to: to.toISOString(),
      stepSeconds,
      points: historyPoints(rows, from, stepSeconds, count),
      transitions: moves.slice(0, HISTORY_MAX_TRANSITIONS).reverse().map(toJournalEntry),
      transitionsCapped: moves.length > HISTORY_MAX_TRANSITIONS,
      stateBefore,
    };
  }
}
