import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';

/** A request's URL as logged: the single-use tokens of invitation and elevation links left out. */
export function withoutTokens(url: string): string {
  return url.replace(/(\/api\/(?:invitations|auth\/elevate\/verify)\/)[^/?#]+/, '$1[token]');
}

/**
 * JSON lines on stdout, written asynchronously: a request does not wait for its access-log line to reach the pipe
 * (lines still go out in order, at once when the pipe keeps up, and are flushed when the process exits).
 */
export function createLogger(level: string): Logger {
  return pino(
    { level, base: { service: 'api' }, redact: ['req.headers.cookie', 'req.headers.authorization'] },
    pino.destination({ dest: 1, sync: false }),
  );
}

/** Structured access log: one line per request, with an id (x-request-id, or a new one) echoed in the response. */
export function requestLogger(logger: Logger) {
  return (req: IncomingMessage & { id?: string }, res: ServerResponse, next: () => void) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('x-request-id', id);
    const started = performance.now();
    res.once('finish', () => {
      const status = res.statusCode;
      const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          req: { id, method: req.method, url: withoutTokens(req.url ?? '') },
          res: { statusCode: status },
          responseTime: Math.round(performance.now() - started),
        },
        'request completed',
      );
    });
    next();
  };
}

/** Nest's own messages (start-up, routes) through the same pino logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
