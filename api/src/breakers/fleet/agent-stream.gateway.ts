import { type BeforeApplicationShutdown, HttpException, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { type OnGatewayConnection, type OnGatewayDisconnect, WebSocketGateway } from '@nestjs/websockets';
import type { RawData, WebSocket } from 'ws';
import { AGENT_PROTOCOL_LIMITS, AGENT_STREAM_CLOSE, AGENT_STREAM_PATH, WS_SIGNED_OUT_CLOSE, type AgentStreamAnswer } from '@cbh/contracts';
import { TokenAuthenticator, UserDirectory } from '../../identity';
import {
  DATABASE_UNAVAILABLE_MESSAGE,
  HubMetrics,
  isDatabaseUnavailable,
  messageOf,
  PeriodicWork,
  RealtimeBus,
  RetryLater,
} from '../../platform';
import { type Credentialed, CredentialedSockets } from '../realtime/credentialed-sockets';
import type { AuthenticatedUpgrade } from '../realtime/session-ws-adapter';
import { AgentIngest, type SettingsSent } from './agent-ingest.service';

/**
 * Reports received are read together every this often rather than each as it comes: a fleet's reports arrive steadily,
 * a few a millisecond apart, and read together the code that takes them runs warm, once a read. In single runs of
 * bench:fleet at 200 instances a report read at once cost 0.73 ms of the replica's CPU and one read 50–200 ms apart
 * 0.43–0.50; the machine's spread between runs is as wide, so the gain is not measured apart. The answer waits that
 * much longer; the writes wait for TAKE_WINDOW_MS anyway.
 */
const READ_EVERY_MS = 100;
/** Bytes of reports received and not answered yet at most, all streams together; one past it is answered 503. */
const HELD_BYTES = 64 << 20;
/** Every stream is pinged this often; one that did not answer the last ping (a connection half open) is ended. */
const PING_EVERY_MS = 30_000;

/** One agent's open stream, opened with a service account's token. */
interface Stream extends Credentialed {
  /** The settings its last report taken carried (see AGENT_STREAM_PATH). */
  sent: SettingsSent;
  /** Reports received and not answered yet. */
  waiting: number;
  /** Whether it answered the last ping. */
  alive: boolean;
  /** The last report's handling: reports are taken one after the other, in the order they came. */
  last: Promise<void>;
}

/** A frame's bytes, as ws hands it: one buffer, or its fragments. */
const sizeOf = (data: RawData) => (Array.isArray(data) ? data.reduce((sum, part) => sum + part.length, 0) : data.byteLength);

/** The answer a refused report gets on the stream: what its POST would have got, as status, message and Retry-After. */
function refusal(error: unknown, logger: Logger): AgentStreamAnswer {
  if (error instanceof RetryLater) return { status: 429, message: messageOf(error), retryAfterS: error.retryAfterS };
  if (error instanceof HttpException && [400, 403, 429, 503].includes(error.getStatus())) {
    return { status: error.getStatus() as 400 | 403 | 429 | 503, message: messageOf(error) };
  }
  if (isDatabaseUnavailable(error)) return { status: 503, message: DATABASE_UNAVAILABLE_MESSAGE, retryAfterS: 5 };
  logger.error(`agent report failed: ${(error as Error)?.stack ?? String(error)}`);
  return { status: 500, message: 'Internal server error' };
}

/**
 * An agent's stream (AGENT_STREAM_PATH): one socket per instance, opened with a service account's token (the upgrade
 * is judged by the adapter), on which each frame is a report taken as a POST's would be, answered in order. A stream
 * costs the replica a report's own work without a request's: no HTTP parsing, routing, guards or token lookup per
 * report, and a breaker's settings only when they change. Its token is kept as the /ws sockets' credentials are
 * (CredentialedSockets): a revoked token, an account deactivated or a token expired closes it.
 */
@WebSocketGateway({ path: AGENT_STREAM_PATH })
export class AgentStreamGateway
  implements OnGatewayConnection, OnGatewayDisconnect, OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown
{
  private readonly logger = new Logger(AgentStreamGateway.name);
  private readonly book: CredentialedSockets<Stream>;
  /** Reports received since the last read (see READ_EVERY_MS); data null for one past HELD_BYTES, answered 503. */
  private readonly queued: { socket: WebSocket; stream: Stream; data: RawData | null; isBinary: boolean; bytes: number }[] = [];
  /** Bytes of the reports received and not answered yet, all streams together. */
  private heldBytes = 0;
  private pinging?: NodeJS.Timeout;
  /** Set once the replica shuts down: new streams go to another replica. */
  draining = false;

  constructor(
    private readonly ingest: AgentIngest,
    private readonly hubMetrics: HubMetrics,
    work: PeriodicWork,
    bus: RealtimeBus,
    tokens: TokenAuthenticator,
    directory: UserDirectory,
  ) {
    this.book = new CredentialedSockets<Stream>(
      { work, bus, tokens, directory },
      { noun: 'agent streams', deactivated: 'Account deactivated' },
    );
  }

  private get streams(): ReadonlyMap<WebSocket, Stream> {
    return this.book.entries;
  }

  onModuleInit() {
    this.book.start();
    this.pinging = setInterval(() => this.ping(), PING_EVERY_MS);
    this.pinging.unref();
  }

  onModuleDestroy() {
    clearInterval(this.pinging);
    this.book.stop();
  }

  /** Ends the streams that did not answer the last ping, and pings the others: a dead peer holds no slot for long. */
  private ping() {
    for (const [socket, stream] of this.streams) {
      if (!stream.alive) {
        this.book.forget(socket);
        socket.terminate();
        continue;
      }
      stream.alive = false;
      socket.ping();
    }
  }

  /** Shutting down: every stream closes as going away; its agent reconnects (to another replica) and resends what was not answered. */
  beforeApplicationShutdown() {
    this.draining = true;
    // reports not read yet are not taken (flush finds their streams gone): their agents send them again, elsewhere
    clearInterval(this.pinging);
    this.book.closeAll(AGENT_STREAM_CLOSE.goingAway, 'Server going away');
  }

  /** Streams a token holds on this replica (AGENT_PROTOCOL_LIMITS.streamsPerToken). */
  streamsOf(key: string): number {
    return this.book.countOf(key);
  }

  handleConnection(socket: WebSocket, request: AuthenticatedUpgrade) {
    const session = request.session;
    if (!session?.token) return socket.close(WS_SIGNED_OUT_CLOSE, 'Unauthorized');
    const stream: Stream = {
      user: session.user,
      key: session.key,
      token: session.token,
      sent: new Map(),
      waiting: 0,
      alive: true,
      last: Promise.resolve(),
    };
    this.book.add(socket, stream, session.expiresAt);
    socket.on('message', (data, isBinary) => this.receive(socket, stream, data, isBinary));
    socket.on('pong', () => (stream.alive = true));
  }

  handleDisconnect(socket: WebSocket) {
    this.book.forget(socket);
  }

  private receive(socket: WebSocket, stream: Stream, data: RawData, isBinary: boolean) {
    // a stream closed (revoked, too many waiting, shutting down) takes nothing more, though frames may still come
    if (!this.streams.has(socket)) return;
    if (stream.waiting >= AGENT_PROTOCOL_LIMITS.reportsInFlight) {
      this.book.close(
        socket,
        `More than ${AGENT_PROTOCOL_LIMITS.reportsInFlight} reports waiting for their answers`,
        AGENT_STREAM_CLOSE.tooMany,
      );
      return;
    }
    stream.waiting++;
    const bytes = sizeOf(data);
    // past the bound, the report is answered 503 in its turn (after the stream's reports before it), read or not
    const full = this.heldBytes + bytes > HELD_BYTES;
    if (!full) this.heldBytes += bytes;
    this.queued.push({ socket, stream, data: full ? null : data, isBinary, bytes: full ? 0 : bytes });
    if (this.queued.length === 1) setTimeout(() => this.flush(), READ_EVERY_MS).unref();
  }

  /** Reads the reports received since the last read, each stream's in the order they came. */
  private flush() {
    for (const { socket, stream, data, isBinary, bytes } of this.queued.splice(0)) {
      this.answer(socket, stream, bytes, async () => {
        if (!this.streams.has(socket)) return null;
        if (data === null) {
          this.hubMetrics.agentReports.inc({ outcome: 'refused' });
          return { status: 503, message: 'This replica has too many reports waiting to be answered', retryAfterS: 1 };
        }
        return this.take(stream, data, isBinary);
      });
    }
  }

  /**
   * Sends a report's answer once the stream's reports before it are answered (an agent matches answers by their
   * order); its bytes are held until then. Null: the stream closed meanwhile, and nothing is sent.
   */
  private answer(socket: WebSocket, stream: Stream, bytes: number, answer: () => Promise<AgentStreamAnswer | null>) {
    stream.last = stream.last
      .then(answer)
      .then((answered) => {
        if (answered && socket.readyState === socket.OPEN) socket.send(JSON.stringify(answered));
      })
      .catch((error: unknown) => this.logger.error(`agent report not answered: ${(error as Error)?.stack ?? String(error)}`))
      .finally(() => {
        stream.waiting--;
        this.heldBytes -= bytes;
      });
  }

  private async take(stream: Stream, data: RawData, isBinary: boolean): Promise<AgentStreamAnswer> {
    let body: unknown;
    try {
      if (isBinary) throw new Error('a binary frame');
      body = JSON.parse(String(data));
    } catch {
      this.hubMetrics.agentReports.inc({ outcome: 'refused' });
      return { status: 400, message: 'A report is a text frame of JSON (AgentReport)' };
    }
    try {
      const reply = await this.ingest.ingest(stream.user, body, stream.sent);
      this.hubMetrics.agentReports.inc({ outcome: 'accepted' });
      return { status: 200, reply };
    } catch (error) {
      this.hubMetrics.agentReports.inc({ outcome: 'refused' });
      return refusal(error, this.logger);
    }
  }
}
