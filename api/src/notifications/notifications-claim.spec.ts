import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { migratedTestDatabase } from '../../test/test-database';
import { NotificationsRepository } from './notifications.repository';

// the claim of due deliveries alone, on a database no outbox runs on: what one claim takes of each channel
let dataSource: DataSource;
let dropDatabase: () => Promise<void>;
let repository: NotificationsRepository;

beforeAll(async () => {
  ({ dataSource, drop: dropDatabase } = await migratedTestDatabase());
  repository = new NotificationsRepository(dataSource);
});

afterAll(async () => {
  await dropDatabase?.();
});

/** A channel with `due` deliveries due now; its id. */
async function channelWithDue(due: number): Promise<string> {
  const [channel] = await dataSource.query(
    `INSERT INTO notification_channels (name, type, recipients) VALUES ($1, 'email', '{oncall@example.com}') RETURNING id`,
    [`channel ${randomUUID()}`],
  );
  await dataSource.query(
    `INSERT INTO notification_deliveries (event_type, subject, occurred_at, payload, channel_id, status, next_attempt_at)
     SELECT 'breaker.opened', 'a breaker', now(), '{}', $1, 'pending', now() - make_interval(secs => n) FROM generate_series(1, $2) AS n`,
    [channel.id, due],
  );
  return channel.id;
}

it("tops a channel's tries up to the most a replica makes at once, counting those it has in flight", async () => {
  const slow = await channelWithDue(20);
  const other = await channelWithDue(20);
  const owner = randomUUID();
  // 10 of the slow channel's tries going on here already: 6 more of it, and the other channel's 16
  const claimed = await repository.claimDue(owner, 64, 30, 16, new Map([[slow, 10]]));
  const of = (channel: string) => claimed.filter((delivery) => delivery.channelId === channel).length;
  expect([of(slow), of(other)]).toEqual([6, 16]);
  // with 16 of it in flight, none of it; the other's 4 left
  const again = await repository.claimDue(owner, 64, 30, 16, new Map([[slow, 16]]));
  expect(again.map((delivery) => delivery.channelId)).toEqual([other, other, other, other]);
});
