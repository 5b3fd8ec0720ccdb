import { Logger } from '@nestjs/common';
import { waitAtMost } from './wait-at-most';

/**
 * A task this replica runs every `everyMs` until stopped: the API's periodic work (heartbeats, claims of due work,
 * flushes, prunes) in one shape.
 * - Never two runs at once: a turn that comes while a run is still going (a slow database) passes, and run() called
 *   meanwhile joins that run. runAgain() is for news (a reconnection, a message, a freed slot): what changed may
 *   have come after the run going on read its input, so one more run follows it; news meanwhile makes one run.
 * - A failure goes to `onError` (left out for a task that reports its own) and the next turn is the retry; nothing
 *   is thrown into the timer.
 * - The timer never holds the process open, and stop() waits for the run going on, so a shutdown hook can stop the
 *   task and then do its last work (a final flush, a release) knowing no run overlaps it. It waits STOP_WAIT_MS at
 *   most (a query stuck on a lock must not eat the shutdown's grace period), and logs which task it left.
 * Work that must happen once across replicas is claimed by the task itself, in the database.
 */
export interface Repeating {
  /** Runs the task now, or joins the run going on; does nothing once stopped. */
  run(): Promise<void>;
  /** Runs the task now, or once more after the run going on; resolves when that run has ended. */
  runAgain(): Promise<void>;
  /** Starts no run any more; resolves once the run going on, if any, has ended, or after STOP_WAIT_MS. */
  stop(): Promise<void>;
}

/** The longest stop() waits for a run going on. */
export const STOP_WAIT_MS = 3000;

export function repeating(everyMs: number, task: () => Promise<unknown>, onError: (error: Error) => void = () => undefined): Repeating {
  return repeatingOn(
    (run) => {
      const timer = setInterval(() => void run(), everyMs);
      timer.unref();
      return { ran: () => undefined, stop: () => clearInterval(timer) };
    },
    task,
    onError,
  );
}

/**
 * The longest a task run when its work falls due sleeps unwoken: what bounds the wait for work queued without a
 * wake-up or a notification lost, and what a replica at rest asks the database, once per task.
 */
export const IDLE_LOOK_MS = 10_000;

/**
 * How a task that knows when its work falls due is run: its timer sets the next run no sooner than `soonestMs` after
 * the last one ends and no later than `idleMs` (IDLE_LOOK_MS unless said) after it, whatever the task knows (work
 * queued without a wake-up, a lost notification). News (runAgain()) runs it at once.
 */
export interface DueTimes {
  soonestMs: number;
  idleMs?: number;
}

/**
 * A task run when its work falls due rather than at every turn: each run returns when the next piece of its work is
 * due (ms since the epoch), or null when it knows of none, and the next run comes then (within DueTimes). News from
 * elsewhere (a row queued on any replica, told over the bus) reaches it through runAgain(). A run that throws is
 * tried again `soonestMs` later. A replica at rest then asks the database every `idleMs` instead of every second.
 */
export function repeatingWhenDue(
  times: DueTimes,
  task: () => Promise<number | null>,
  onError: (error: Error) => void = () => undefined,
): Repeating {
  let due: number | null = null;
  const { soonestMs, idleMs = IDLE_LOOK_MS } = times;
  return repeatingOn(
    (run) => {
      let timer: NodeJS.Timeout | undefined;
      const later = (delayMs: number) => {
        clearTimeout(timer);
        timer = setTimeout(() => void run(), delayMs);
        timer.unref();
      };
      later(soonestMs);
      return {
        ran: (failed) => {
          // a due time that is not a number is taken as none known
          const wait = failed ? soonestMs : Number.isFinite(due) ? due! - Date.now() : idleMs;
          later(Math.min(idleMs, Math.max(soonestMs, wait)));
        },
        stop: () => clearTimeout(timer),
      };
    },
    async () => {
      due = null;
      due = await task();
    },
    onError,
    String(task),
  );
}

/** The timer that starts runs: told when a run ended (whether it failed), and stopped with the task. */
interface Turns {
  ran(failed: boolean): void;
  stop(): void;
}

function repeatingOn(
  turns: (run: () => Promise<void>) => Turns,
  task: () => Promise<unknown>,
  onError: (error: Error) => void,
  name = String(task),
): Repeating {
  let current: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let stopping: Promise<void> | undefined;
  const runs = async () => {
    let failed = false;
    try {
      do {
        again = false;
        failed = false;
        try {
          // always after a tick: `current` is set before the first run can end
          await Promise.resolve().then(task);
        } catch (error) {
          failed = true;
          onError(error as Error);
        }
      } while (again && !stopped);
    } finally {
      current = undefined;
      if (!stopped) timer.ran(failed);
    }
  };
  const run = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    current ??= runs();
    return current;
  };
  const timer = turns(run);
  return {
    run,
    runAgain() {
      if (current && !stopped) again = true;
      return run();
    },
    stop() {
      // one wait however many ask: shutdown stops every task together, then a service's own hook may stop it again
      stopping ??= (async () => {
        stopped = true;
        timer.stop();
        if (!current) return;
        if ((await waitAtMost(current, STOP_WAIT_MS)) === 'late')
          new Logger('Repeating').warn(`${name}: still running ${STOP_WAIT_MS} ms after the stop; not waited for`);
      })();
      return stopping;
    },
  };
}
