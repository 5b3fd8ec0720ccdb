import { Header } from '@nestjs/common';

/**
 * An answer already serialised: a handler that returns a Buffer under `@JsonBody()` has Fastify send those bytes as
 * they are, with their length known. The busiest reads (GET /api/auth/user, /api/metrics/latest) keep such a body
 * while what it shows is unchanged, so that a read costs neither JSON.stringify nor counting the string's UTF-8 bytes
 * (a tenth of such a read's CPU).
 */
export const JsonBody = () => Header('Content-Type', 'application/json; charset=utf-8');

export const toJsonBody = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

/** A body no older than this is served again within a turn of the event loop (see PerTurn). */
const TURN_FUSE_MS = 5;

/**
 * A value built at most once per turn of the event loop, then built afresh. Every request answered from it in that
 * turn had arrived before the turn's I/O was polled, so each still sees a state from within its own lifetime (a
 * client that saw a change answered, and asked again, is polled in a later turn). Under load a turn answers dozens
 * of requests; idle, each request builds its own. The fuse covers a value built in the loop's check phase, whose
 * clearing would otherwise wait past the next poll.
 */
export class PerTurn<T> {
  private value: T | undefined;
  private builtAt = 0;

  constructor(
    private readonly build: () => T,
    private readonly fuseMs = TURN_FUSE_MS,
  ) {}

  get(): T {
    const now = performance.now();
    if (this.value === undefined || now - this.builtAt > this.fuseMs) {
      this.value = this.build();
      this.builtAt = now;
      setImmediate(() => (this.value = undefined));
    }
    return this.value;
  }
}
