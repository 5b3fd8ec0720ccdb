import type { BreakerStateName, DrillVerdict } from '@cbh/contracts';
import type { DrillEntity, StoredExpectation } from './entities/drill.entity';
import type { DrillMove } from './drills.repository';

/** Where an expectation's seconds count from: the drill's start, or its end (null while it runs). */
export function referenceOf(drill: Pick<DrillEntity, 'startedAt' | 'endedAt'>, after: 'start' | 'end'): Date | null {
  return after === 'start' ? drill.startedAt : drill.endedAt;
}

/**
 * An expectation judged: met when the breaker was in the state at its reference already, or moved to it (on any of
 * its instances) within `withinSeconds` of it; missed once that time is past; pending until then.
 */
export function judgeExpectation(
  expectation: StoredExpectation,
  reference: Date | null,
  stateThen: BreakerStateName,
  moves: readonly DrillMove[],
  now: Date,
): StoredExpectation {
  if (expectation.result !== 'pending' || !reference) return expectation;
  if (stateThen === expectation.state) return { ...expectation, result: 'met', tookSeconds: 0 };
  const deadline = reference.getTime() + expectation.withinSeconds * 1000;
  const reached = moves.find(
    (move) =>
      move.breakerId === expectation.breakerId && move.to === expectation.state && move.at >= reference && move.at.getTime() <= deadline,
  );
  if (reached) return { ...expectation, result: 'met', tookSeconds: Math.round((reached.at.getTime() - reference.getTime()) / 100) / 10 };
  return now.getTime() > deadline ? { ...expectation, result: 'missed', tookSeconds: null } : expectation;
}

/** A drill's verdict: missed when one expectation is, met when all are (or it has none and has ended), else pending. */
export function verdictOf(expectations: readonly StoredExpectation[], ended: boolean): DrillVerdict {
  if (expectations.some((expectation) => expectation.result === 'missed')) return 'missed';
  if (expectations.every((expectation) => expectation.result === 'met')) return ended || expectations.length > 0 ? 'met' : 'pending';
  return 'pending';
}
