import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';

/** The paths whose last segment is a secret (see withoutTokens): one list for the quick test and the replacement. */
const TOKEN_PATHS = ['/api/invitations/', '/api/auth/elevate/verify/', '/api/public/on-call/'];
const TOKEN_PATH_SEGMENT = new RegExp(`(${TOKEN_PATHS.join('|')})[^/?#]+`);

/**
 * A request's URL as logged: the single-use tokens of invitation and elevation links and the secret address of a
 * calendar feed left out, any token a client put in the query (refused, but its request is still logged), and every
 * `code` (an acknowledge link's, a status subscription's, a sign-in's): whoever reads the log must not act with them.
 */
export function withoutTokens(url: string): string {
  // most URLs carry neither a query nor a path token: the regular expressions below need not run for them
  if (!url.includes('?') && !TOKEN_PATHS.some((path) => url.includes(path))) return url;
  return url.replace(TOKEN_PATH_SEGMENT, '$1[token]').replace(/([?&](?:access_token|token|code)=)[^&#]*/gi, '$1[token]');
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

/** A request's id: the caller's x-request-id when it is a plain token (tracing across hops), else a new one. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
}

/** Structured access log: one line per request, with its id (see requestId) echoed in the response. */
export function logRequests(http: FastifyInstance, logger: Logger) {
  // an access line holds only the fields below, none a secret: the root's redaction of request headers would only
  // clone each line's object to look for them
  const access = logger.child({}, { redact: [] });
  http.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  http.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    if (access.isLevelEnabled(level)) {
      // a request made with a personal access token names the token (its id, never the secret)
      const token = (request as { apiToken?: { id: string } }).apiToken;
      access[level](
        {
          req: { id: request.id, method: request.method, url: withoutTokens(request.url), ...(token ? { token: token.id } : {}) },
          res: { statusCode: status },
          responseTime: Math.round(reply.elapsedTime),
        },
        'request completed',
      );
    }
    done();
  });
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
