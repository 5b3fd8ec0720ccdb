import { Logger } from '@nestjs/common';
import { repeating, repeatingWhenDue, STOP_WAIT_MS } from './repeating';

/** A task that waits for the test to let it finish, counting its runs. */
function heldTask() {
  const releases: (() => void)[] = [];
  let runs = 0;
  return {
    task: () => {
      runs++;
      return new Promise<void>((resolve) => releases.push(resolve));
    },
    finishRun: () => releases.shift()?.(),
    get runs() {
      return runs;
    },
  };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

it('runs the task every period, from one period after it starts', async () => {
  let runs = 0;
  const job = repeating(1000, async () => void runs++, jest.fn());
  await jest.advanceTimersByTimeAsync(999);
  expect(runs).toBe(0);
  await jest.advanceTimersByTimeAsync(2001);
  expect(runs).toBe(3);
  await job.stop();
});

it('lets a turn pass while a run is going on, and run() called meanwhile joins that run', async () => {
  const held = heldTask();
  const job = repeating(1000, held.task, jest.fn());
  await jest.advanceTimersByTimeAsync(3000);
  expect(held.runs).toBe(1);
  let joined = false;
  const asked = job.run().then(() => (joined = true));
  await jest.advanceTimersByTimeAsync(0);
  expect(held.runs).toBe(1);
  expect(joined).toBe(false);
  held.finishRun();
  await asked;
  expect(joined).toBe(true);
  // the next turn starts a new run
  await jest.advanceTimersByTimeAsync(1000);
  expect(held.runs).toBe(2);
  held.finishRun();
  await job.stop();
});

it('runAgain() during a run makes one more run after it, however many times it is called', async () => {
  const held = heldTask();
  const job = repeating(60_000, held.task, jest.fn());
  void job.run();
  await jest.advanceTimersByTimeAsync(0);
  let done = false;
  const news = [job.runAgain(), job.runAgain(), job.runAgain()];
  void Promise.all(news).then(() => (done = true));
  held.finishRun();
  await jest.advanceTimersByTimeAsync(0);
  // the run going on may have read its input before the news: one more run, not three
  expect(held.runs).toBe(2);
  expect(done).toBe(false);
  held.finishRun();
  await Promise.all(news);
  expect(held.runs).toBe(2);
  // with nothing going on, runAgain() is a run now
  void job.runAgain();
  await jest.advanceTimersByTimeAsync(0);
  expect(held.runs).toBe(3);
  held.finishRun();
  await job.stop();
});

it('survives a task that throws before its first await', async () => {
  const onError = jest.fn();
  let runs = 0;
  const job = repeating(
    1000,
    () => {
      runs++;
      throw new Error('at once');
    },
    onError,
  );
  await job.run();
  await job.run();
  expect(runs).toBe(2);
  expect(onError).toHaveBeenCalledTimes(2);
  await job.stop();
});

it('hands a failure to onError and tries again at the next turn', async () => {
  const onError = jest.fn();
  let runs = 0;
  const job = repeating(
    1000,
    async () => {
      if (++runs === 1) throw new Error('database away');
    },
    onError,
  );
  await jest.advanceTimersByTimeAsync(1000);
  expect(onError).toHaveBeenCalledWith(new Error('database away'));
  await jest.advanceTimersByTimeAsync(1000);
  expect(runs).toBe(2);
  expect(onError).toHaveBeenCalledTimes(1);
  await job.stop();
});

it('stop() waits for the run going on, and nothing runs after it', async () => {
  const held = heldTask();
  const job = repeating(1000, held.task, jest.fn());
  await jest.advanceTimersByTimeAsync(1000);
  let stopped = false;
  const stopping = job.stop().then(() => (stopped = true));
  await jest.advanceTimersByTimeAsync(0);
  expect(stopped).toBe(false);
  held.finishRun();
  await stopping;
  expect(stopped).toBe(true);
  await jest.advanceTimersByTimeAsync(5000);
  await job.run();
  expect(held.runs).toBe(1);
});

it('stop() waits STOP_WAIT_MS at most for a run that hangs, and says which', async () => {
  const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  const job = repeating(1000, function hangs() {
    return new Promise(() => undefined);
  });
  void job.run();
  let stopped = false;
  const stopping = job.stop().then(() => (stopped = true));
  await jest.advanceTimersByTimeAsync(STOP_WAIT_MS - 1);
  expect(stopped).toBe(false);
  await jest.advanceTimersByTimeAsync(1);
  await stopping;
  expect(warn).toHaveBeenCalledWith(
    expect.stringMatching(new RegExp(`function hangs\\(\\)[^]*still running ${STOP_WAIT_MS} ms after the stop`)),
  );
  warn.mockRestore();
});

it('never holds the process open', () => {
  const spy = jest.spyOn(global, 'setInterval');
  const job = repeating(1000, async () => undefined, jest.fn());
  const timer = spy.mock.results[0]!.value as NodeJS.Timeout;
  expect(timer.hasRef()).toBe(false);
  spy.mockRestore();
  void job.stop();
});

describe('repeatingWhenDue', () => {
  const times = { soonestMs: 1000, idleMs: 10_000 };
  /** A task that notes when it runs (ms from the start) and answers the due time `due()` gives. */
  const noted = (due: () => number | null) => {
    const runsAt: number[] = [];
    const start = Date.now();
    const job = repeatingWhenDue(times, async () => {
      runsAt.push(Date.now() - start);
      return due();
    });
    return { runsAt, job };
  };

  it('runs when the work it knows of falls due, and at the latest idleMs after its last run', async () => {
    let next: number | null = null;
    const { runsAt, job } = noted(() => next);
    const start = Date.now();
    // the first run one soonestMs after the start; it knows of nothing due: the next comes idleMs later
    await jest.advanceTimersByTimeAsync(1000);
    expect(runsAt).toEqual([1000]);
    await jest.advanceTimersByTimeAsync(9_999);
    expect(runsAt).toEqual([1000]);
    next = start + 14_000;
    await jest.advanceTimersByTimeAsync(1);
    expect(runsAt).toEqual([1000, 11_000]);
    // work due at 14 s: run then, not at the idle turn
    await jest.advanceTimersByTimeAsync(3000);
    expect(runsAt).toEqual([1000, 11_000, 14_000]);
    // work due already and still there (another replica holds it): looked at again soonestMs later, no sooner
    await jest.advanceTimersByTimeAsync(3000);
    expect(runsAt).toEqual([1000, 11_000, 14_000, 15_000, 16_000, 17_000]);
    next = null;
    await jest.advanceTimersByTimeAsync(11_000);
    expect(runsAt).toEqual([1000, 11_000, 14_000, 15_000, 16_000, 17_000, 18_000, 28_000]);
    await job.stop();
  });

  it('runs at once on news (runAgain), and counts its next turn from that run', async () => {
    const { runsAt, job } = noted(() => null);
    await jest.advanceTimersByTimeAsync(5000);
    expect(runsAt).toEqual([1000]);
    await job.runAgain();
    expect(runsAt).toEqual([1000, 5000]);
    // the idle turn follows the news' run, not the run before it
    await jest.advanceTimersByTimeAsync(9_999);
    expect(runsAt).toEqual([1000, 5000]);
    await jest.advanceTimersByTimeAsync(1);
    expect(runsAt).toEqual([1000, 5000, 15_000]);
    await job.stop();
  });

  it('tries a failed run again soonestMs later, and nothing runs after stop()', async () => {
    let runs = 0;
    const onError = jest.fn();
    const job = repeatingWhenDue(
      times,
      async () => {
        runs++;
        if (runs === 1) throw new Error('database away');
        return null;
      },
      onError,
    );
    await jest.advanceTimersByTimeAsync(2000);
    expect(runs).toBe(2);
    expect(onError).toHaveBeenCalledWith(new Error('database away'));
    await job.stop();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(2);
  });
});
