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

it('with a window, holds the first write that long for others to join it', async () => {
  const { batches, finish, write } = heldWrites();
  const commit = new GroupCommit(write, 500, 40);
  const first = commit.add(1);
  await settle();
  expect(batches).toEqual([]);
  const second = commit.add(2);
  await new Promise((resolve) => setTimeout(resolve, 60));
  expect(batches).toEqual([[1, 2]]);
  finish.shift()!();
  await expect(Promise.all([first, second])).resolves.toEqual(['wrote 1', 'wrote 2']);
});
