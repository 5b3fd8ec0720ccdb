import type { WebSocket } from 'ws';
import type { MetricsService } from '../metrics/metrics.service';
import type { RealtimeBus } from '../../platform/bus/realtime-bus.service';
import type { UserDirectory } from '../../identity/auth/user-directory.service';
import { RealtimeGateway } from './realtime.gateway';
import { fakeSocket } from './fake-socket.test-kit';

/** The gateway with only what a test gives it; the rest is never used. */
const gatewayWith = ({ metrics = {}, directory = {}, sessions = {}, tokens = {} }: Record<string, unknown> = {}) =>
  new RealtimeGateway(
    {} as never,
    {} as RealtimeBus,
    metrics as MetricsService,
    directory as UserDirectory,
    sessions as never,
    tokens as never,
    {} as never,
  );

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
    const gateway = gatewayWith();
    const reader = fakeSocket(0);
    const behind = fakeSocket(2 << 20);
    const farBehind = fakeSocket(16 << 20);
    const blind = fakeSocket(0);
    for (const [client, permissions] of [
      [reader, ['circuit_breaker_view']],
      [behind, ['circuit_breaker_view']],
      [farBehind, ['circuit_breaker_view']],
      [blind, ['dashboard_view']],
    ] as const) {
      gateway.handleConnection(
        client as unknown as WebSocket,
        client.upgrade({ user: user([...permissions]), key: 'session', expiresAt: null }),
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

describe('messages that arrive together', () => {
  it('reach each socket in one write, in order, each socket only those it may read', () => {
    const gateway = gatewayWith();
    const operator = fakeSocket();
    const domainsOnly = fakeSocket();
    const writes: number[] = [];
    for (const [client, permissions] of [
      [operator, ['circuit_breaker_view', 'domain_management']],
      [domainsOnly, ['domain_management']],
    ] as const) {
      const upgrade = client.upgrade({ user: user([...permissions]), key: 'session', expiresAt: null }) as {
        socket: { write(b: Buffer): boolean };
      };
      const write = upgrade.socket.write.bind(upgrade.socket);
      upgrade.socket.write = (bytes) => (writes.push(bytes.length), write(bytes));
      gateway.handleConnection(client as unknown as WebSocket, upgrade as never);
    }
    gateway.deliver(
      { type: 'domainUpdated', data: { domainId: 7 } },
      { type: 'configUpdated', data: { configId: 1, config: null } },
      { type: 'domainsChecked', data: { domainIds: [7] } },
    );
    expect(operator.sent.map((text) => JSON.parse(text).type)).toEqual(['domainUpdated', 'configUpdated', 'domainsChecked']);
    expect(domainsOnly.sent.map((text) => JSON.parse(text).type)).toEqual(['domainUpdated', 'domainsChecked']);
    expect(writes).toHaveLength(2);
  });
});

describe('the figures every 2 s', () => {
  it('go to a tenth of the sockets at a time, so each socket hears them once per interval', () => {
    const stats = [{ configId: 1 }];
    const gateway = gatewayWith({ metrics: { everyBreaker: () => stats } });
    const sockets = Array.from({ length: 25 }, () => fakeSocket());
    for (const socket of sockets) {
      gateway.handleConnection(
        socket as unknown as WebSocket,
        socket.upgrade({ user: user(['circuit_breaker_view']), key: 's', expiresAt: null }),
      );
    }
    const reached: number[] = [];
    for (let tick = 0; tick < 10; tick++) {
      const before = sockets.reduce((sum, socket) => sum + socket.sent.length, 0);
      gateway.sendMetricsSlice();
      reached.push(sockets.reduce((sum, socket) => sum + socket.sent.length, 0) - before);
    }
    expect(reached).toEqual([3, 3, 3, 3, 3, 2, 2, 2, 2, 2]);
    expect(sockets.map((socket) => socket.sent)).toEqual(sockets.map(() => [JSON.stringify({ type: 'metricsUpdate', data: { stats } })]));
  });
});

describe('a change of an account', () => {
  it('goes to user managers and to that account, not to other readers', () => {
    const gateway = gatewayWith();
    const manager = fakeSocket(0);
    const superAdmin = fakeSocket(0);
    const subject = fakeSocket(0);
    const bystander = fakeSocket(0);
    for (const [client, who] of [
      [manager, user(['user_management'], 'm')],
      [superAdmin, user([], 's', 'super_admin')],
      [subject, user(['dashboard_view'], 'changed')],
      [bystander, user(['circuit_breaker_view'], 'b')],
    ] as const) {
      gateway.handleConnection(client as unknown as WebSocket, client.upgrade({ user: who, key: 'session', expiresAt: null }));
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
    const gateway = gatewayWith({ directory });
    const socket = fakeSocket(0);
    gateway.handleConnection(
      socket as unknown as WebSocket,
      socket.upgrade({ user: user(['circuit_breaker_view'], 'changed'), key: 'session', expiresAt: null }),
    );
    await gateway.refreshAccount('changed');
    expect(directory.evict).toHaveBeenCalledWith('changed');
    gateway.deliver({ type: 'pong' });
    expect([socket.sent, socket.closedWith]).toEqual([[], null]);
  });

  it('closes the sockets of a deactivated or deleted account, and only those', async () => {
    for (const answer of [{ ...user(['circuit_breaker_view'], 'changed'), isActive: false }, null]) {
      const gateway = gatewayWith({ directory: directoryAnswering(answer) });
      const subject = fakeSocket(0);
      const other = fakeSocket(0);
      gateway.handleConnection(
        subject as unknown as WebSocket,
        subject.upgrade({ user: user(['circuit_breaker_view'], 'changed'), key: 'session', expiresAt: null }),
      );
      gateway.handleConnection(
        other as unknown as WebSocket,
        other.upgrade({ user: user(['circuit_breaker_view'], 'other'), key: 'session', expiresAt: null }),
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
    const gateway = gatewayWith();
    const expiring = fakeSocket(0);
    const signedOut = fakeSocket(0);
    const staying = fakeSocket(0);
    const connect = (client: ReturnType<typeof fakeSocket>, key: string, expiresAt: number | null) =>
      gateway.handleConnection(client as unknown as WebSocket, client.upgrade({ user: user(['circuit_breaker_view']), key, expiresAt }));
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
    const gateway = gatewayWith({ directory, sessions, tokens: { live: async () => new Set() } });
    const stale = fakeSocket(0);
    const current = fakeSocket(0);
    for (const [client, sid] of [
      [stale, 'gone'],
      [current, 'here'],
    ] as const) {
      gateway.handleConnection(
        client as unknown as WebSocket,
        client.upgrade({ user: user(['circuit_breaker_view']), key: sid, sid, expiresAt: null }),
      );
    }
    await gateway.revalidate();
    expect([stale.closedWith, current.closedWith]).toEqual([4401, null]);
    expect(gateway.connectedClients).toBe(1);
  });
});

describe('sockets that share their permissions', () => {
  it('hear, per message kind, what their permissions allow, and a userChanged goes to its own account whatever they share', () => {
    const gateway = gatewayWith();
    const sockets = {
      viewer: fakeSocket(),
      otherViewer: fakeSocket(),
      subject: fakeSocket(),
      domains: fakeSocket(),
      drills: fakeSocket(),
      everything: fakeSocket(),
    };
    for (const [name, who] of [
      ['viewer', user(['circuit_breaker_view'], 'v1')],
      ['otherViewer', user(['circuit_breaker_view'], 'v2')],
      ['subject', user(['circuit_breaker_view'], 'changed')],
      ['domains', user(['domain_management'], 'd')],
      ['drills', user(['circuit_breaker_view', 'circuit_breaker_admin'], 'a')],
      ['everything', user([], 's', 'super_admin')],
    ] as const) {
      const socket = sockets[name];
      gateway.handleConnection(socket as unknown as WebSocket, socket.upgrade({ user: who, key: name, expiresAt: null }));
    }
    const messages = [
      { type: 'configUpdated', data: { configId: 1, config: null } },
      { type: 'domainsChecked', data: { domainIds: [7] } },
      { type: 'alertGroupChanged', data: { subjectKind: 'domain' } },
      { type: 'drillChanged', data: {} },
      { type: 'userChanged', data: { userId: 'changed' } },
    ] as never[];
    for (const batch of [messages, messages.slice(0, 4)]) gateway.deliver(...batch);
    const heard = Object.fromEntries(
      Object.entries(sockets).map(([name, socket]) => [name, socket.sent.map((text) => JSON.parse(text).type)]),
    );
    const breakers = ['configUpdated'];
    expect(heard).toEqual({
      viewer: [...breakers, ...breakers],
      otherViewer: [...breakers, ...breakers],
      subject: [...breakers, 'userChanged', ...breakers],
      domains: ['domainsChecked', 'domainsChecked'],
      drills: [...breakers, 'drillChanged', ...breakers, 'drillChanged'],
      everything: [...Array(2)].flatMap((_, i) => [
        'configUpdated',
        'domainsChecked',
        'alertGroupChanged',
        'drillChanged',
        ...(i === 0 ? ['userChanged'] : []),
      ]),
    });
  });
});

describe('the sockets a session holds', () => {
  it('are counted as they connect, and no more once closed, disconnected or dropped for being far behind', () => {
    const gateway = gatewayWith();
    const connect = (key: string, buffered = 0) => {
      const socket = fakeSocket(buffered);
      gateway.handleConnection(
        socket as unknown as WebSocket,
        socket.upgrade({ user: user(['circuit_breaker_view']), key, expiresAt: null }),
      );
      return socket;
    };
    const first = connect('a');
    const second = connect('a');
    connect('a', 16 << 20);
    connect('b');
    expect([gateway.connectionsOf('a'), gateway.connectionsOf('b'), gateway.connectionsOf('c')]).toEqual([3, 1, 0]);
    gateway.deliver({ type: 'pong' });
    expect(gateway.connectionsOf('a')).toBe(2);
    gateway.handleDisconnect(first as unknown as WebSocket);
    gateway.handleDisconnect(first as unknown as WebSocket);
    expect(gateway.connectionsOf('a')).toBe(1);
    gateway.endSession('a', 'Signed out');
    gateway.handleDisconnect(second as unknown as WebSocket);
    expect([gateway.connectionsOf('a'), gateway.connectionsOf('b')]).toEqual([0, 1]);
  });
});

describe('the figures after a live message', () => {
  afterEach(() => jest.useRealTimers());

  it('wait until 50 ms after it, then go; with no live message just sent they go at once', () => {
    jest.useFakeTimers();
    const stats = [{ configId: 1 }];
    const gateway = gatewayWith({ metrics: { everyBreaker: () => stats } });
    // one socket in each slice
    const sockets = Array.from({ length: 10 }, () => fakeSocket());
    for (const socket of sockets) {
      gateway.handleConnection(
        socket as unknown as WebSocket,
        socket.upgrade({ user: user(['circuit_breaker_view']), key: 's', expiresAt: null }),
      );
    }
    const figures = () => sockets.flatMap((socket) => socket.sent).filter((text) => text.startsWith('{"type":"metricsUpdate"')).length;
    gateway.metricsTick();
    expect(figures()).toBe(1);
    jest.advanceTimersByTime(1000);
    gateway.deliver({ type: 'pong' });
    jest.advanceTimersByTime(20);
    gateway.metricsTick();
    jest.advanceTimersByTime(29);
    expect(figures()).toBe(1);
    jest.advanceTimersByTime(1);
    expect(figures()).toBe(2);
    expect(sockets.map((socket) => socket.sent.length)).toEqual([2, 2, 1, 1, 1, 1, 1, 1, 1, 1]);
  });
});
