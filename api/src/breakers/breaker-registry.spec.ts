import type { ServerMessage } from '@cbh/contracts';
import type { BusEnvelope } from '../platform/bus/realtime-bus.service';
import { type AppliedConfig, BreakerRegistry } from './breaker-registry.service';
import { BreakerConfigEntity } from './entities/breaker-config.entity';

/** One replica's registry ("B") on a fan-out and a database the test plays: it decides what arrives, and when. */
function replicaB(rows: AppliedConfig[] = []) {
  const journal: unknown[] = [];
  const published: ServerMessage[] = [];
  const handlers: ((envelope: BusEnvelope) => void)[] = [];
  const reconnects: (() => void)[] = [];
  const dataSource = { getRepository: (entity: unknown) => entity === BreakerConfigEntity && { find: async () => rows } };
  const journalWriter = { write: async (transition: unknown) => void journal.push(transition) };
  const bus = {
    subscribe: (handler: (envelope: BusEnvelope) => void) => handlers.push(handler),
    onReconnect: (handler: () => void) => reconnects.push(handler),
    publish: async (message: ServerMessage) => void published.push(message),
  };
  const registry = new BreakerRegistry(dataSource as never, { id: 'B' } as never, bus as never, journalWriter as never);
  registry.onModuleInit();
  const fromA = (message: ServerMessage) => handlers.forEach((handler) => handler({ origin: 'A', message }));
  return { registry, journal, published, fromA, reconnect: () => reconnects.forEach((handler) => handler()), rows };
}

const config = (fields: Partial<AppliedConfig> = {}): AppliedConfig => ({
  id: 7,
  name: 'Payments',
  type: 'simple',
  failureThreshold: 2,
  timeout: 30_000,
  recoveryTime: 60_000,
  successThreshold: 1,
  maxConcurrentCalls: null,
  maxQueue: null,
  minimumCalls: null,
  slowCallDuration: null,
  override: 'none',
  version: 0,
  ...fields,
});
const configUpdated = (fields: Partial<AppliedConfig>, manual?: { action: 'force-open' | 'reset'; reason: string }): ServerMessage => ({
  type: 'configUpdated',
  data: {
    configId: 7,
    config: {
      ...config(fields),
      state: 'CLOSED',
      source: 'hub',
      service: null,
      library: null,
      libraryType: null,
      librarySettings: null,
      createdAt: '',
      updatedAt: '',
    },
    ...(manual ? { manual } : {}),
  },
});
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

afterEach(() => jest.useRealTimers());

it('applies only changes newer than its own, so controls that cross in flight end where the database did', async () => {
  const { registry, journal, fromA } = replicaB();
  registry.apply(config());
  // B's operator resets (version 2 in the database) while A's Force open (version 1) is still on its way
  registry.apply(config({ version: 2 }), { action: 'reset', reason: 'reset by Bea', journal: true });
  fromA(configUpdated({ version: 1, override: 'forced-open' }, { action: 'force-open', reason: 'forced open by Abe' }));
  expect([registry.get(7)!.state, registry.get(7)!.override]).toEqual(['CLOSED', 'none']);
  // a newer one is applied, and journalled by A, not here
  fromA(configUpdated({ version: 3, override: 'forced-open' }, { action: 'force-open', reason: 'forced open by Abe' }));
  expect([registry.get(7)!.state, registry.get(7)!.override]).toEqual(['OPEN', 'forced-open']);
  await settle();
  expect(journal).toEqual([]);
});

it('does not bring back a deleted breaker when a late change about it arrives', () => {
  const { registry, fromA } = replicaB();
  registry.apply(config());
  fromA({ type: 'configUpdated', data: { configId: 7, config: null } });
  fromA(configUpdated({ version: 4, override: 'forced-open' }, { action: 'force-open', reason: 'forced open by Abe' }));
  expect(registry.get(7)).toBeUndefined();
  expect(registry.entries()).toEqual([]);
});

