import type { Server } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Client, Pool } from 'pg';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { PeriodicWork } from '../common/periodic-work';

/**
 * How long a replica takes to stop at most: the requests, the periodic work and the last writes (the load tests
 * handed over, the replica marked down, the last counts flushed) get this long; what still runs then is cut. The
 * Kubernetes manifest's grace (30 s) covers the preStop wait (10 s), this, and STOP_AFTER_CUT_MS.
 */
export const SHUTDOWN_GRACE_MS = 10_000;
/** After the cut, the time the cut work has to end before stop() gives up waiting for it. */
export const STOP_AFTER_CUT_MS = 3_000;

export interface StopOutcome {
  /** How long the stop took. */
  ms: number;
  /** Database connections that were still busy at the grace's end, closed under their queries. */
  cutQueries: string[];
  /** Whether Nest's shutdown finished (false: STOP_AFTER_CUT_MS passed after the cut, and stop() gave up). */
  finished: boolean;
}

/** What a stop needs of the DataSource's pool: the connections checked out now, and a way to refuse new ones. */
export interface PoolHandle {
  busy(): Client[];
  /** Ends the pool: a query asked for after this fails at once instead of waiting behind what was cut. */
  end(): void;
}

/**
 * pg's Pool.end() waits for every checked-out connection to come back, so one query waiting on a lock or a slow
 * database would hold the shutdown for as long as it waits: these are the connections a stop closes when its grace
 * has run out.
 */
export function poolHandle(dataSource: DataSource): PoolHandle {
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  const busy = new Set<Client>();
  pool.on('acquire', (client) => busy.add(client as unknown as Client));
  pool.on('release', (_error, client) => busy.delete(client as unknown as Client));
  pool.on('remove', (client) => busy.delete(client as unknown as Client));
  return {
    busy: () => [...busy],
    end: () => void pool.end().catch(() => undefined),
  };
}

/** The SQL a connection is running, for the log: pg keeps it on the client without a public accessor. */
function runningQuery(client: Client): string {
  const text = (client as unknown as { _activeQuery?: { text?: string } })._activeQuery?.text;
  return text ? text.replace(/\s+/g, ' ').slice(0, 120) : '(between queries)';
}

/**
 * Stops the application within SHUTDOWN_GRACE_MS, whatever it is waiting for:
 * 1. every periodic task and the work it started stop first, together (PeriodicWork, STOP_WAIT_MS at most), so none
 *    starts a query the steps below would wait behind;
 * 2. Nest's shutdown runs: sockets told 'going away', load tests handed over, last flushes, the replica marked down,
 *    the HTTP server finishing the requests in flight (idle keep-alive connections are closed as they become idle);
 * 3. at the grace's end, the HTTP connections still open are closed, the pool takes no new query, and every database
 *    connection still checked out is closed — its query fails, the step waiting for it goes on, and the pool ends.
 *    What was cut is logged.
 */
export async function stopWithin(
  app: NestFastifyApplication,
  pool: PoolHandle,
  logger: Logger,
  graceMs = SHUTDOWN_GRACE_MS,
): Promise<StopOutcome> {
  const started = Date.now();
  const server = app.getHttpServer() as Server;
  const closeIdle = setInterval(() => server.closeIdleConnections(), 200);
  const cutQueries: string[] = [];
  let afterCut: NodeJS.Timeout | undefined;
  const closing = (async () => {
    await app.get(PeriodicWork).stopAll();
    await app.close();
  })();
  const gaveUp = new Promise<'gave up'>((resolve) => {
    const cut = setTimeout(() => {
      server.closeAllConnections();
      // the hooks still to run then fail their queries at once, rather than wait behind the same lock
      pool.end();
      for (const client of pool.busy()) {
        cutQueries.push(runningQuery(client));
        // with a query running, end() destroys the socket at once: the query fails and its caller goes on
        void client.end().catch(() => undefined);
      }
      if (cutQueries.length)
        logger.warn({ queries: cutQueries }, `shutdown: ${cutQueries.length} database queries still running after ${graceMs} ms were cut`);
      afterCut = setTimeout(() => resolve('gave up'), STOP_AFTER_CUT_MS);
    }, graceMs);
    // cleared when the stop ends in time; never what holds the process open
    cut.unref();
    const clear = () => clearTimeout(cut);
    closing.then(clear, clear);
  });
  const outcome = await Promise.race([closing.then(() => 'closed' as const), gaveUp]);
  clearInterval(closeIdle);
  clearTimeout(afterCut);
  if (outcome === 'gave up') logger.error(`shutdown: still not finished ${STOP_AFTER_CUT_MS} ms after the cut; giving up on it`);
  return { ms: Date.now() - started, cutQueries, finished: outcome === 'closed' };
}
