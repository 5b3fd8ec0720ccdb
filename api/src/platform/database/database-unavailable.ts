/**
 * Whether an error means the database cannot be reached right now (stopped, restarting, connection lost),
 * as opposed to a query the database refused. Such a failure is the server's state, not the request's
 * fault: it answers 503 and the work is tried again once the database is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 4; depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
    if (typeof message === 'string' && LOST_CONNECTION.test(message)) return true;
    // TypeORM's QueryFailedError keeps the driver's error
    cause = (cause as { driverError?: unknown; cause?: unknown }).driverError ?? (cause as { cause?: unknown }).cause;
  }
  return false;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATE class 08 (connection exception) and 57P01–57P03 (shutting down, crashed, starting up). */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-3])$/;
/** node-postgres's own words when a connection ends or cannot be made in time. */
const LOST_CONNECTION =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|terminating connection/i;

export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable at the moment; nothing was changed. Try again in a few seconds.';

/**
 * How long after its last confirmation a cached session or account still lets its owner read while the database
 * is unreachable. Nothing can end a session or change an account meanwhile (those are database writes, refused
 * with a 503), and changes made before the outage already evicted their copies on every replica.
 */
export const STALE_WHILE_UNAVAILABLE_MS = 10 * 60_000;
