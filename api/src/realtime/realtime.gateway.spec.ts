import type { WebSocket } from 'ws';
import type { MetricsService } from '../metrics/metrics.service';
import type { RealtimeBus } from '../bus/realtime-bus.service';
import { RealtimeGateway } from './realtime.gateway';

function fakeClient(bufferedAmount: number) {
  return {
    OPEN: 1,
    readyState: 1,
    bufferedAmount,
    sent: [] as string[],
    terminated: false,
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
    const gateway = new RealtimeGateway({} as RealtimeBus, {} as MetricsService);
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
      gateway.handleConnection(client as unknown as WebSocket, { user: user([...permissions]) } as never);
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
    const gateway = new RealtimeGateway({} as RealtimeBus, {} as MetricsService);
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
      gateway.handleConnection(client as unknown as WebSocket, { user: who } as never);
    }
    gateway.deliver({ type: 'userChanged', data: { userId: 'changed' } });
    const frame = '{"type":"userChanged","data":{"userId":"changed"}}';
    expect([manager.sent, superAdmin.sent, subject.sent, bystander.sent]).toEqual([[frame], [frame], [frame], []]);
  });
});
