import { Injectable, Logger } from '@nestjs/common';
import { type DueTimes, repeating, repeatingWhenDue, STOP_WAIT_MS, type Repeating } from './repeating';
import { waitAtMost } from './wait-at-most';

/**
 * Every periodic task of this replica, and the work they start without waiting for it (a notification's try, a
 * domain's round), in one place, so that shutdown stops all of them first and at once.
 *
 * Why not each service's own shutdown hook: Nest runs the hooks one module after another, and a hook that waits for a
 * query (a lock, a slow database) holds every later one — the tasks stopped last went on querying while the first
 * waited. Stopped here, together, before Nest's hooks run, the wait is STOP_WAIT_MS at most, whatever is stuck.
 */
@Injectable()
export class PeriodicWork {
  private readonly logger = new Logger(PeriodicWork.name);
  private readonly tasks = new Set<Repeating>();
  private readonly started = new Set<Promise<unknown>>();
  private stopped = false;

  /** A task run every `everyMs` (see repeating()); stopped by stopAll(). */
  every(everyMs: number, task: () => Promise<unknown>, onError?: (error: Error) => void): Repeating {
    return this.keep(repeating(everyMs, task, onError));
  }

  /** A task run when its work falls due (see repeatingWhenDue()); stopped by stopAll(). */
  whenDue(times: DueTimes, task: () => Promise<number | null>, onError?: (error: Error) => void): Repeating {
    return this.keep(repeatingWhenDue(times, task, onError));
  }

  /** Work a task started without waiting for it: stopAll() waits for it too (STOP_WAIT_MS at most). */
  track<T>(work: Promise<T>): Promise<T> {
    this.started.add(work);
    const forget = () => this.started.delete(work);
    work.then(forget, forget);
    return work;
  }

  /** Whether stopAll() has been called: work started after it should not begin. */
  get stopping(): boolean {
    return this.stopped;
  }

  private keep(job: Repeating): Repeating {
    this.tasks.add(job);
    if (this.stopped) void job.stop();
    return job;
  }

  /** Stops every task and waits, STOP_WAIT_MS at most in all, for the runs and the started work still going on. */
  async stopAll(): Promise<void> {
    this.stopped = true;
    const stops = [...this.tasks].map((job) => job.stop());
    const work = [...this.started].map((promise) => promise.catch(() => undefined));
    if ((await waitAtMost(Promise.all([...stops, ...work]), STOP_WAIT_MS)) === 'late')
      this.logger.warn(`${this.started.size} started task(s) still running ${STOP_WAIT_MS} ms after the stop; not waited for`);
  }
}
