import { type BeforeApplicationShutdown, Logger, type OnModuleInit, type OnModuleDestroy } from '@nestjs/common';
import { type OnGatewayConnection, type OnGatewayDisconnect, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import {
  canManageUsers,
  hasPermission,
  METRICS_UPDATE_INTERVAL_MS,
  WS_PATH,
  WS_SIGNED_OUT_CLOSE,
  type ServerMessage,
} from '@cbh/contracts';
import { PgSessionStore, type SessionUser, TokenAuthenticator, tokenUser, UserDirectory } from '../../identity';
import { HubMetrics, PeriodicWork, RealtimeBus } from '../../platform';
import { MetricsService } from '../metrics/metrics.service';
import { type Credentialed, CredentialedSockets } from './credentialed-sockets';
import type { AuthenticatedUpgrade } from './session-ws-adapter';
import { textFrame } from './text-frame';

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
  // a domain's alert groups are read as its alerts are
  if (message.type === 'alertGroupChanged' && message.data.subjectKind === 'domain') {
    return hasPermission(user, 'domain_management') && hasPermission(user, 'circuit_breaker_view');
  }
  // drills are run and read by circuit_breaker_admin
  if (message.type === 'drillChanged') return hasPermission(user, 'circuit_breaker_admin');
  return hasPermission(user, 'circuit_breaker_view');
}

/**
 * The permissions mayReceive reads, as bits: two sockets with the same bits hear the same messages, but for a
 * userChanged (which also goes to the account itself). A broadcast decides once per audience, not once per socket.
 */
function audienceOf(user: SessionUser): number {
  return (
    (hasPermission(user, 'circuit_breaker_view') ? 1 : 0) |
    (hasPermission(user, 'domain_management') ? 2 : 0) |
    (hasPermission(user, 'circuit_breaker_admin') ? 4 : 0) |
    (canManageUsers(user) ? 8 : 0)
  );
}

/** The frames of the messages a user may read, in one buffer (the frame itself when there is one), or null for none. */
function framesFor(user: SessionUser, messages: readonly ServerMessage[], frames: readonly Buffer[]): Buffer | null {
  const readable = frames.filter((_, index) => mayReceive(user, messages[index]!));
  if (readable.length === 0) return null;
  return readable.length === 1 ? readable[0]! : Buffer.concat(readable);
}

/**
 * The metricsUpdate every socket gets every METRICS_UPDATE_INTERVAL_MS goes to one of this many slices of the sockets
 * at a time, evenly spread over the interval: at thousands of sockets one broadcast holds the replica for tens of
 * milliseconds, which a live message arriving meanwhile (and every HTTP request) would wait for.
 */
const METRICS_SLICES = 10;

/**
 * A slice falling due this soon after a live broadcast waits until then: clients are still reading the live message
 * (a stateChange to thousands of sockets), and figures written to them meanwhile would only delay its last readers.
 * Shorter than a tick (METRICS_UPDATE_INTERVAL_MS / METRICS_SLICES), so each slice still goes once per tick.
 */
const LIVE_FIRST_MS = 50;

interface Client extends Credentialed {
  /** The socket itself: a broadcast walks the entries alone. */
  socket: WebSocket;
  /** audienceOf(user), kept with it (see setUser). */
  audience: number;
  /** The connection under the socket: live messages are written to it as ready frames (see deliver). */
  connection: Duplex;
  /** Which slice of the sockets it is in for metricsUpdate (see METRICS_SLICES). */
  slice: number;
}

