/** Time for the engines: the browser's clock and timers in the pages, a clock the test moves in tests. */
export interface Scheduler {
  now(): number;
  setTimeout(callback: () => void, ms: number): number;
  clearTimeout(handle: number): void;
}

export const systemScheduler: Scheduler = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms) as unknown as number,
  clearTimeout: (handle) => clearTimeout(handle),
};

/** A scheduler whose time moves only when advance() is called; due callbacks run in time order. */
export class FakeScheduler implements Scheduler {
  private time: number;
  private nextHandle = 1;
  private readonly timers = new Map<number, { at: number; callback: () => void }>();

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now() {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): number {
    const handle = this.nextHandle++;
    this.timers.set(handle, { at: this.time + Math.max(0, ms), callback });
    return handle;
  }

  clearTimeout(handle: number) {
    this.timers.delete(handle);
  }

  /** How many callbacks are waiting. */
  get pending(): number {
    return this.timers.size;
  }

  advance(ms: number) {
    const until = this.time + ms;
    for (;;) {
      let due: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= until && (!due || entry[1].at < due[1].at)) due = entry;
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].callback();
    }
    this.time = until;
  }
}