it('follows a peer that opened, for the peer’s open period, and closes with it, journalling none of it', async () => {
  const { registry, journal, published, fromA } = replicaB();
  const breaker = registry.apply(config({ type: 'adaptive', timeout: 30_000 }))!;
  const at = new Date();
  // an adaptive breaker opens for timeout/2 first: the peer says until when
  const openUntil = new Date(at.getTime() + 15_000).toISOString();
  fromA({
    type: 'stateChange',
    data: { configId: 7, from: 'CLOSED', to: 'OPEN', reason: 'x', at: at.toISOString(), instanceId: 'A', override: 'none', openUntil },
  });
  expect([breaker.state, breaker.nextAttemptAt]).toEqual(['OPEN', Date.parse(openUntil)]);
  // the peer's trial calls closed it: this replica, still OPEN because it followed, closes too
  fromA({
    type: 'stateChange',
    data: { configId: 7, from: 'HALF_OPEN', to: 'CLOSED', reason: '1 trial call(s) succeeded', at: at.toISOString(), instanceId: 'A' },
  });
  expect(breaker.state).toBe('CLOSED');
  // a forced open is followed as the control (configUpdated), never as a trip
  fromA({
    type: 'stateChange',
    data: {
      configId: 7,
      from: 'CLOSED',
      to: 'OPEN',
      reason: 'forced open by Abe',
      at: at.toISOString(),
      instanceId: 'A',
      override: 'forced-open',
    },
  });
  expect(breaker.state).toBe('CLOSED');
  await settle();
  expect([journal, published]).toEqual([[], []]);
});

it('journals and announces its own moves once, with when a peer may try again', async () => {
  const { registry, journal, published } = replicaB();
  const breaker = registry.apply(config())!;
  for (let i = 0; i < 2; i++) breaker.record(false, breaker.admit() === 'permitted' ? 1 : 0);
  await settle();
  expect(journal).toEqual([
    expect.objectContaining({ configId: 7, from: 'CLOSED', to: 'OPEN', reason: '2 consecutive failures', instanceId: 'B' }),
  ]);
  expect(published).toEqual([
    {
      type: 'stateChange',
      data: expect.objectContaining({ to: 'OPEN', override: 'none', openUntil: new Date(breaker.nextAttemptAt!).toISOString() }),
    },
  ]);
});

it('announces a manual control asked of it with the account that asked, which the journal does not keep', async () => {
  const { registry, journal, published } = replicaB();
  const breaker = registry.apply(config())!;
  registry.apply(config({ version: 1, override: 'forced-open' }), {
    action: 'force-open',
    reason: 'forced open by Ada',
    journal: true,
    actorId: 'u1',
  });
  registry.apply(config({ version: 2 }), { action: 'reset', reason: 'reset by Ada', journal: true, actorId: 'u2' });
  // the breaker's own moves afterwards are no one's
  for (let i = 0; i < 2; i++) breaker.record(false, breaker.admit() === 'permitted' ? 1 : 0);
  await settle();
  expect(published.map((message) => message.type === 'stateChange' && [message.data.reason, message.data.actorId])).toEqual([
    ['forced open by Ada', 'u1'],
    ['reset by Ada', 'u2'],
    ['2 consecutive failures', undefined],
  ]);
  expect(journal).toHaveLength(3);
  expect(journal).toEqual(journal.map(() => expect.not.objectContaining({ actorId: expect.anything() })));
});

it('re-reads every configuration when its fan-out comes back, for what it missed meanwhile', async () => {
  const { registry, reconnect, rows } = replicaB();
  registry.apply(config());
  registry.apply(config({ id: 8, name: 'Search' }));
  // while the LISTEN connection was down: 7 was forced open elsewhere, 8 deleted, 9 created
  rows.push(config({ version: 1, override: 'forced-open' }), config({ id: 9, name: 'Ledger' }));
  reconnect();
  await settle();
  expect(registry.entries().map(([id, breaker]) => [id, breaker.state, breaker.override])).toEqual([
    [7, 'OPEN', 'forced-open'],
    [9, 'CLOSED', 'none'],
  ]);
});

it('starts with the stored override and the journal’s last move, as no move of its own', async () => {
  const { registry, journal, rows } = replicaB();
  rows.push(config({ override: 'disabled', version: 5 }));
  await registry.reload(new Map([[7, Date.parse('2026-11-20T08:00:00Z')]]));
  const breaker = registry.get(7)!;
  expect([breaker.override, breaker.lastTransitionAt]).toEqual(['disabled', Date.parse('2026-11-20T08:00:00Z')]);
  await settle();
  expect(journal).toEqual([]);
});
