import type { BreakerTransition } from '@cbh/contracts';
import { TransitionJournal } from './transition-journal';

const move = (n: number): BreakerTransition => ({
  configId: 1,
  from: 'CLOSED',
  to: 'OPEN',
  reason: `move ${n}`,
  at: new Date(1_800_000_000_000 + n).toISOString(),
  instanceId: '00000000-0000-4000-8000-000000000001',
});

it('settles every writer and writes each move once when the backlog overflows while a batch is being written', async () => {
  const inserted: string[] = [];
  let release = () => {};
  const dataSource = {
    query: (_sql: string, [json]: [string]) => {
      inserted.push(...(JSON.parse(json) as { reason: string }[]).map((row) => row.reason));
      // the first batch takes its time: the backlog fills past what is kept meanwhile
      return inserted.length === 1 ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
    },
  };
  const journal = new TransitionJournal(dataSource as never);
  jest.spyOn(journal['logger'], 'error').mockImplementation(() => undefined);
  const writes = [journal.write(move(0))];
  // 10,000 more: the oldest kept, move 0 (in flight), is dropped from the backlog
  for (let n = 1; n <= 10_000; n++) writes.push(journal.write(move(n)));
  release();
  await Promise.all(writes);
  expect(inserted).toHaveLength(10_001);
  expect(new Set(inserted).size).toBe(10_001);
  expect(journal.backlog).toBe(0);
});
