import { newestRead } from './newest-read';

/** A read whose answer the test gives, one call at a time. */
function heldReads() {
  const pending: ((value: string) => void)[] = [];
  return {
    read: () => new Promise<string>((resolve) => pending.push(resolve)),
    answer: (index: number, value: string) => pending[index]!(value),
  };
}

it('keeps a read that ends after a later one has been kept out of the cache', async () => {
  const held = heldReads();
  const kept: string[] = [];
  const reload = newestRead(held.read, (value) => kept.push(value));
  const before = reload();
  const after = reload();
  // the read started after the change answers first; the one started before it answers last, with the old state
  held.answer(1, 'new');
  await after;
  held.answer(0, 'old');
  await before;
  expect(kept).toEqual(['new']);
});

it('keeps each read that ends in the order they started', async () => {
  const held = heldReads();
  const kept: string[] = [];
  const reload = newestRead(held.read, (value) => kept.push(value));
  const first = reload();
  const second = reload();
  held.answer(0, 'first');
  await first;
  held.answer(1, 'second');
  await second;
  expect(kept).toEqual(['first', 'second']);
});

it('passes a failed read on and keeps nothing of it', async () => {
  const kept: string[] = [];
  const reload = newestRead(
    () => Promise.reject(new Error('connection lost')),
    (value: string) => kept.push(value),
  );
  await expect(reload()).rejects.toThrow('connection lost');
  expect(kept).toEqual([]);
});
