import { type BeforeApplicationShutdown, Logger, type OnModuleInit, type OnModuleDestroy } from '@nestjs/common';
import { type OnGatewayConnection, type OnGatewayDisconnect, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import type { WebSocket } from 'ws';
import { canManageUsers, hasPermission, METRICS_UPDATE_INTERVAL_MS, WS_PATH, type ServerMessage } from '@cbh/contracts';
import type { SessionUser } from '../auth/session-user';
import { UserDirectory } from '../auth/user-directory.service';
import { PgSessionStore } from '../auth/session-store';
import { MetricsService } from '../metrics/metrics.service';
import type { AuthenticatedUpgrade } from './session-ws-adapter';
import { RealtimeBus } from '../bus/realtime-bus.service';

/** A client this far behind misses messages; this much further, it is disconnected. */
const SKIP_ABOVE_BYTES = 1 << 20;
const DROP_ABOVE_BYTES = 8 << 20;

/**
 * Who hears a message: a change of an account goes to those who manage users and to that account itself (so
 * its own chrome follows); domains and their alerts to those who manage domains; everything else is about
 * breakers and services, readable with circuit_breaker_view.
 */
function mayReceive(user: SessionUser, message: ServerMessage): boolean {
  if (message.type === 'userChanged') return user.id === message.data.userId || canManageUsers(user);
  if (message.type === 'domainAlert' || message.type === 'domainUpdated' || message.type === 'domainsChecked') {
    return hasPermission(user, 'domain_management');
  }
  return hasPermission(user, 'circuit_breaker_view');
}

/** The longest a timer can wait in Node; a session expiring later is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Every socket's session and account are checked against the database this often, whatever messages said. */
const REVALIDATE_EVERY_MS = 60_000;

interface Client {
  user: SessionUser;
  /** The session's key (see sessionKey): its sockets close when it ends, on whichever replica it ended. */
  session: string;
  /** The session's id, never sent anywhere: to ask the table whether the session still lives. */
  sid: string;
  expiry?: NodeJS.Timeout;
}

@WebSocketGateway({ path: WS_PATH })
export class RealtimeGateway implements OnGatewayConnection, OnGatewayDisconnect, OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(RealtimeGateway.name);
  private readonly clients = new Map<WebSocket, Client>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly bus: RealtimeBus,
    private readonly metrics: MetricsService,
    private readonly directory: UserDirectory,
    private readonly sessions: PgSessionStore,
  ) {}

  private revalidateTimer?: NodeJS.Timeout;
  /** Set once the replica shuts down: new sockets go to another replica. */
  draining = false;

  onModuleInit() {
    this.bus.subscribe(({ message }) => {
      this.deliver(message);
      if (message.type === 'userChanged') void this.refreshAccount(message.data.userId);
    });
    this.bus.subscribeInternal('session-ended', ({ data }) => this.endSession(String(data), 'Signed out'));
    // Messages can be lost (the LISTEN connection down, a publish that failed) and a socket can connect while its
    // session ends: the table decides, after every reconnection and every minute.
    this.bus.onReconnect(() => void this.revalidate());
    this.revalidateTimer = setInterval(() => void this.revalidate(), REVALIDATE_EVERY_MS);
    this.revalidateTimer.unref();
    this.timer = setInterval(() => {
      if (this.clients.size > 0) this.deliver({ type: 'metricsUpdate', data: { stats: this.metrics.latest() } });
    }, METRICS_UPDATE_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy() {
    clearInterval(this.timer);
    clearInterval(this.revalidateTimer);
  }

  /** Closes the sockets whose session no longer lives in the table, and re-reads every account that holds one. */
  async revalidate() {
    if (this.clients.size === 0) return;
    try {
      const live = await this.sessions.live([...new Set([...this.clients.values()].map((entry) => entry.sid))]);
      for (const [client, entry] of this.clients) if (!live.has(entry.sid)) this.close(client, 'Signed out');
      for (const userId of new Set([...this.clients.values()].map((entry) => entry.user.id))) await this.refreshAccount(userId);
    } catch (error) {
      this.logger.warn(`sockets not revalidated: ${(error as Error).message}`);
    }
  }

  /** Shutting down in order: every socket closes as going away (1001), which clients answer by reconnecting at once. */
  beforeApplicationShutdown() {
    this.draining = true;
    for (const [client, entry] of this.clients) {
      clearTimeout(entry.expiry);
      client.close(1001, 'Server going away');
    }
    this.clients.clear();
  }

  handleConnection(client: WebSocket, request: AuthenticatedUpgrade) {
    const session = request.session;
    if (!session) return client.close(4401, 'Unauthorized');
    const entry: Client = { user: session.user, session: session.key, sid: session.sid };
    if (session.expiresAt !== null) this.closeAt(client, entry, session.expiresAt);
    this.clients.set(client, entry);
  }

  handleDisconnect(client: WebSocket) {
    clearTimeout(this.clients.get(client)?.expiry);
    this.clients.delete(client);
  }

  /** A session's cookie expires at a fixed time: its sockets close then, as its HTTP requests start to fail. */
  private closeAt(client: WebSocket, entry: Client, expiresAt: number) {
    const wait = expiresAt - Date.now();
    entry.expiry = setTimeout(
      () => (wait > MAX_TIMER_MS ? this.closeAt(client, entry, expiresAt) : this.close(client, 'Session expired')),
      Math.max(0, Math.min(wait, MAX_TIMER_MS)),
    );
    entry.expiry.unref();
  }

  /** The sockets of a session that ended (signed out, on any replica) close, as its HTTP session has. */
  endSession(key: string, reason: string) {
    for (const [client, entry] of this.clients) if (entry.session === key) this.close(client, reason);
  }

  private close(client: WebSocket, reason: string) {
    clearTimeout(this.clients.get(client)?.expiry);
    this.clients.delete(client);
    client.close(4401, reason);
  }

  @SubscribeMessage('ping')
  ping(): ServerMessage {
    return { type: 'pong' };
  }

  /** How many sockets a session holds here (its key, see sessionKey). */
  connectionsOf(sessionKey: string): number {
    let count = 0;
    for (const entry of this.clients.values()) if (entry.session === sessionKey) count++;
    return count;
  }

  get connectedClients(): number {
    return this.clients.size;
  }

  /**
   * An account changed (on any replica): its sockets here carry its new role and permissions from now on, and
   * a deactivated or deleted account's sockets close, as its HTTP session already has.
   */
  async refreshAccount(userId: string) {
    this.directory.evict(userId);
    const fresh = await this.directory.get(userId).catch(() => undefined);
    if (fresh === undefined) return; // database unreachable: keep what we have rather than guess
    for (const [client, entry] of this.clients) {
      if (entry.user.id !== userId) continue;
      if (fresh && fresh.isActive) entry.user = fresh;
      else this.close(client, 'Signed out');
    }
  }

  /** Sends a message to this process's clients allowed to read it, never queueing without bound. */
  deliver(message: ServerMessage) {
    // Encoded once for every client, not once per send.
    const frame = Buffer.from(JSON.stringify(message));
    for (const [client, { user }] of this.clients) {
      if (!mayReceive(user, message) || client.readyState !== client.OPEN) continue;
      if (client.bufferedAmount > DROP_ABOVE_BYTES) {
        this.logger.warn(`disconnecting ${user.email}: ${client.bufferedAmount} bytes unread`);
        clearTimeout(this.clients.get(client)?.expiry);
        this.clients.delete(client);
        client.terminate();
        continue;
      }
      if (client.bufferedAmount > SKIP_ABOVE_BYTES) continue;
      client.send(frame, { binary: false });
    }
  }
}
