import type { WebSocket } from 'ws';
import type { MetricsService } from '../metrics/metrics.service';
import type { RealtimeBus } from '../bus/realtime-bus.service';
import type { UserDirectory } from '../auth/user-directory.service';
import { RealtimeGateway } from './realtime.gateway';

function fakeClient(bufferedAmount: number) {
  return {
    OPEN: 1,
    readyState: 1,
    bufferedAmount,
    sent: [] as string[],
    terminated: false,
    closedWith: null as number | null,
    close(code: number) {
      this.closedWith = code;
    },
    send(frame: Buffer) {
      this.sent.push(frame.toString());
    },
    terminate() {
      this.terminated = true;
    },
  };
}
const user = (permissions: string[], id = 'u', role = 'viewer') => ({
  id,
  email: 'u@example.com',
  role,
  firstName: null,
  lastName: null,
  profileImageUrl: null,
  permissions,
  isActive: true,
});

describe('live message delivery', () => {
  it('sends to readers, skips a client that is behind, disconnects one far behind, and never to clients without the permission', () => {
    const gateway = new RealtimeGateway({} as RealtimeBus, {} as MetricsService, {} as UserDirectory, {} as never);
    const reader = fakeClient(0);
    const behind = fakeClient(2 << 20);
    const farBehind = fakeClient(16 << 20);
    const blind = fakeClient(0);
    for (const [client, permissions] of [
      [reader, ['circuit_breaker_view']],
      [behind, ['circuit_breaker_view']],
      [farBehind, ['circuit_breaker_view']],
      [blind, ['dashboard_view']],
    ] as const) {
      gateway.handleConnection(
        client as unknown as WebSocket,
        { session: { user: user([...permissions]), key: 'session', expiresAt: null } } as never,
      );
    }
    gateway.deliver({ type: 'pong' });
    expect(reader.sent).toEqual(['{"type":"pong"}']);
    expect(behind.sent).toEqual([]);
    expect(behind.terminated).toBe(false);
    expect(farBehind.terminated).toBe(true);
    expect(blind.sent).toEqual([]);
    expect(gateway.connectedClients).toBe(3);
  });
});

describe('a change of an account', () => {
  it('goes to user managers and to that account, not to other readers', () => {
    const gateway = new RealtimeGateway({} as RealtimeBus, {} as MetricsService, {} as UserDirectory, {} as never);
    const manager = fakeClient(0);
    const superAdmin = fakeClient(0);
    const subject = fakeClient(0);
    const bystander = fakeClient(0);
    for (const [client, who] of [
      [manager, user(['user_management'], 'm')],
      [superAdmin, user([], 's', 'super_admin')],
      [subject, user(['dashboard_view'], 'changed')],
      [bystander, user(['circuit_breaker_view'], 'b')],
    ] as const) {
      gateway.handleConnection(client as unknown as WebSocket, { session: { user: who, key: 'session', expiresAt: null } } as never);
    }
    gateway.deliver({ type: 'userChanged', data: { userId: 'changed' } });
    const frame = '{"type":"userChanged","data":{"userId":"changed"}}';
    expect([manager.sent, superAdmin.sent, subject.sent, bystander.sent]).toEqual([[frame], [frame], [frame], []]);
  });
});

describe('an account that changed', () => {
  const directoryAnswering = (answer: ReturnType<typeof user> | null) =>
    ({ evict: jest.fn(), get: jest.fn(async () => answer) }) as unknown as UserDirectory & { evict: jest.Mock };

  it('keeps its sockets with its new permissions: a viewer who lost circuit_breaker_view gets no more breaker messages', async () => {
    const directory = directoryAnswering(user(['dashboard_view'], 'changed'));
    const gateway = new RealtimeGateway({} as RealtimeBus, {} as MetricsService, directory, {} as never);
    const socket = fakeClient(0);
    gateway.handleConnection(
      socket as unknown as WebSocket,
      { session: { user: user(['circuit_breaker_view'], 'changed'), key: 'session', expiresAt: null } } as never,
    );
    await gateway.refreshAccount('changed');
    expect(directory.evict).toHaveBeenCalledWith('changed');
    gateway.deliver({ type: 'pong' });
    expect([socket.sent, socket.closedWith]).toEqual([[], null]);
  });

  it('closes the sockets of a deactivated or deleted account, and only those', async () => {
    for (const answer of [{ ...user(['circuit_breaker_view'], 'changed'), isActive: false }, null]) {
      const gateway = new RealtimeGateway({} as RealtimeBus, {} as MetricsService, directoryAnswering(answer), {} as never);
      const subject = fakeClient(0);
      const other = fakeClient(0);
      gateway.handleConnection(
        subject as unknown as WebSocket,
        { session: { user: user(['circuit_breaker_view'], 'changed'), key: 'session', expiresAt: null } } as never,
      );
      gateway.handleConnection(
        other as unknown as WebSocket,
        { session: { user: user(['circuit_breaker_view'], 'other'), key: 'session', expiresAt: null } } as never,
      );
      await gateway.refreshAccount('changed');
      expect([subject.closedWith, other.closedWith, gateway.connectedClients]).toEqual([4401, null, 1]);
    }
  });
});

describe('a session’s sockets', () => {
  afterEach(() => jest.useRealTimers());

  it('close when the session’s cookie expires, and when the session ends on any replica', () => {
    jest.useFakeTimers();
    const gateway = new RealtimeGateway({} as RealtimeBus, {} as MetricsService, {} as UserDirectory, {} as never);
    const expiring = fakeClient(0);
    const signedOut = fakeClient(0);
    const staying = fakeClient(0);
    const connect = (client: ReturnType<typeof fakeClient>, key: string, expiresAt: number | null) =>
      gateway.handleConnection(
        client as unknown as WebSocket,
        { session: { user: user(['circuit_breaker_view']), key, expiresAt } } as never,
      );
    connect(expiring, 'a', Date.now() + 60_000);
    connect(signedOut, 'b', null);
    connect(staying, 'c', null);
    jest.advanceTimersByTime(59_000);
    expect(expiring.closedWith).toBeNull();
    jest.advanceTimersByTime(1_000);
    expect(expiring.closedWith).toBe(4401);
    gateway.endSession('b', 'Signed out');
    expect([signedOut.closedWith, staying.closedWith]).toEqual([4401, null]);
    expect(gateway.connectedClients).toBe(1);
  });
});

describe('revalidation', () => {
  it('closes the sockets whose session the table no longer has, whatever message was lost', async () => {
    const sessions = { live: async (sids: readonly string[]) => new Set(sids.filter((sid) => sid !== 'gone')) };
    const directory = { evict: () => undefined, get: async () => user(['circuit_breaker_view']) };
    const gateway = new RealtimeGateway({} as RealtimeBus, {} as MetricsService, directory as never, sessions as never);
    const stale = fakeClient(0);
    const current = fakeClient(0);
    for (const [client, sid] of [
      [stale, 'gone'],
      [current, 'here'],
    ] as const) {
      gateway.handleConnection(
        client as unknown as WebSocket,
        {
          session: { user: user(['circuit_breaker_view']), key: sid, sid, expiresAt: null },
        } as never,
      );
    }
    await gateway.revalidate();
    expect([stale.closedWith, current.closedWith]).toEqual([4401, null]);
    expect(gateway.connectedClients).toBe(1);
  });
});
