import { WS_SIGNED_OUT_CLOSE } from '@cbh/contracts';
import { breakerStats } from '@cbh/test-support';
import { createAppStore } from './api';
import { breakersApi } from './breakers';
import {
  applyLiveData,
  coalescing,
  GOING_AWAY,
  LiveConnection,
  LIVE_REFRESH_WINDOW_MS,
  LOST_RECONNECT_MAX_MS,
  RECONNECT_DELAY_MS,
  invalidationFor,
} from './live';

class FakeSocket {
  static opened: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onclose: ((event?: { code?: number }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
  }
  close() {
    this.closed = true;
    this.onclose?.();
  }
}

beforeEach(() => {
  FakeSocket.opened = [];
  jest.useFakeTimers();
});
afterEach(() => jest.useRealTimers());

const connection = (random = Math.random) =>
  new LiveConnection(
    () => 'ws://hub.test/ws',
    (url) => new FakeSocket(url),
    random,
  );

describe('live connection', () => {
  it('hands JSON messages to subscribers and logs and ignores anything else', () => {
    const live = connection();
    const received: unknown[] = [];
    live.subscribe((message) => received.push(message));
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    live.start();
    const socket = FakeSocket.opened[0]!;
    socket.onopen!();
    expect(live.connected).toBe(true);
    socket.onmessage!({ data: '{"type":"testResult","data":{"serviceId":1}}' });
    socket.onmessage!({ data: 'not json' });
    expect(received).toEqual([{ type: 'testResult', data: { serviceId: 1 } }]);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it('reconnects at once when the server closed as going away (a replica shutting down)', () => {
    const live = connection();
    live.start();
    FakeSocket.opened[0]!.onopen!();
    FakeSocket.opened[0]!.onclose!({ code: GOING_AWAY });
    jest.advanceTimersByTime(0);
    expect(FakeSocket.opened).toHaveLength(2);
    live.stop();
  });

  it('tells its signed-out listeners when the server closes the socket because the session ended, and only then', () => {
    const live = connection();
    const signedOut = jest.fn();
    live.onSignedOut(signedOut);
    live.start();
    FakeSocket.opened[0]!.onopen!();
    FakeSocket.opened[0]!.onclose!({ code: 1006 });
    expect(signedOut).not.toHaveBeenCalled();
    jest.advanceTimersByTime(LOST_RECONNECT_MAX_MS);
    FakeSocket.opened[1]!.onopen!();
    FakeSocket.opened[1]!.onclose!({ code: WS_SIGNED_OUT_CLOSE });
    expect(signedOut).toHaveBeenCalledTimes(1);
    live.stop();
  });

  it('reconnects within a second, at a random moment, after losing an open connection; every 3 s while attempts fail; not once stopped', () => {
    const live = connection(() => 0.4);
    live.start();
    FakeSocket.opened[0]!.onopen!();
    FakeSocket.opened[0]!.onclose!({ code: 1006 });
    expect(live.connected).toBe(false);
    jest.advanceTimersByTime(0.4 * LOST_RECONNECT_MAX_MS - 1);
    expect(FakeSocket.opened).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(FakeSocket.opened).toHaveLength(2);
    // that attempt fails before opening: the next one waits 3 s
    FakeSocket.opened[1]!.onclose!({ code: 1006 });
    jest.advanceTimersByTime(RECONNECT_DELAY_MS - 1);
    expect(FakeSocket.opened).toHaveLength(2);
    jest.advanceTimersByTime(1);
    expect(FakeSocket.opened).toHaveLength(3);
    live.stop();
    jest.advanceTimersByTime(10 * RECONNECT_DELAY_MS);
    expect(FakeSocket.opened).toHaveLength(3);
    expect(FakeSocket.opened[2]!.closed).toBe(true);
  });

  it('refreshes latest metrics on stateChange, breakers on configUpdated, services on serviceUpdated, users and the account on userChanged', () => {
    const tags = (message: Parameters<typeof invalidationFor>[0]) => (invalidationFor(message)?.payload as unknown[] | undefined) ?? null;
    expect(tags({ type: 'stateChange', data: { configId: 1, from: 'CLOSED', to: 'OPEN', reason: '', at: '', instanceId: '' } })).toEqual([
      'Metrics',
      { type: 'Journal', id: 1 },
      'StatusPages',
    ]);
    expect(tags({ type: 'configUpdated', data: { configId: 1, config: null } })).toEqual(['Breakers', { type: 'Journal', id: 1 }]);
    expect(tags({ type: 'serviceUpdated', data: { serviceId: 1, service: null } })).toEqual(['Services']);
    // a changed account: the users list and audit for managers, the auth user for the account itself
    expect(tags({ type: 'userChanged', data: { userId: 'u' } })).toEqual(['Users', 'ServiceAccounts', 'Audit', 'AuthUser']);
    expect(tags({ type: 'domainUpdated', data: { domainId: 1 } })).toEqual(['Domains', 'StatusPages']);
    expect(tags({ type: 'domainsChecked', data: { domainIds: [1, 2] } })).toEqual(['DomainChecks']);
    // the figures themselves are written in place; an open breaker page's instances are read with them
    expect(tags({ type: 'metricsUpdate', data: { stats: [] } })).toEqual(['BreakerInstances']);
    expect(tags({ type: 'pong' })).toBeNull();
  });

  it('refreshes at once, then at most once a window, with what arrived inside it sent at its end', () => {
    jest.useFakeTimers();
    const sent: unknown[] = [];
    const refresh = coalescing((action) => sent.push(action.payload));
    const domains = invalidationFor({ type: 'domainUpdated', data: { domainId: 1 } })!;
    const users = invalidationFor({ type: 'userChanged', data: { userId: 'u' } })!;
    refresh.send(domains);
    expect(sent).toEqual([['Domains', 'StatusPages']]);
    for (let i = 0; i < 50; i++) refresh.send(domains);
    // another kind of refresh is not held back by the first
    refresh.send(users);
    expect(sent).toEqual([
      ['Domains', 'StatusPages'],
      ['Users', 'ServiceAccounts', 'Audit', 'AuthUser'],
    ]);
    jest.advanceTimersByTime(LIVE_REFRESH_WINDOW_MS);
    expect(sent).toEqual([
      ['Domains', 'StatusPages'],
      ['Users', 'ServiceAccounts', 'Audit', 'AuthUser'],
      ['Domains', 'StatusPages'],
    ]);
    // a quiet window sends nothing more
    jest.advanceTimersByTime(5 * LIVE_REFRESH_WINDOW_MS);
    expect(sent).toHaveLength(3);
    refresh.stop();
    jest.useRealTimers();
  });

  it('writes metricsUpdate into the latest metrics with no request, and moves a breaker at once on stateChange', async () => {
    const store = createAppStore();
    const latest = () => breakersApi.endpoints.getLatestMetrics.select()(store.getState()).data;
    await applyLiveData({ type: 'metricsUpdate', data: { stats: [breakerStats({ configId: 4, successCount: 9 })] } }, store.dispatch);
    expect(latest()?.stats[0]).toMatchObject({ configId: 4, state: 'CLOSED', successCount: 9 });
    const at = '2026-11-24T10:00:00.000Z';
    void applyLiveData(
      { type: 'stateChange', data: { configId: 4, from: 'CLOSED', to: 'OPEN', reason: '5 consecutive failures', at, instanceId: 'a' } },
      store.dispatch,
    );
    expect(latest()?.stats[0]).toMatchObject({ configId: 4, state: 'OPEN', lastTransitionAt: at, successCount: 9 });
    // later figures replace the entry at once, in the same task
    void applyLiveData({ type: 'metricsUpdate', data: { stats: [breakerStats({ configId: 4, successCount: 12 })] } }, store.dispatch);
    expect(latest()?.stats[0]).toMatchObject({ configId: 4, state: 'CLOSED', successCount: 12 });
  });
});
