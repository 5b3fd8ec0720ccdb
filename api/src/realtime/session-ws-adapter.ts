import type { IncomingMessage } from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { Logger } from 'pino';
import { clientMessageSchema } from '@cbh/contracts';
import type { SessionUser } from '../auth/session-user';

export type AuthenticatedUpgrade = IncomingMessage & { user?: SessionUser };

/**
 * Plain WebSocket frames as JSON {type, data}, for signed-in sessions only: an upgrade without one is
 * answered 401. A frame that is not JSON or not a known message is logged and ignored; the connection stays.
 */
class SessionWsAdapter extends WsAdapter {
  constructor(
    app: INestApplicationContext,
    private readonly log: Logger,
    private readonly authenticate: (request: IncomingMessage) => Promise<SessionUser | null>,
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
    return super.create(port, {
      ...options,
      verifyClient: (info: { req: AuthenticatedUpgrade }, done: (ok: boolean, code?: number, message?: string) => void) => {
        this.authenticate(info.req).then(
          (user) => {
            if (!user) return done(false, 401, 'Unauthorized');
            info.req.user = user;
            done(true);
          },
          (error: Error) => {
            this.log.error({ err: error }, '/ws authentication failed');
            done(false, 500, 'Internal Server Error');
          },
        );
      },
    });
  }
}

export function sessionWsAdapter(
  app: INestApplicationContext,
  logger: Logger,
  authenticate: (request: IncomingMessage) => Promise<SessionUser | null>,
) {
  return new SessionWsAdapter(app, logger, authenticate);
}
