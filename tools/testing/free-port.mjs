import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

// Plain JavaScript with its types beside it (free-port.d.mts): the test harnesses (TypeScript) and the benchmarks
// (bench/*.mjs) take their ports from this one module.

/** The lowest port the harnesses hand out: above the well-known ports of the machine's own services. */
const FIRST_PORT = 10_000;
/** Ranges: one for processes outside a test worker, nine for Playwright's workers, ten for Jest's. */
const SLOTS = 20;

/** The first port of the range the kernel picks from for listen(0) and outgoing connections (Linux's default 32768). */
function kernelsFirstPort() {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

/**
 * This process's range of ports: a Playwright worker's (TEST_PARALLEL_INDEX) and a Jest worker's (JEST_WORKER_ID) each
 * its own, so that two workers never hand out the same port; null when the kernel's range leaves too little below it.
 */
export function rangeOf(env, kernelsFirst = kernelsFirstPort()) {
  const size = Math.floor((kernelsFirst - FIRST_PORT) / SLOTS);
  if (size < 50) return null;
  const playwright = env['TEST_PARALLEL_INDEX'];
  const jest = env['JEST_WORKER_ID'];
  const slot = playwright !== undefined ? 1 + (Number(playwright) % 9) : jest !== undefined ? 10 + ((Number(jest) - 1) % 10) : 0;
  return { first: FIRST_PORT + slot * size, size };
}

/** The port bound when listening on `port` (0: the kernel picks), or null if it is taken. */
function listens(port) {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address();
      server.close(() => resolve(bound));
    });
  });
}

/** @type {{ first: number; size: number } | null | undefined} */
let range;
let next = -1;

/**
 * A loopback port nobody listens on right now, for a server the caller starts a moment later (often in a child
 * process, an embedded PostgreSQL after its initdb: seconds later). The test harnesses take one when no port is
 * configured, so a server left running on a fixed port (a developer's `npm start`, another checkout's tests) cannot
 * make a run fail.
 *
 * It is taken below the kernel's range for ports it picks itself: a port from that range (listen(0)) could be given to
 * an outgoing connection of another worker before the server binds it, which failed a run with "Address already in
 * use". Each worker hands out ports from a range of its own, in turn, from a random start.
 */
export async function freePort() {
  range ??= rangeOf(process.env);
  if (!range) {
    const port = await listens(0);
    if (port === null) throw new Error('no loopback port to listen on');
    return port;
  }
  if (next < 0) next = Math.floor(Math.random() * range.size);
  for (let tried = 0; tried < range.size; tried++) {
    const port = range.first + (next++ % range.size);
    if ((await listens(port)) !== null) return port;
  }
  throw new Error(`no free loopback port in ${range.first}–${range.first + range.size - 1}`);
}
