import type { IncomingMessage } from 'node:http';
import { HttpException, type INestApplicationContext } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { Logger } from 'pino';
import { AGENT_PROTOCOL_LIMITS, AGENT_STREAM_PATH, clientMessageSchema, serviceAccountNameOf } from '@cbh/contracts';
import type { LiveSession } from '../../identity';
import { RetryLater } from '../../platform';

export type AuthenticatedUpgrade = IncomingMessage & { session?: LiveSession };

/** Bounds on /ws: the largest frame a client may send, and how many sockets one session may hold on a replica. */
export interface WsLimits {
  maxFrameBytes: number;
  perSession: number;
  connectionsOf: (sessionKey: string) => number;
  /** False once the replica shuts down: an upgrade is refused (503) so the client lands on another replica. */
  accepting: () => boolean;
}

/** What the adapter asks of the agents' streams (AGENT_STREAM_PATH): how many a token holds here, and whether it takes more. */
export interface AgentStreamLimits {
  streamsOf: (tokenKey: string) => number;
  accepting: () => boolean;
}

type Verify = (
  info: { origin?: string; secure: boolean; req: AuthenticatedUpgrade },
  done: (ok: boolean, code?: number, message?: string, headers?: Record<string, string>) => void,
) => void;

/**
 * Whether an upgrade's Origin is the site's own: its public URL, a remote's origin, or the host it was sent to
 * with the scheme it came in on (a page served over plain http on that host is not the https site).
 * A browser always sends Origin with a WebSocket handshake, so a page on another site cannot open a socket with
 * a visitor's cookie (cross-site WebSocket hijacking); clients that are not browsers send none and are judged by
 * their cookie alone.
 */
export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  siteOrigins: readonly string[],
  secure = false,
): boolean {
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  const sameHost = host !== undefined && parsed.host === host.toLowerCase() && parsed.protocol === (secure ? 'https:' : 'http:');
  return siteOrigins.includes(parsed.origin) || sameHost;
}

/**
 * Plain WebSocket frames as JSON {type, data}, for signed-in sessions (or personal access tokens) only and from the
 * site's own pages: an upgrade without either is answered 401, one from another origin 403. A frame that is not JSON or not a known
 * message is logged and ignored; the connection stays.
 */
class SessionWsAdapter extends WsAdapter {
  constructor(
    app: INestApplicationContext,
    private readonly log: Logger,
    private readonly authenticate: (request: IncomingMessage) => Promise<LiveSession | null>,
    private readonly siteOrigins: readonly string[],
    private readonly limits: WsLimits,
    private readonly agentStreams: AgentStreamLimits,
  ) {
    super(app, {
      messageParser: (raw) => {
        let json: unknown;
        try {
          json = JSON.parse(String(raw));
        } catch {
          log.warn({ frame: String(raw).slice(0, 200) }, 'ignored a /ws frame that is not JSON');
          return undefined;
        }
        const message = clientMessageSchema.safeParse(json);
        if (!message.success) {
          log.warn({ issues: message.error.issues.map((i) => i.message) }, 'ignored an unknown /ws message');
          return undefined;
        }
        return { event: message.data.type, data: message.data.data };
      },
    });
  }

  create(port: number, options: Record<string, unknown> = {}) {
    if (options.path === AGENT_STREAM_PATH) {
      return super.create(port, { ...options, maxPayload: AGENT_PROTOCOL_LIMITS.reportBytes, verifyClient: this.verifyAgent });
    }
    return super.create(port, {
      ...options,
      // a client only ever sends small frames (ping); a larger one closes its connection (1009)
      maxPayload: this.limits.maxFrameBytes,
      verifyClient: (
        info: { origin?: string; secure: boolean; req: AuthenticatedUpgrade },
        done: (ok: boolean, code?: number, message?: string) => void,
      ) => {
        if (!this.limits.accepting()) return done(false, 503, 'Shutting down');
        if (!originAllowed(info.req.headers.origin, info.req.headers.host, this.siteOrigins, info.secure)) {
          this.log.warn({ origin: info.req.headers.origin }, 'refused a /ws upgrade from another origin');
          return done(false, 403, 'Forbidden');
        }
        this.authenticate(info.req).then(
          (session) => {
            if (!session) return done(false, 401, 'Unauthorized');
            if (this.limits.connectionsOf(session.key) >= this.limits.perSession) {
              return done(false, 429, `At most ${this.limits.perSession} live connections per session (WS_CONNECTIONS_PER_SESSION)`);
            }
            info.req.session = session;
            done(true);
          },
          (error: Error) => {
            // a refusal the authentication decided (a bad token, one in the URL, a token with a cookie, a token over its limit)
            if (error instanceof HttpException && error.getStatus() < 500) return done(false, error.getStatus(), error.message);
            this.log.error({ err: error }, '/ws authentication failed');
            done(false, 500, 'Internal Server Error');
          },
        );
      },
    });
  }

  /**
   * An agent's stream: a service account's token only (a cookie's session, or a person's token, is refused 403), from
   * any origin, since a page cannot set the header a token travels in.
   */
  private readonly verifyAgent: Verify = (info, done) => {
    // a refusal an agent may wait out says for how long (Retry-After), as the POST's would
    const later = (code: number, message: string, seconds: number) => done(false, code, message, { 'Retry-After': String(seconds) });
    if (!this.agentStreams.accepting()) return later(503, 'Shutting down', 1);
    this.authenticate(info.req).then(
      (session) => {
        if (!session) return done(false, 401, 'Unauthorized');
        if (!session.token || serviceAccountNameOf(session.user.email) === null) {
          return done(false, 403, "Only a service account's access token may report breakers");
        }
        if (this.agentStreams.streamsOf(session.key) >= AGENT_PROTOCOL_LIMITS.streamsPerToken) {
          return later(429, `At most ${AGENT_PROTOCOL_LIMITS.streamsPerToken} streams per token on one replica`, 60);
        }
        info.req.session = session;
        done(true);
      },
      (error: Error) => {
        if (error instanceof RetryLater) return later(error.getStatus(), error.message, error.retryAfterS);
        if (error instanceof HttpException && error.getStatus() < 500) return done(false, error.getStatus(), error.message);
        this.log.error({ err: error }, 'agent stream authentication failed');
        done(false, 500, 'Internal Server Error');
      },
    );
  };

  /** A gateway that subscribes to no message (the agents' streams) reads its frames itself: nothing is parsed twice. */
  bindMessageHandlers(
    client: unknown,
    handlers: Parameters<WsAdapter['bindMessageHandlers']>[1],
    transform: Parameters<WsAdapter['bindMessageHandlers']>[2],
  ) {
    if (handlers.length === 0) return;
    super.bindMessageHandlers(client, handlers, transform);
  }
}

export function sessionWsAdapter(
  app: INestApplicationContext,
  logger: Logger,
  authenticate: (request: IncomingMessage) => Promise<LiveSession | null>,
  siteOrigins: readonly string[],
  limits: WsLimits,
  agentStreams: AgentStreamLimits,
) {
  return new SessionWsAdapter(app, logger, authenticate, siteOrigins, limits, agentStreams);
}
