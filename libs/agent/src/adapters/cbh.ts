import { CircuitBreaker, isBreakerRejection, type Clock } from '@cbh/breaker';
import type { AgentBreakerSettings, BreakerSettings, BreakerStateName } from '@cbh/contracts';
import { AdapterBase, type BreakerAdapter, type CallLimit, type SettingsResult } from './adapter';

const SETTINGS = [
  'failureThreshold',
  'timeout',
  'recoveryTime',
  'successThreshold',
  'minimumCalls',
  'slowCallDuration',
  'maxConcurrentCalls',
  'maxQueue',
] as const;

/**
 * A @cbh/breaker CircuitBreaker, which has every manual control of its own (force open, force closed, disable,
 * reset, with their transitions). Its settings are fixed when it is built, so new settings build a new one that
 * takes up the override; the state goes back to CLOSED and the counts start afresh. The service calls through
 * `execute()` (or `admit()`/`record()` on `breaker`, which is then not counted here).
 */
export class CbhAdapter extends AdapterBase implements BreakerAdapter {
  readonly library = 'cbh';
  private built: CircuitBreaker;
  private unsubscribe: () => void = () => undefined;

  constructor(
    name: string,
    settings: BreakerSettings,
    private readonly clock?: Clock,
  ) {
    super(name, 'CLOSED');
    this.built = this.build(settings);
  }

  get type(): string {
    return this.built.settings.type;
  }

  /** Calls slower than this count as failures for the adaptive type, and as slow calls in its window. */
  get slowCallMs(): number | undefined {
    return this.built.settings.type === 'adaptive' ? (this.built.settings.slowCallDuration ?? 1000) : undefined;
  }

  /** The breaker now in use; it is replaced when settings change. */
  get breaker(): CircuitBreaker {
    return this.built;
  }

  private build(settings: BreakerSettings): CircuitBreaker {
    this.unsubscribe();
    const breaker = new CircuitBreaker(settings, this.clock);
    this.unsubscribe = breaker.onTransition(({ to, reason, at }) => this.moved(to, reason, at));
    return breaker;
  }

  private now(): number {
    return this.clock ? this.clock.now() : Date.now();
  }

  /**
   * Runs fn through the breaker, counting its outcome; a refusal rejects with the breaker's BreakerRejectedError. A
   * drill's fault runs inside the function the breaker runs, so that the breaker sees its delay or error as the call's.
   */
  async execute<T>(fn: () => Promise<T>): Promise<T> {
    const fault = this.fault;
    if (fault !== undefined) fn = this.underFault(fault, fn);
    const started = this.now();
    let ran = false;
    try {
      const value = await this.built.execute(() => {
        ran = true;
        return fn();
      });
      this.count('success', started);
      return value;
    } catch (error) {
      if (!ran && isBreakerRejection(error)) this.call('rejection', 0);
      else this.count('failure', started);
      throw error;
    }
  }

  /**
   * The adaptive type's slow-call duration: a call slower than it counts as failed once it ends (the breaker does not
   * cut it short). The other types have no limit on a call's duration: their `timeout` is how long they stay open.
   */
  callLimit(): CallLimit | undefined {
    return this.slowCallMs === undefined ? undefined : { ms: this.slowCallMs, cuts: false };
  }

  private count(outcome: 'success' | 'failure', started: number): void {
    if (this.built.override !== 'disabled') this.call(outcome, this.now() - started);
  }

  override get override() {
    return this.built.override;
  }

  settings(): AgentBreakerSettings {
    const settings: AgentBreakerSettings = {};
    for (const [key, value] of Object.entries(this.built.settings)) if (value !== undefined) settings[key] = value;
    return settings;
  }

  state(): BreakerStateName {
    return this.built.tick();
  }

  forceOpen(reason?: string): void {
    this.built.forceOpen(reason);
  }

  forceClosed(reason?: string): void {
    this.built.forceClosed(reason);
  }

  disable(reason?: string): void {
    this.built.disable(reason);
  }

  reset(reason?: string): void {
    this.built.reset(reason);
  }

  /** Any setting but the type, by building a new breaker that keeps the override. */
  applySettings(partial: AgentBreakerSettings): SettingsResult {
    const { applied, unsupported } = AdapterBase.split(partial, SETTINGS);
    if (applied.length === 0) return { applied, unsupported, rebuilt: false };
    for (const key of applied) {
      const value = partial[key];
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
        throw new RangeError(`${key} must be a whole number of at least 0`);
    }
    const old = this.built;
    const settings = { ...old.settings } as BreakerSettings & Record<string, unknown>;
    for (const key of applied) settings[key] = partial[key];
    this.built = this.build(settings);
    this.built.restore({ override: old.override, lastTransitionAt: old.lastTransitionAt });
    this.moved(this.built.state, 'settings changed', this.now());
    return { applied, unsupported, rebuilt: true };
  }
}
