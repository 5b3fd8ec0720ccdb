import { systemRandom, type Random } from './random';
import { systemScheduler, type Scheduler } from './scheduler';

export interface SimulationOptions {
  scheduler?: Scheduler;
  random?: Random;
}

/**
 * An engine's state as one immutable snapshot that React reads with useSyncExternalStore, and the timers it
 * runs, all cleared by stop() (a page that is left stops its engine; opening it again starts a fresh one).
 */
export abstract class Simulation<State> {
  protected readonly scheduler: Scheduler;
  protected readonly random: Random;
  private current: State;
  private readonly listeners = new Set<() => void>();
  private readonly timers = new Set<number>();
  private ids = 0;

  protected constructor(initial: State, { scheduler = systemScheduler, random = systemRandom }: SimulationOptions) {
    this.current = initial;
    this.scheduler = scheduler;
    this.random = random;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): State => this.current;

  get state(): State {
    return this.current;
  }

  /** Clears every timer: nothing happens any more until a new engine is made. */
  stop() {
    for (const handle of this.timers) this.scheduler.clearTimeout(handle);
    this.timers.clear();
  }

  protected update(change: (state: State) => State) {
    this.current = change(this.current);
    this.listeners.forEach((listener) => listener());
  }

  protected after(ms: number, callback: () => void) {
    const handle = this.scheduler.setTimeout(() => {
      this.timers.delete(handle);
      callback();
    }, ms);
    this.timers.add(handle);
  }

  /** Runs callback every ms until stop(). */
  protected every(ms: number, callback: () => void) {
    const tick = () => {
      callback();
      this.after(ms, tick);
    };
    this.after(ms, tick);
  }

  protected nextId(prefix: string): string {
    return `${prefix}-${++this.ids}`;
  }
}

/** The list with the new item in front, at most `cap` long (the newest kept). */
export function prepend<T>(list: readonly T[], item: T, cap: number): T[] {
  return [item, ...list].slice(0, cap);
}
