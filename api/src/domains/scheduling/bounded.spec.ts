import { runBounded } from './bounded';

it('never runs more than the limit at once, and a hung item only costs its own slot until its timeout (without it this never resolves)', async () => {
  let running = 0;
  let peak = 0;
  const done: number[] = [];
  await runBounded([0, 1, 2, 3, 4, 5], 2, 200, async (item) => {
    running++;
    peak = Math.max(peak, running);
    try {
      // item 0 hangs forever; the others take 20 ms
      await new Promise((resolve) => (item === 0 ? undefined : setTimeout(resolve, 20)));
      done.push(item);
    } finally {
      running--;
    }
  });
  expect(peak).toBe(2);
  expect(done.sort()).toEqual([1, 2, 3, 4, 5]);
});
