import type { AgentBreakerSettings, AgentLibrary, BreakerOverride, BreakerStateName } from '@cbh/contracts';
import { runFaulted, type ActiveFault } from '../fault-call';
import type { CallOutcome } from '../rolling-window';

/** A change of state as an adapter sees it: `at` in ms since the epoch. */
export interface AdapterTransition {
  from: BreakerStateName;
  to: BreakerStateName;
  at: number;
  reason: string;
}

export type CallListener = (outcome: CallOutcome, durationMs: number) => void;
export type TransitionListener = (transition: AdapterTransition) => void;

/**
 * What applySettings() did: the settings the breaker now runs with (`applied`), those it cannot take at run time
 * (`unsupported`, left as they were), and whether the library's breaker had to be built anew to take them.
 */
export interface SettingsResult {
  applied: string[];
  unsupported: string[];
  rebuilt: boolean;
}

/**
 * How a breaker limits a call's duration, for a timeout fault to go past it: `cuts` when the breaker gives up on the
 * call at `ms` (opossum's timeout), not when it only judges the call once it ends (@cbh/breaker's adaptive slow-call
 * duration, past which a call counts as failed).
 */
export interface CallLimit {
  ms: number;
  cuts: boolean;
}

/** One breaker of one library, as the agent sees and drives it. */
export interface BreakerAdapter {
  readonly name: string;
  readonly library: AgentLibrary;
  /** The library's kind of breaker: 'error-percentage', 'consecutive', 'sampling', or @cbh/breaker's type. */
  readonly type: string;
  /** Calls slower than this count as slow calls, where the breaker has such a setting. */
  readonly slowCallMs?: number;
  readonly override: BreakerOverride;
  settings(): AgentBreakerSettings;
  state(): BreakerStateName;
  /** Each call's outcome and duration, as it ends (a rejection as it is refused); returns the unsubscribe. */
  onCall(listener: CallListener): () => void;
  onTransition(listener: TransitionListener): () => void;
  forceOpen(reason?: string): void;
  forceClosed(reason?: string): void;
  disable(reason?: string): void;
  reset(reason?: string): void;
  applySettings(partial: AgentBreakerSettings): SettingsResult;
  /**
   * Runs a drill's fault on the breaker's calls from now on, or none (undefined). Optional, so that an adapter of a
   * service's own still fits: the agent refuses faults for a breaker whose adapter lacks it.
   */
  injectFault?(fault: ActiveFault | undefined): void;
  /** The breaker's limit on a call's duration now, where it has one (see CallLimit). */
  callLimit?(): CallLimit | undefined;
}

/** The listeners, the override and the state last shown, which every adapter keeps alike. */
export abstract class AdapterBase {
  protected manual: BreakerOverride = 'none';
  /**
   * The fault on this breaker's calls, undefined when none: with no drill running, the call path pays this one
   * check and nothing else.
   */
  protected fault: ActiveFault | undefined = undefined;
  private readonly callListeners = new Set<CallListener>();
  private readonly transitionListeners = new Set<TransitionListener>();
  private shown: BreakerStateName;

  constructor(
    readonly name: string,
    initial: BreakerStateName,
  ) {
    this.shown = initial;
  }

  get override(): BreakerOverride {
    return this.manual;
  }

  onCall(listener: CallListener): () => void {
    this.callListeners.add(listener);
    return () => this.callListeners.delete(listener);
  }

  onTransition(listener: TransitionListener): () => void {
    this.transitionListeners.add(listener);
    return () => this.transitionListeners.delete(listener);
  }

  injectFault(fault: ActiveFault | undefined): void {
    this.fault = fault;
  }

  /** A call saw its fault's `until` pass: the slot is emptied, so that the next calls take the plain path at once. */
  protected readonly faultEnded = (fault: ActiveFault): void => {
    if (this.fault === fault) this.injectFault(undefined);
  };

  /**
   * fn under the breaker's fault. A method of its own, so that the closure is made here: execute() capturing the
   * fault or `this` in a closure of its own would make every call's frame bigger, fault or not.
   */
  protected underFault<F extends () => unknown>(fault: ActiveFault, fn: F): F {
    // the same type: a call it hits gives a promise, which execute() awaits as it awaits fn's own
    return (() => runFaulted(fault, fn, this.faultEnded)) as F;
  }

  protected call(outcome: CallOutcome, durationMs: number): void {
    for (const listener of this.callListeners) listener(outcome, durationMs);
  }

  /** Tells the listeners when the state shown has changed since it was last told. */
  protected moved(to: BreakerStateName, reason: string, at = Date.now()): void {
    const from = this.shown;
    if (from === to) return;
    this.shown = to;
    for (const listener of this.transitionListeners) listener({ from, to, at, reason });
  }

  /** Splits a settings change into the keys an adapter takes and the rest. */
  protected static split(partial: AgentBreakerSettings, supported: readonly string[]): { applied: string[]; unsupported: string[] } {
    const applied: string[] = [];
    const unsupported: string[] = [];
    for (const key of Object.keys(partial)) (supported.includes(key) ? applied : unsupported).push(key);
    return { applied, unsupported };
  }
}

/** The state a manual override shows, or null when none is in force. */
export function overrideState(override: BreakerOverride): BreakerStateName | null {
  if (override === 'forced-open') return 'OPEN';
  if (override === 'none') return null;
  return 'CLOSED';
}
