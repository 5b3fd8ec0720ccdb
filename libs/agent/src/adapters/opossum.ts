import type { AgentBreakerSettings, BreakerStateName } from '@cbh/contracts';
import type { EventEmitter } from 'node:events';
import type CircuitBreaker from 'opossum';
import { runFaulted, type ActiveFault } from '../fault-call';
import { AdapterBase, overrideState, type BreakerAdapter, type CallLimit, type SettingsResult } from './adapter';

/** The options opossum reads on every call or trip, and so takes at run time. */
const LIVE_OPTIONS = ['errorThresholdPercentage', 'timeout', 'resetTimeout'] as const;
/** The options reported; the others opossum fixes when the breaker is built (the service owns the instance). */
const REPORTED_OPTIONS = [...LIVE_OPTIONS, 'volumeThreshold', 'rollingCountTimeout', 'rollingCountBuckets', 'capacity'] as const;

type OpossumOptions = Record<(typeof REPORTED_OPTIONS)[number], number | undefined>;
type Action = (this: unknown, ...args: unknown[]) => unknown;

/**
 * An opossum breaker the service built and keeps calling with fire(): the adapter only listens to its events
 * and drives it, so every call is seen however it is made. Force open holds it open (opened again as soon as
 * its reset timer half-opens it); force closed closes it again as soon as it trips; disable is opossum's own
 * disable(), under which calls run unguarded and uncounted.
 */
export class OpossumAdapter extends AdapterBase implements BreakerAdapter {
  readonly library = 'opossum';
  readonly type = 'error-percentage';
  /** The service's own action and the one that runs it under a fault, while a fault is on (see injectFault). */
  private plainAction: Action | undefined;
  private faultedAction: Action | undefined;

  constructor(
    readonly circuit: CircuitBreaker,
    name: string = circuit.name,
  ) {
    super(name, OpossumAdapter.stateOf(circuit));
    circuit.on('success', (_result: unknown, latency: number) => this.call('success', latency));
    // opossum passes a timeout's latency too, which its typings leave out
    (circuit as unknown as EventEmitter).on('timeout', (_error: unknown, latency: number) => this.call('timeout', latency));
    circuit.on('failure', (error: unknown, latency: number) => {
      const code = (error as { code?: string } | null)?.code;
      if (code === 'ETIMEDOUT') return; // its 'timeout' was counted
      if (code === 'ESEMLOCKED') this.call('rejection', 0);
      else this.call('failure', latency);
    });
    circuit.on('reject', () => this.call('rejection', 0));
    circuit.on('open', () => {
      if (this.manual === 'forced-closed') circuit.close();
      else if (this.manual === 'none') this.moved('OPEN', `error rate above ${this.options.errorThresholdPercentage}%`);
    });
    circuit.on('halfOpen', () => {
      if (this.manual === 'forced-open') circuit.open();
      else if (this.manual === 'none') this.moved('HALF_OPEN', `reset timeout of ${this.options.resetTimeout} ms elapsed`);
    });
    circuit.on('close', () => {
      if (this.manual === 'none') this.moved('CLOSED', 'trial call succeeded');
    });
  }

  private static stateOf(circuit: CircuitBreaker): BreakerStateName {
    if (circuit.opened) return 'OPEN';
    if (circuit.halfOpen) return 'HALF_OPEN';
    return 'CLOSED';
  }

  /** opossum's options object, which its typings leave out; it reads it on every call. */
  private get options(): OpossumOptions {
    return (this.circuit as unknown as { options: OpossumOptions }).options;
  }

  settings(): AgentBreakerSettings {
    const settings: AgentBreakerSettings = {};
    for (const key of REPORTED_OPTIONS) {
      const value = key === 'volumeThreshold' ? this.circuit.volumeThreshold : this.options[key];
      if (typeof value === 'number') settings[key] = value;
    }
    return settings;
  }

  state(): BreakerStateName {
    return overrideState(this.manual) ?? OpossumAdapter.stateOf(this.circuit);
  }

  forceOpen(reason = 'forced open'): void {
    this.circuit.enable();
    this.manual = 'forced-open';
    this.circuit.open();
    this.moved('OPEN', reason);
  }

  forceClosed(reason = 'forced closed'): void {
    this.circuit.enable();
    this.manual = 'forced-closed';
    this.circuit.close();
    this.moved('CLOSED', reason);
  }

  disable(reason = 'disabled'): void {
    this.manual = 'disabled';
    this.circuit.close();
    this.circuit.disable();
    this.moved('CLOSED', reason);
  }

  /** Closed and guarding again; opossum's rolling counts have no public reset, so they age out on their own. */
  reset(reason = 'reset'): void {
    this.circuit.enable();
    this.circuit.close(); // under the override still, so its 'close' is not taken for a recovery
    this.manual = 'none';
    this.moved('CLOSED', reason);
  }

  /** opossum's timeout gives up on a call: a timeout fault waits past it. None when the timeout is off (0, false). */
  callLimit(): CallLimit | undefined {
    const timeout = this.options.timeout;
    return typeof timeout === 'number' && timeout > 0 ? { ms: timeout, cuts: true } : undefined;
  }

  /**
   * opossum's fire() runs `circuit.action`, read at every call, inside its timer and its counts: so a fault is run by
   * putting an action of the adapter's in its place while the fault is on, and the service's own back when it ends.
   * The breaker then sees the injected delay, error or timeout as its own call's, and with no fault on, fire() runs
   * exactly as it did without the agent's faults. An action the service put in meanwhile is left as it is.
   */
  override injectFault(fault: ActiveFault | undefined): void {
    this.fault = fault;
    const circuit = this.circuit as unknown as { action: Action };
    if (fault !== undefined && this.faultedAction === undefined) {
      const plain = circuit.action;
      const current = () => this.fault;
      const ended = this.faultEnded;
      const faulted: Action = function (this: unknown, ...args: unknown[]) {
        // fire() calls the action with itself as `this`: the service's action still gets itself
        const context = this === faulted ? plain : this;
        const run = () => plain.apply(context, args);
        const active = current();
        return active === undefined ? run() : runFaulted(active, run, ended);
      };
      this.plainAction = plain;
      this.faultedAction = faulted;
      circuit.action = faulted;
    } else if (fault === undefined && this.faultedAction !== undefined) {
      if (circuit.action === this.faultedAction) circuit.action = this.plainAction!;
      this.plainAction = this.faultedAction = undefined;
    }
  }

  applySettings(partial: AgentBreakerSettings): SettingsResult {
    const { applied, unsupported } = AdapterBase.split(partial, LIVE_OPTIONS);
    for (const key of applied) {
      const value = partial[key];
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new RangeError(`${key} must be a number of at least 0`);
    }
    for (const key of applied) this.options[key as (typeof LIVE_OPTIONS)[number]] = partial[key] as number;
    return { applied, unsupported, rebuilt: false };
  }
}
