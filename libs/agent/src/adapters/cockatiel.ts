import type { AgentBreakerSettings, BreakerStateName } from '@cbh/contracts';
import type * as Cockatiel from 'cockatiel';
import type { CircuitBreakerPolicy, IDisposable } from 'cockatiel';
import { AdapterBase, overrideState, type BreakerAdapter, type CallLimit, type SettingsResult } from './adapter';

/** A cockatiel breaker's settings: its half-open delay and its breaker, consecutive failures or a sampled failure rate. */
export type CockatielSettings =
  | { type: 'consecutive'; halfOpenAfter: number; threshold: number }
  | { type: 'sampling'; halfOpenAfter: number; threshold: number; duration: number; minimumRps?: number };

const SETTINGS_OF = {
  consecutive: ['halfOpenAfter', 'threshold'],
  sampling: ['halfOpenAfter', 'threshold', 'duration', 'minimumRps'],
} as const;

let cockatiel: typeof Cockatiel | undefined;

/**
 * cockatiel is an optional peer of the agent's package, loaded with the first adapter: a service that runs opossum
 * breakers only loads the agent without it.
 */
function library(): typeof Cockatiel {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  return (cockatiel ??= require('cockatiel') as typeof Cockatiel);
}

/**
 * A cockatiel circuit breaker policy (handleAll) that the adapter builds from its settings and builds anew when
 * they change or it is reset: cockatiel fixes a breaker's threshold when it is made and has no way to close an
 * open breaker. So the service calls through `execute()`, never through a policy it kept. Force open is
 * cockatiel's own isolate(); force closed and disable, which cockatiel lacks, bypass the policy (force closed
 * still counts the calls, disable counts nothing).
 */
export class CockatielAdapter extends AdapterBase implements BreakerAdapter {
  readonly library = 'cockatiel';
  private current: CockatielSettings;
  private built: CircuitBreakerPolicy;
  private subscriptions: IDisposable[] = [];
  private isolation: IDisposable | null = null;

  constructor(name: string, settings: CockatielSettings) {
    super(name, 'CLOSED');
    this.current = { ...settings };
    this.built = this.build();
  }

  get type(): string {
    return this.current.type;
  }

  /** The policy now in use; it is replaced when settings change or the breaker is reset. */
  get policy(): CircuitBreakerPolicy {
    return this.built;
  }

  private build(): CircuitBreakerPolicy {
    for (const subscription of this.subscriptions) subscription.dispose();
    const settings = this.current;
    const { circuitBreaker, ConsecutiveBreaker, handleAll, SamplingBreaker } = library();
    const breaker =
      settings.type === 'consecutive'
        ? new ConsecutiveBreaker(settings.threshold)
        : new SamplingBreaker({ threshold: settings.threshold, duration: settings.duration, minimumRps: settings.minimumRps });
    const policy = circuitBreaker(handleAll, { halfOpenAfter: settings.halfOpenAfter, breaker });
    const why =
      settings.type === 'consecutive'
        ? `${settings.threshold} consecutive failure${settings.threshold === 1 ? '' : 's'}`
        : `failure rate of ${Math.round(settings.threshold * 100)}% over ${settings.duration} ms`;
    this.subscriptions = [
      policy.onBreak(() => {
        if (this.manual === 'none') this.moved('OPEN', why);
      }),
      policy.onHalfOpen(() => {
        if (this.manual === 'none') this.moved('HALF_OPEN', `open period of ${settings.halfOpenAfter} ms elapsed`);
      }),
      policy.onReset(() => {
        if (this.manual === 'none') this.moved('CLOSED', 'trial call succeeded');
      }),
    ];
    return policy;
  }

  /**
   * Runs fn through the breaker (or past it, when forced closed or disabled), counting its outcome. A drill's fault
   * runs inside the function the policy runs, so that cockatiel sees its delay or error as the call's own.
   */
  async execute<T>(fn: () => PromiseLike<T> | T): Promise<T> {
    const fault = this.fault;
    if (fault !== undefined) fn = this.underFault(fault, fn);
    if (this.manual === 'disabled') return fn();
    const started = Date.now();
    let ran = this.manual === 'forced-closed';
    try {
      const value = ran
        ? await fn()
        : await this.built.execute(() => {
            ran = true;
            return fn();
          });
      this.call('success', Date.now() - started);
      return value;
    } catch (error) {
      // (cockatiel 3.2.1's isTaskCancelledError() tests the wrong property, so instanceof)
      if (!ran) this.call('rejection', 0);
      else this.call(error instanceof library().TaskCancelledError ? 'timeout' : 'failure', Date.now() - started);
      throw error;
    }
  }

  /**
   * None: cockatiel's breaker has no timeout of its own (a service's timeout policy is its own business), so a
   * timeout fault needs its latencyMs and makes the call that much slower, nothing more.
   */
  callLimit(): CallLimit | undefined {
    return undefined;
  }

  settings(): AgentBreakerSettings {
    const settings: AgentBreakerSettings = {};
    for (const [key, value] of Object.entries(this.current)) if (key !== 'type' && value !== undefined) settings[key] = value;
    return settings;
  }

  state(): BreakerStateName {
    const { CircuitState } = library();
    const state = this.built.state;
    // open and isolated alike are OPEN
    const own = state === CircuitState.Closed ? 'CLOSED' : state === CircuitState.HalfOpen ? 'HALF_OPEN' : 'OPEN';
    return overrideState(this.manual) ?? own;
  }

  forceOpen(reason = 'forced open'): void {
    this.manual = 'forced-open';
    this.isolation ??= this.built.isolate();
    this.moved('OPEN', reason);
  }

  forceClosed(reason = 'forced closed'): void {
    this.release();
    this.manual = 'forced-closed';
    this.moved('CLOSED', reason);
  }

  disable(reason = 'disabled'): void {
    this.release();
    this.manual = 'disabled';
    this.moved('CLOSED', reason);
  }

  /** A new policy with the same settings: CLOSED, its counts cleared (cockatiel cannot close an open breaker). */
  reset(reason = 'reset'): void {
    this.release();
    this.manual = 'none';
    this.built = this.build();
    this.moved('CLOSED', reason);
  }

  /**
   * Every setting of the breaker's kind is taken by building a new policy: state back to CLOSED and counts cleared,
   * an override kept. Changing the kind (consecutive, sampling) is not supported.
   */
  applySettings(partial: AgentBreakerSettings): SettingsResult {
    const { applied, unsupported } = AdapterBase.split(partial, SETTINGS_OF[this.current.type]);
    if (applied.length === 0) return { applied, unsupported, rebuilt: false };
    for (const key of applied) {
      const value = partial[key];
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new RangeError(`${key} must be a number of at least 0`);
    }
    const next = { ...this.current } as Record<string, unknown>;
    for (const key of applied) next[key] = partial[key];
    const before = this.state();
    this.release();
    this.current = next as CockatielSettings;
    this.built = this.build();
    if (this.manual === 'forced-open') this.isolation = this.built.isolate();
    if (before !== this.state()) this.moved(this.state(), 'settings changed');
    return { applied, unsupported, rebuilt: true };
  }

  private release(): void {
    this.isolation?.dispose();
    this.isolation = null;
  }
}
