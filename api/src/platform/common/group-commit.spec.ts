import { GroupCommit } from './group-commit';

/** A write the test finishes by hand, noting each batch it was given. */
function heldWrites() {
  const batches: number[][] = [];
  const finish: (() => void)[] = [];
  const write = (items: number[]) =>
    new Promise<string[]>((resolve) => {
      batches.push(items);
      finish.push(() => resolve(items.map((item) => `wrote ${item}`)));
    });
  return { batches, finish, write };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

it('writes a lone item at once, and what arrives meanwhile together in the next write', async () => {
  const { batches, finish, write } = heldWrites();
  const commit = new GroupCommit(write);
  const first = commit.add(1);
  await settle();
  expect(batches).toEqual([[1]]);
  const later = [commit.add(2), commit.add(3), commit.add(4)];
  await settle();
  expect(batches).toEqual([[1]]);
  finish.shift()!();
  await expect(first).resolves.toBe('wrote 1');
  await settle();
  expect(batches).toEqual([[1], [2, 3, 4]]);
  finish.shift()!();
  await expect(Promise.all(later)).resolves.toEqual(['wrote 2', 'wrote 3', 'wrote 4']);
});

it('keeps a batch to its bound', async () => {
  const { batches, finish, write } = heldWrites();
  const commit = new GroupCommit(write, 2);
  const all = [1, 2, 3, 4, 5].map((item) => commit.add(item));
  for (let batch = 0; batch < 3; batch++) {
    await settle();
    finish.shift()!();
  }
  await expect(Promise.all(all)).resolves.toHaveLength(5);
  expect(batches).toEqual([[1, 2], [3, 4], [5]]);
});

it('fails every item of a failed write, and goes on with the next', async () => {
  let calls = 0;
  const commit = new GroupCommit(async (items: number[]) => {
    if (calls++ === 0) throw new Error('database away');
    return items;
  });
  const failed = [commit.add(1), commit.add(2)];
  await expect(Promise.all(failed.map((promise) => promise.catch((error: Error) => error.message)))).resolves.toEqual([
    'database away',
    'database away',
  ]);
  await expect(commit.add(3)).resolves.toBe(3);
});

it('with a window, holds the first write that long for others to join it while writes come steadily', async () => {
  // the clock is the test's: whether writes come "steadily" is judged by when they arrive, which a busy machine stretches
  jest.useFakeTimers({ doNotFake: ['setImmediate', 'queueMicrotask', 'nextTick'] });
  try {
    const { batches, finish, write } = heldWrites();
    const commit = new GroupCommit(write, 500, 40);
    // after a lull a lone write goes at once, and what arrives meanwhile goes next, together
    const lone = commit.add(1);
    await settle();
    expect(batches).toEqual([[1]]);
    const together = [commit.add(2), commit.add(3)];
    finish.shift()!();
    await settle();
    expect(batches).toEqual([[1], [2, 3]]);
    finish.shift()!();
    await expect(Promise.all([lone, ...together])).resolves.toEqual(['wrote 1', 'wrote 2', 'wrote 3']);
    // the fourth write within the window: the flow is steady, and the first of the next batch waits for others
    const first = commit.add(4);
    await settle();
    expect(batches).toHaveLength(2);
    const second = commit.add(5);
    await jest.advanceTimersByTimeAsync(39);
    expect(batches).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([[1], [2, 3], [4, 5]]);
    finish.shift()!();
    await expect(Promise.all([first, second])).resolves.toEqual(['wrote 4', 'wrote 5']);
    // after a lull longer than the window, a write goes at once again
    await jest.advanceTimersByTimeAsync(60);
    const after = commit.add(6);
    await settle();
    expect(batches.at(-1)).toEqual([6]);
    finish.shift()!();
    await expect(after).resolves.toBe('wrote 6');
  } finally {
    jest.useRealTimers();
  }
});
