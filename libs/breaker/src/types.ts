import type { BreakerTransition } from '@cbh/contracts';

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export type Admission = 'permitted' | 'short-circuited' | 'bulkhead-rejected';

/** A transition as the engine emits it: the contract's words, the moment in ms since the epoch. */
export type Transition = Pick<BreakerTransition, 'from' | 'to' | 'reason'> & { at: number };
