import { INJECTED_FAULT_NAME, type FaultKind } from '@cbh/contracts';

/*
 * A drill's fault on one breaker's calls, as the call path runs it: the adapters import this alone (the book of
 * faults, in faults.ts, knows the adapters).
 */

/** The error of a call an `error` fault hit (or of a `timeout` fault's call the breaker had given up on). */
export class InjectedFault extends Error {
  override readonly name: typeof INJECTED_FAULT_NAME = INJECTED_FAULT_NAME;

  constructor(
    /** The drill step's fault id (`drill-<drill>-<step>`). */
    readonly faultId: string,
    readonly kind: FaultKind,
    readonly breaker: string,
  ) {
    super(`${kind} injected by fault ${faultId} on breaker "${breaker}"`);
  }
}

/** Tells an injected fault by its name, so that it is recognised across copies of the package too. */
export function isInjectedFault(error: unknown): error is InjectedFault {
  return (error as { name?: unknown } | null)?.name === INJECTED_FAULT_NAME;
}

/**
 * A fault as an adapter runs it: its hub's words turned into what a call needs, so that the call path compares
 * numbers and reads fields, nothing more.
 */
export interface ActiveFault {
  readonly id: string;
  readonly breaker: string;
  readonly kind: FaultKind;
  readonly rate: number;
  /** How long a hit call waits (latency, timeout); 0 for an error. */
  readonly delayMs: number;
  /**
   * A timeout hit on a breaker that gives up on its calls (opossum's timeout): the call is not made after the wait,
   * since the breaker has answered its caller by then, and its late rejection goes nowhere.
   */
  readonly givesUp: boolean;
  /** The fault's end by the instance's clock (`now`), in ms since the epoch. */
  readonly untilMs: number;
  readonly now: () => number;
  readonly random: () => number;
}

/**
 * Runs one call of a breaker under its fault. Past `until`, `ended` is told (the adapter empties its slot, so
 * that the next calls take the plain path) and the call runs as it is. Else a call is hit when `random()` is
 * below the rate: an error rejects at once without the call; a latency waits, then makes the call; a timeout waits
 * past the breaker's limit, then rejects (`givesUp`) or makes the call (a breaker that does not cut calls short).
 * A rejection is a rejected promise, never a throw: @cbh/breaker's execute() needs its fn to return a promise.
 */
export function runFaulted<T>(fault: ActiveFault, run: () => T | PromiseLike<T>, ended: (fault: ActiveFault) => void): T | PromiseLike<T> {
  if (!(fault.now() < fault.untilMs)) {
    ended(fault);
    return run();
  }
  if (!(fault.random() < fault.rate)) return run();
  if (fault.kind === 'error') return Promise.reject(new InjectedFault(fault.id, fault.kind, fault.breaker));
  const waited = new Promise<void>((resolve) => setTimeout(resolve, fault.delayMs));
  if (fault.givesUp) return waited.then(() => Promise.reject(new InjectedFault(fault.id, fault.kind, fault.breaker)));
  return waited.then(run);
}
