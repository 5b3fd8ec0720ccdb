import { Logger, type OnModuleInit, type OnModuleDestroy } from '@nestjs/common';
import { type OnGatewayConnection, type OnGatewayDisconnect, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import type { WebSocket } from 'ws';
import { canManageUsers, hasPermission, WS_PATH, type ServerMessage } from '@cbh/contracts';
import type { SessionUser } from '../auth/session-user';
import { MetricsService } from '../metrics/metrics.service';
import type { AuthenticatedUpgrade } from './session-ws-adapter';
import { RealtimeBus } from '../bus/realtime-bus.service';

const METRICS_INTERVAL_MS = 2000;
/** A client this far behind misses messages; this much further, it is disconnected. */
const SKIP_ABOVE_BYTES = 1 << 20;
const DROP_ABOVE_BYTES = 8 << 20;

/**
 * Who hears a message: a change of an account goes to those who manage users and to that account itself (so
 * its own chrome follows); everything else is about breakers and services, readable with circuit_breaker_view.
 */
function mayReceive(user: SessionUser, message: ServerMessage): boolean {
  if (message.type === 'userChanged') return user.id === message.data.userId || canManageUsers(user);
  return hasPermission(user, 'circuit_breaker_view');
}

@WebSocketGateway({ path: WS_PATH })
export class RealtimeGateway implements OnGatewayConnection, OnGatewayDisconnect, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RealtimeGateway.name);
  private readonly clients = new Map<WebSocket, SessionUser>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly bus: RealtimeBus,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit() {
    this.bus.subscribe(({ message }) => this.deliver(message));
    this.timer = setInterval(() => {
      if (this.clients.size > 0) this.deliver({ type: 'metricsUpdate', data: { stats: this.metrics.latest() } });
    }, METRICS_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy() {
    clearInterval(this.timer);
  }

  handleConnection(client: WebSocket, request: AuthenticatedUpgrade) {
    if (!request.user) return client.close(4401, 'Unauthorized');
    this.clients.set(client, request.user);
  }

  handleDisconnect(client: WebSocket) {
    this.clients.delete(client);
  }

  @SubscribeMessage('ping')
  ping(): ServerMessage {
    return { type: 'pong' };
  }

  get connectedClients(): number {
    return this.clients.size;
  }

  /** Sends a message to this process's clients allowed to read it, never queueing without bound. */
  deliver(message: ServerMessage) {
    // Encoded once for every client, not once per send.
    const frame = Buffer.from(JSON.stringify(message));
    for (const [client, user] of this.clients) {
      if (!mayReceive(user, message) || client.readyState !== client.OPEN) continue;
      if (client.bufferedAmount > DROP_ABOVE_BYTES) {
        this.logger.warn(`disconnecting ${user.email}: ${client.bufferedAmount} bytes unread`);
        client.terminate();
        this.clients.delete(client);
        continue;
      }
      if (client.bufferedAmount > SKIP_ABOVE_BYTES) continue;
      client.send(frame, { binary: false });
    }
  }
}
