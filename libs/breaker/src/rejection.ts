import type { Admission } from './types';

export type Rejection = Exclude<Admission, 'permitted'>;

/** What a refused call is told, by reason: the error's message and the text the screens and the API show. */
export const REJECTION_MESSAGES: Record<Rejection, string> = {
  'short-circuited': 'Circuit breaker is OPEN',
  'bulkhead-rejected': 'Bulkhead is full',
};

const NAME = 'BreakerRejectedError';

export class BreakerRejectedError extends Error {
  constructor(readonly admission: Rejection) {
    super(REJECTION_MESSAGES[admission]);
    this.name = NAME;
  }
}

/**
 * Was this call refused by a breaker (rather than failed by the service behind it)? Recognised by name as well,
 * because a page can hold two copies of this library (one per remote) and instanceof only knows its own.
 */
export function isBreakerRejection(error: unknown): error is BreakerRejectedError {
  return error instanceof BreakerRejectedError || (error instanceof Error && error.name === NAME && 'admission' in error);
}
