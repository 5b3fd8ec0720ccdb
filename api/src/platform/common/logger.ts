import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestStep } from './http';
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

/** Echoes the request's id (see requestId) in its response: a step of the API's one onRequest hook (inOneHook). */
export const echoRequestId: RequestStep = (request, reply, next) => {
  reply.header('x-request-id', request.id);
  next();
};

/**
 * The access log: one line per request answered, as pino writes its lines (the same keys in the same order, the
 * logger's level and bindings), built here from the few fields it holds, none a secret. The lines of a turn of the
 * event loop reach the logger's destination in one write after it (a write holds whole lines, one or more). pino's per-line work (its child's bindings, the
 * serialisation of each object, a write per line) was the largest share of a fast read's own cost.
 */
export function accessLog(logger: Logger): (request: FastifyRequest, reply: FastifyReply) => void {
  const destination = (logger as unknown as Record<symbol, Destination>)[pino.symbols.streamSym]!;
  const bindings = JSON.stringify(logger.bindings()).slice(1, -1);
  const afterTime = bindings ? `,${bindings},"req":{"id":` : ',"req":{"id":';
  let pending = '';
  const flush = () => {
    const lines = pending;
    pending = '';
    waitingLines.delete(flush);
    try {
      destination.write(lines);
    } catch {
      // a destination already ended (the process is stopping): the lines have nowhere to go
    }
  };
  return (request, reply) => {
    const status = reply.statusCode;
    const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    // the id (requestId: word characters and dashes) and the method (a token Node's parser accepted) need no escaping;
    // a request made with a personal access token names the token (its id, never the secret)
    const token = (request as { apiToken?: { id: string } }).apiToken;
    if (!pending) {
      setImmediate(flush);
      waitingLines.set(flush, destination);
    }
    pending +=
      `{"level":${logger.levels.values[level]},"time":${Date.now()}${afterTime}"${request.id}",` +
      `"method":"${request.method}","url":${JSON.stringify(withoutTokens(request.url))}` +
      `${token ? `,"token":${JSON.stringify(token.id)}` : ''}},"res":{"statusCode":${status}},` +
      `"responseTime":${Math.round(reply.elapsedTime)},"msg":"request completed"}\n`;
  };
}

/** pino's destination: sonic-boom on stdout in the API, any stream in the specs. */
interface Destination {
  write(chunk: string): unknown;
  flushSync?(): void;
}

/**
 * The access logs whose lines wait for the end of the turn: should the process exit first (process.exit when a stop
 * gives up, an uncaught error), they are written then, and the destination flushed.
 */
const waitingLines = new Map<() => void, Destination>();
export function writeWaitingLines() {
  for (const [flush, destination] of waitingLines) {
    flush();
    try {
      destination.flushSync?.();
    } catch {
      // nothing more can be done while exiting
    }
  }
}
process.on('exit', writeWaitingLines);

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
