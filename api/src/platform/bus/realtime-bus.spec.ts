import type { ServerMessage } from '@cbh/contracts';
import type { InstanceRegistry } from '../replicas/instance-registry.service';
import type { NotifyChannel } from './notify-channel';
import { type BusEnvelope, type InternalEnvelope, RealtimeBus } from './realtime-bus.service';

/** A channel whose NOTIFYs finish when the spec says so, and whose listener the spec feeds. */
function channel() {
  const sent: string[] = [];
  const inFlight: { resolve: () => void; reject: (error: Error) => void }[] = [];
  let onPayload: (payload: string) => void = () => undefined;
  let onError: (error: Error) => void = () => undefined;
  const listens = { count: 0 };
  const fake = {
    notify: (payload: string) =>
      new Promise<void>((resolve, reject) => {
        sent.push(payload);
        inFlight.push({ resolve, reject });
      }),
    listen: async (handler: (payload: string) => void, errorHandler: (error: Error) => void) => {
      listens.count++;
      onPayload = handler;
      onError = errorHandler;
      return { close: async () => undefined };
    },
  };
  return {
    sent,
    inFlight,
    receive: (payload: string) => onPayload(payload),
    loseConnection: (error: Error) => onError(error),
    listens,
    bus: new RealtimeBus(fake as unknown as NotifyChannel, { id: 'here' } as unknown as InstanceRegistry),
  };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));
const message = (serviceId: number): ServerMessage => ({ type: 'serviceUpdated', data: { serviceId, service: null } });
const envelope = (serviceId: number) => JSON.stringify({ origin: 'here', message: message(serviceId) });

describe('publishing', () => {
  it('sends what one turn publishes in one NOTIFY, and what comes meanwhile in the next, in order', async () => {
    const { bus, sent, inFlight } = channel();
    const first = [bus.publish(message(1)), bus.publish(message(2))];
    await settle();
    expect(sent).toEqual([`[${envelope(1)},${envelope(2)}]`]);
    const later = [bus.publish(message(3)), bus.publishInternal('session-ended', 'key'), bus.publish(message(4))];
    await settle();
    expect(sent).toHaveLength(1); // one NOTIFY at a time: the first decides the order
    inFlight[0]!.resolve();
    await Promise.all(first);
    await settle();
    expect(sent[1]).toBe(`[${envelope(3)},${JSON.stringify({ origin: 'here', internal: 'session-ended', data: 'key' })},${envelope(4)}]`);
    inFlight[1]!.resolve();
    await Promise.all(later);
  });

  it('sends in the same NOTIFY what the callbacks of a turn’s promises publish, however far down their chain', async () => {
    const { bus, sent, inFlight } = channel();
    // a control's stateChange is published as its journal write settles, its configUpdated a few callbacks later
    const written = Promise.resolve();
    const both: Promise<void>[] = [];
    await Promise.all([
      written.then(() => void both.push(bus.publish(message(1)))),
      written
        .then(() => undefined)
        .then(() => undefined)
        .then(() => void both.push(bus.publish(message(2)))),
    ]);
    await settle();
    expect(sent).toEqual([`[${envelope(1)},${envelope(2)}]`]);
    inFlight[0]!.resolve();
    await Promise.all(both);
  });

  it('sends a lone message as itself, splits what would pass NOTIFY’s 8,000 bytes, and fails only the batch that failed', async () => {
    const { bus, sent, inFlight } = channel();
    const lone = bus.publish(message(1));
    await settle();
    expect(sent).toEqual([envelope(1)]);
    const big = (n: number): ServerMessage => ({ type: 'userChanged', data: { userId: String(n).repeat(3000) } });
    const waiting = [big(1), big(2), big(3)].map((m) => bus.publish(m));
    inFlight[0]!.reject(new Error('connection lost'));
    await expect(lone).rejects.toThrow('connection lost');
    await settle();
    expect(JSON.parse(sent[1]!)).toHaveLength(2);
    inFlight[1]!.resolve();
    await settle();
    expect(JSON.parse(sent[2]!).message.data.userId).toBe('3'.repeat(3000));
    inFlight[2]!.resolve();
    await Promise.all(waiting);
    expect(sent.every((payload) => Buffer.byteLength(payload) <= 7_900)).toBe(true);
  });
});

describe('receiving', () => {
  it('hands the live messages of one NOTIFY on together, internal ones in their place', async () => {
    const { bus, receive } = channel();
    await bus.onModuleInit();
    const seen: string[] = [];
    bus.subscribeBatches((envelopes: readonly BusEnvelope[]) =>
      seen.push(`batch ${envelopes.map((e) => (e.message as { data: { serviceId: number } }).data.serviceId).join('+')}`),
    );
    bus.subscribe(({ message: m }) => seen.push(`one ${(m as { data: { serviceId: number } }).data.serviceId}`));
    bus.subscribeInternal('session-ended', ({ data }: InternalEnvelope) => seen.push(`ended ${String(data)}`));
    receive(`[${envelope(1)},${envelope(2)},{"origin":"there","internal":"session-ended","data":"k"},${envelope(3)}]`);
    receive(envelope(4));
    receive('not json');
    expect(seen).toEqual(['batch 1+2', 'one 1', 'one 2', 'ended k', 'batch 3', 'one 3', 'batch 4', 'one 4']);
  });
});

describe('reconnecting', () => {
  afterEach(() => jest.useRealTimers());

  it('makes one new LISTEN connection however many times the lost one reports itself, and none once shut down', async () => {
    jest.useFakeTimers();
    const { bus, loseConnection, listens } = channel();
    await bus.onModuleInit();
    expect(listens.count).toBe(1);
    // pg reports a terminated connection as an error and then as its end
    loseConnection(new Error('terminating connection due to administrator command'));
    loseConnection(new Error('Connection terminated unexpectedly'));
    await jest.advanceTimersByTimeAsync(10_000);
    expect(listens.count).toBe(2);

    loseConnection(new Error('terminating connection due to administrator command'));
    loseConnection(new Error('Connection terminated unexpectedly'));
    await bus.onApplicationShutdown();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(listens.count).toBe(2);
  });
});

describe('keeping up with what other replicas tell (a job woken, a cache reloaded)', () => {
  afterEach(() => jest.useRealTimers());

  it('runs its act on each kind it names that it accepts, and once the lost LISTEN connection is back', async () => {
    jest.useFakeTimers();
    const { bus, receive, loseConnection } = channel();
    await bus.onModuleInit();
    const act = jest.fn();
    bus.whenTold(['domains-due', 'status-changed'], act, ({ data }) => data !== 'own');
    const internal = (kind: string, data: unknown) => receive(JSON.stringify({ origin: 'there', internal: kind, data }));

    internal('domains-due', null);
    internal('status-changed', 'own');
    internal('status-changed', 'page');
    internal('scrape-targets-due', null);
    expect(act).toHaveBeenCalledTimes(2);

    // what was told while the listener was away never arrives: it looks for itself
    loseConnection(new Error('Connection terminated unexpectedly'));
    await jest.advanceTimersByTimeAsync(10_000);
    expect(act).toHaveBeenCalledTimes(3);
  });
});
