import type { WebSocket } from 'ws';
import { WS_SIGNED_OUT_CLOSE } from '@cbh/contracts';
import { type Credentialed, CredentialedSockets, type CredentialSources } from './credentialed-sockets';

/** A socket that records how it was closed. */
const socket = () => {
  const closed: { code: number; reason: string }[] = [];
  return { closed, close: (code: number, reason: string) => closed.push({ code, reason }) };
};

const user = (id: string, isActive = true) =>
  ({ id, email: `${id}@example.com`, role: 'viewer', permissions: ['circuit_breaker_view'], isActive }) as never;

/** The book with what a spec gives it; the bus and the timers of start() are never used. */
const bookWith = (sources: Partial<CredentialSources> = {}, changed?: (entry: Credentialed, fresh: unknown) => void) =>
  new CredentialedSockets<Credentialed>(
    {
      work: {} as never,
      bus: {} as never,
      tokens: { live: async () => new Set() },
      directory: { evict: () => undefined, get: async () => null },
      ...sources,
    },
    { noun: 'streams', deactivated: 'Account deactivated', accountChanged: changed },
  );

describe('sockets opened with a session or a token', () => {
  afterEach(() => jest.useRealTimers());

  it('close when their token expires, as "Token expired", and a session’s as "Session expired"', () => {
    jest.useFakeTimers();
    const book = bookWith();
    const [byToken, bySession, lasting] = [socket(), socket(), socket()];
    book.add(byToken as unknown as WebSocket, { user: user('a'), key: 't', token: { id: 't1', permissions: [] } }, Date.now() + 1000);
    book.add(bySession as unknown as WebSocket, { user: user('a'), key: 's', sid: 's1' }, Date.now() + 2000);
    book.add(lasting as unknown as WebSocket, { user: user('a'), key: 'n', sid: 's2' }, null);
    jest.advanceTimersByTime(999);
    expect(byToken.closed).toEqual([]);
    jest.advanceTimersByTime(1001);
    expect([byToken.closed, bySession.closed, lasting.closed]).toEqual([
      [{ code: WS_SIGNED_OUT_CLOSE, reason: 'Token expired' }],
      [{ code: WS_SIGNED_OUT_CLOSE, reason: 'Session expired' }],
      [],
    ]);
    expect([book.size, book.countOf('t'), book.countOf('n')]).toEqual([1, 0, 1]);
  });

  it('close when the table no longer has their token or session, and stay while it does', async () => {
    const book = bookWith({
      tokens: { live: async (ids: readonly string[]) => new Set(ids.filter((id) => id !== 'revoked')) },
      sessions: { live: async (sids: readonly string[]) => new Set(sids.filter((sid) => sid !== 'ended')) },
      directory: { evict: () => undefined, get: async () => user('a') },
    });
    const sockets = { revoked: socket(), kept: socket(), ended: socket(), live: socket() };
    book.add(sockets.revoked as unknown as WebSocket, { user: user('a'), key: 'k1', token: { id: 'revoked', permissions: [] } }, null);
    book.add(sockets.kept as unknown as WebSocket, { user: user('a'), key: 'k2', token: { id: 'kept', permissions: [] } }, null);
    book.add(sockets.ended as unknown as WebSocket, { user: user('a'), key: 'k3', sid: 'ended' }, null);
    book.add(sockets.live as unknown as WebSocket, { user: user('a'), key: 'k4', sid: 'live' }, null);
    await book.revalidate();
    expect(Object.fromEntries(Object.entries(sockets).map(([name, { closed }]) => [name, closed.map((close) => close.reason)]))).toEqual({
      revoked: ['Token revoked'],
      kept: [],
      ended: ['Signed out'],
      live: [],
    });
    expect(book.size).toBe(2);
  });

  it('close with the book’s reason when their account is deactivated, take the account’s change otherwise, and ask nothing for an account they do not hold', async () => {
    const get = jest.fn(async (id: string) => (id === 'gone' ? user('gone', false) : user(id)));
    const changed = jest.fn();
    const book = bookWith({ directory: { evict: () => undefined, get } }, changed);
    const [gone, staying] = [socket(), socket()];
    book.add(gone as unknown as WebSocket, { user: user('gone'), key: 'g', token: { id: 'g', permissions: [] } }, null);
    book.add(staying as unknown as WebSocket, { user: user('here'), key: 'h', token: { id: 'h', permissions: [] } }, null);
    await book.refreshAccount('gone');
    await book.refreshAccount('here');
    await book.refreshAccount('nobody');
    expect([gone.closed, staying.closed]).toEqual([[{ code: WS_SIGNED_OUT_CLOSE, reason: 'Account deactivated' }], []]);
    expect(changed).toHaveBeenCalledTimes(1);
    expect(changed).toHaveBeenCalledWith(expect.objectContaining({ key: 'h' }), expect.objectContaining({ id: 'here', isActive: true }));
    expect(get.mock.calls.map(([id]) => id)).toEqual(['gone', 'here']);
  });

  it('are kept when the directory cannot be read: the database decides, not a failure to reach it', async () => {
    const book = bookWith({
      directory: {
        evict: () => undefined,
        get: async () => {
          throw new Error('connection refused');
        },
      },
    });
    const kept = socket();
    book.add(kept as unknown as WebSocket, { user: user('a'), key: 'k', token: { id: 'k', permissions: [] } }, null);
    await book.refreshAccount('a');
    expect([kept.closed, book.size]).toEqual([[], 1]);
  });

  it('hear the bus once started: a session ended and a token revoked close theirs, an account changed is read again, a reconnection revalidates, and a socket that comes just after any of them is judged by it', async () => {
    const internal = new Map<string, (envelope: { data: unknown }) => void>();
    let batches: (envelopes: { message: unknown }[]) => void = () => undefined;
    let reconnected: () => void = () => undefined;
    const runAgain = jest.fn();
    const bus = {
      subscribeInternal: (kind: string, handler: (envelope: { data: unknown }) => void) => internal.set(kind, handler),
      subscribeBatches: (handler: typeof batches) => (batches = handler),
      onReconnect: (handler: () => void) => (reconnected = handler),
    };
    const work = { every: () => ({ runAgain, stop: async () => undefined }) };
    let active = true;
    const changed = jest.fn();
    const book = bookWith(
      {
        bus: bus as never,
        work: work as never,
        directory: { evict: () => undefined, get: async (id: string) => (id === 'gone' && !active ? user('gone', false) : user(id)) },
      },
      changed,
    );
    book.start();
    const bySession = socket();
    const byToken = socket();
    const owner = socket();
    book.add(bySession as unknown as WebSocket, { user: user('a'), key: 'session-key', sid: 's' }, null);
    book.add(byToken as unknown as WebSocket, { user: user('a'), key: 'token:t1', token: { id: 't1', permissions: [] } }, null);
    book.add(owner as unknown as WebSocket, { user: user('gone'), key: 'other', sid: 'o' }, null);
    internal.get('session-ended')!({ data: 'session-key' });
    internal.get('token-revoked')!({ data: 't1' });
    expect([bySession.closed, byToken.closed]).toEqual([
      [{ code: WS_SIGNED_OUT_CLOSE, reason: 'Signed out' }],
      [{ code: WS_SIGNED_OUT_CLOSE, reason: 'Token revoked' }],
    ]);
    active = false;
    batches([{ message: { type: 'userChanged', data: { userId: 'gone' } } }]);
    await new Promise(setImmediate);
    expect(owner.closed).toEqual([{ code: WS_SIGNED_OUT_CLOSE, reason: 'Account deactivated' }]);
    // sockets whose upgrade was judged before the messages were heard, added after them
    const lateSession = socket();
    const lateOwner = socket();
    book.add(lateSession as unknown as WebSocket, { user: user('a'), key: 'session-key', sid: 's' }, null);
    book.add(lateOwner as unknown as WebSocket, { user: user('gone'), key: 'another', sid: 'p' }, null);
    await new Promise(setImmediate);
    expect([lateSession.closed, lateOwner.closed]).toEqual([
      [{ code: WS_SIGNED_OUT_CLOSE, reason: 'Signed out' }],
      [{ code: WS_SIGNED_OUT_CLOSE, reason: 'Account deactivated' }],
    ]);
    // an active account's change reaches its sockets with the account as it is now
    active = true;
    const staying = socket();
    book.add(staying as unknown as WebSocket, { user: user('here'), key: 'third', sid: 'q' }, null);
    batches([{ message: { type: 'userChanged', data: { userId: 'here' } } }]);
    await new Promise(setImmediate);
    expect(staying.closed).toEqual([]);
    expect(changed).toHaveBeenCalledWith(
      expect.objectContaining({ key: 'third' }),
      expect.objectContaining({ id: 'here', isActive: true }),
    );
    reconnected();
    expect(runAgain).toHaveBeenCalledTimes(1);
    expect(book.size).toBe(1);
  });
});
