import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { ApiErrorBody } from '@cbh/contracts';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../database/database-unavailable';

const REASONS: Record<number, string> = Object.fromEntries(
  Object.entries(HttpStatus)
    .filter(([, code]) => typeof code === 'number')
    .map(([name, code]) => [
      code,
      name
        .toLowerCase()
        .split('_')
        .map((w) => w[0]!.toUpperCase() + w.slice(1))
        .join(' '),
    ]),
);

export function errorBody(statusCode: number, message: string): ApiErrorBody {
  return { statusCode, error: REASONS[statusCode] ?? 'Error', message };
}

/**
 * A refusal to wait out (429 by default) that says for how long: the API's answer carries it as Retry-After, and a
 * WebSocket upgrade or an agent's stream refused with it say the same.
 */
export class RetryLater extends HttpException {
  constructor(
    message: string,
    readonly retryAfterS: number,
    status: number = HttpStatus.TOO_MANY_REQUESTS,
  ) {
    super(message, status);
  }
}

/** An HttpException's message as the API sends it: a validation's several messages joined. */
export function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}

/** Every error leaves the API as JSON {statusCode, error, message}; a 5xx never leaks internals. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    /** The body size limit, named in the 413 a larger body gets. */
    private readonly maxBodyKb = 100,
  ) {}

  catch(exception: unknown, host: ArgumentsHost) {
    if (host.getType() !== 'http') return;
    const http = host.switchToHttp();
    const response = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const status413 = (exception as { statusCode?: number }).statusCode === 413;
    if (status413 || (exception instanceof HttpException && exception.getStatus() === 413)) {
      // a route may take more than MAX_BODY_KB (a configuration document up to 1 MB): the refusal names its own limit
      const routeLimitKb = (request.routeOptions?.bodyLimit ?? this.maxBodyKb * 1024) / 1024;
      const limit = routeLimitKb === this.maxBodyKb ? `${this.maxBodyKb} KB (MAX_BODY_KB)` : `${routeLimitKb} KB`;
      response.status(413).send(errorBody(413, `The request body is larger than ${limit}`));
      return;
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status >= 500) this.logger.error({ err: exception, url: request.url }, 'request failed');
      if (exception instanceof RetryLater) response.header('Retry-After', String(exception.retryAfterS));
      response.status(status).send(errorBody(status, messageOf(exception)));
      return;
    }
    const status = (exception as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      // the body parsers' errors (malformed JSON, an unsupported type), raised before the handler, carry their own 4xx
      response.status(status).send(errorBody(status, (exception as Error).message));
      return;
    }
    if (isDatabaseUnavailable(exception)) {
      // a database restart is an outage to wait out, not a bug: a clear 503 at once, logged as a warning
      this.logger.warn({ url: request.url, reason: (exception as Error).message }, 'database unavailable');
      response.header('Retry-After', '5');
      response.status(503).send(errorBody(503, DATABASE_UNAVAILABLE_MESSAGE));
      return;
    }
    this.logger.error({ err: exception, url: request.url }, 'unhandled error');
    response.status(500).send(errorBody(500, 'Internal server error'));
  }
}
