import { randomBytes, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Injectable, NotFoundException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * The mark this API process puts on the calls it makes to itself (a service test of the chaos target). It is made
 * at start and never leaves the process but on those loopback calls, so it tells the API's own calls from anyone
 * else's however they arrive: behind a gateway every request comes from a loopback or private address, so the
 * caller's address could not. Each replica has its own and calls only itself.
 */
const OWN_CALL_HEADER = 'x-cbh-own-call';
const mark = Buffer.from(randomBytes(32).toString('base64url'));

/** The header that marks a call as this process's own. Only for calls to this process itself. */
export function ownCallHeaders(): Record<string, string> {
  return { [OWN_CALL_HEADER]: mark.toString() };
}

/** Whether a request carries this process's mark (compared in constant time). */
export function isOwnCall(headers: Record<string, string | string[] | undefined>): boolean {
  const given = headers[OWN_CALL_HEADER];
  if (typeof given !== 'string') return false;
  const bytes = Buffer.from(given);
  return bytes.length === mark.length && timingSafeEqual(bytes, mark);
}

/**
 * Lets through only this process's own calls; anyone else is answered as for a route that does not exist, before
 * the route's parameters are read, so the answer tells an outsider nothing.
 */
@Injectable()
export class OwnCallsOnly implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!isOwnCall(request.headers)) throw new NotFoundException(`Cannot ${request.method} ${request.url}`);
    return true;
  }
}