@WebSocketGateway({ path: WS_PATH })
export class RealtimeGateway implements OnGatewayConnection, OnGatewayDisconnect, OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(RealtimeGateway.name);
  /**
   * The sockets, with how many each session key holds here: every upgrade asks (connectionsOf), and walking every
   * socket for it made filling a replica cost O(sockets²).
   */
  private readonly book: CredentialedSockets<Client>;
  private timer?: NodeJS.Timeout;
  private ticks = 0;
  /** When the last live broadcast was written (performance.now()): see LIVE_FIRST_MS. */
  private liveAt = -Infinity;
  private connections = 0;

  constructor(
    work: PeriodicWork,
    private readonly bus: RealtimeBus,
    private readonly metrics: MetricsService,
    directory: UserDirectory,
    sessions: PgSessionStore,
    tokens: TokenAuthenticator,
    private readonly hubMetrics: HubMetrics,
  ) {
    // a token's socket hears what the token may read: its permissions that the owner still holds
    this.book = new CredentialedSockets<Client>(
      { work, bus, sessions, tokens, directory },
      {
        noun: 'sockets',
        deactivated: 'Signed out',
        accountChanged: (entry, fresh) => setUser(entry, entry.token ? tokenUser(fresh, entry.token.permissions) : fresh),
      },
    );
  }

  /** Set once the replica shuts down: new sockets go to another replica. */
  draining = false;

  private get clients(): ReadonlyMap<WebSocket, Client> {
    return this.book.entries;
  }

  onModuleInit() {
    this.hubMetrics.countWsConnections(() => this.clients.size);
    this.bus.subscribeBatches((envelopes) => this.deliver(...envelopes.map((envelope) => envelope.message)));
    this.book.start();
    this.timer = setInterval(() => this.metricsTick(), METRICS_UPDATE_INTERVAL_MS / METRICS_SLICES);
    this.timer.unref();
  }

  onModuleDestroy() {
    clearInterval(this.timer);
    this.book.stop();
  }

  /** Closes the sockets whose session or token no longer lives in the table, and re-reads every account that holds one. */
  revalidate() {
    return this.book.revalidate();
  }

  /** Shutting down in order: every socket closes as going away (1001), which clients answer by reconnecting at once. */
  beforeApplicationShutdown() {
    this.draining = true;
    this.book.closeAll(1001, 'Server going away');
  }

  handleConnection(client: WebSocket, request: AuthenticatedUpgrade) {
    const session = request.session;
    if (!session) return client.close(WS_SIGNED_OUT_CLOSE, 'Unauthorized');
    this.book.add(
      client,
      {
        socket: client,
        user: session.user,
        audience: audienceOf(session.user),
        key: session.key,
        sid: session.sid,
        token: session.token,
        connection: request.socket,
        slice: this.connections++ % METRICS_SLICES,
      },
      session.expiresAt,
    );
  }

  handleDisconnect(client: WebSocket) {
    this.book.forget(client);
  }

  /** The sockets of a session that ended (signed out, on any replica) close, as its HTTP session has. */
  endSession(key: string, reason: string) {
    this.book.closeKey(key, reason);
  }

  @SubscribeMessage('ping')
  ping(): ServerMessage {
    return { type: 'pong' };
  }

  /** How many sockets a session holds here (its key, see sessionKey). */
  connectionsOf(sessionKey: string): number {
    return this.book.countOf(sessionKey);
  }

  get connectedClients(): number {
    return this.clients.size;
  }

  /**
   * An account changed (on any replica): its sockets here carry its new role and permissions from now on, and
   * a deactivated or deleted account's sockets close, as its HTTP session already has.
   */
  refreshAccount(userId: string) {
    return this.book.refreshAccount(userId);
  }

  /**
   * Sends messages to this process's clients allowed to read them, never queueing without bound. Each message is
   * encoded and framed once, and each socket gets the frames it may read in one write: with thousands of sockets
   * the write (a system call each) is what a broadcast costs. The frames go to the connection under the socket,
   * which ws writes to in the same order without queueing of its own, as no extension (compression) is negotiated.
   */
  deliver(...messages: ServerMessage[]) {
    this.write(messages, () => true);
    this.liveAt = performance.now();
  }

  /** The next slice of figures now, or once LIVE_FIRST_MS have passed since a live broadcast. */
  metricsTick() {
    const wait = this.liveAt + LIVE_FIRST_MS - performance.now();
    if (wait <= 0) return this.sendMetricsSlice();
    setTimeout(() => this.sendMetricsSlice(), wait).unref();
  }

  /** The figures of now to the sockets of the next slice: each socket hears them every METRICS_UPDATE_INTERVAL_MS. */
  sendMetricsSlice() {
    const slice = this.ticks++ % METRICS_SLICES;
    const inSlice = (entry: Client) => entry.slice === slice;
    // the figures are summed only when a socket of the slice is here
    for (const entry of this.clients.values()) {
      if (inSlice(entry)) return this.write([{ type: 'metricsUpdate', data: { stats: this.metrics.everyBreaker() } }], inSlice);
    }
  }

  private write(messages: ServerMessage[], to: (entry: Client) => boolean) {
    if (this.clients.size === 0 || messages.length === 0) return;
    const frames = messages.map((message) => textFrame(Buffer.from(JSON.stringify(message))));
    // only a userChanged makes who the user is matter; otherwise sockets of one audience share their bytes
    const personal = messages.some((message) => message.type === 'userChanged');
    const joined = new Map<number | string, Buffer | null>();
    for (const entry of this.clients.values()) {
      const client = entry.socket;
      if (client.readyState !== client.OPEN || !to(entry)) continue;
      const key = personal ? `${entry.audience} ${entry.user.id}` : entry.audience;
      let bytes = joined.get(key);
      if (bytes === undefined) {
        bytes = framesFor(entry.user, messages, frames);
        joined.set(key, bytes);
      }
      if (bytes === null) continue;
      const buffered = client.bufferedAmount;
      if (buffered > DROP_ABOVE_BYTES) {
        this.logger.warn(`disconnecting ${entry.user.email}: ${buffered} bytes unread`);
        this.book.forget(client);
        client.terminate();
        continue;
      }
      if (buffered > SKIP_ABOVE_BYTES) continue;
      entry.connection.write(bytes);
    }
  }
}

/** A socket's account changed: what it hears follows. */
function setUser(entry: Client, user: SessionUser) {
  entry.user = user;
  entry.audience = audienceOf(user);
}
