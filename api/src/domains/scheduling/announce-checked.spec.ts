import type { ServerMessage } from '@cbh/contracts';
import { DomainCheckRunner } from './domain-check-runner.service';

/** The runner with only what announcing needs: a bus that records what is published. */
function runnerWithBus() {
  const published: ServerMessage[] = [];
  const bus = { publish: async (message: ServerMessage) => void published.push(message) };
  const runner = new DomainCheckRunner(
    {} as never,
    {} as never,
    {} as never,
    {} as never,
    {} as never,
    bus as never,
    { id: 'replica-1' } as never,
    { DNS_SERVERS: null } as never,
    {} as never,
  );
  const finished = (runner as unknown as { checked: Set<number> }).checked;
  return { runner, published, finished };
}

it('announces the rounds finished since the last time in one message, then nothing until more finish', async () => {
  const { runner, published, finished } = runnerWithBus();
  for (const id of [7, 3, 7, 9]) finished.add(id);
  await runner.announceChecked();
  expect(published).toEqual([{ type: 'domainsChecked', data: { domainIds: [7, 3, 9] } }]);
  await runner.announceChecked();
  expect(published).toHaveLength(1);
});

it('splits a busy second into messages of at most 500 ids, each small enough for NOTIFY', async () => {
  const { runner, published, finished } = runnerWithBus();
  for (let id = 2_000_000_000; id < 2_000_001_200; id++) finished.add(id);
  await runner.announceChecked();
  expect(published.map((message) => (message.type === 'domainsChecked' ? message.data.domainIds.length : 0))).toEqual([500, 500, 200]);
  for (const message of published) expect(Buffer.byteLength(JSON.stringify({ origin: 'x'.repeat(36), message }))).toBeLessThan(8000);
});
