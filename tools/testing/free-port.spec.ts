import { createServer, type Server } from 'node:net';
import { freePort, rangeOf } from './free-port.mjs';

const listenOn = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
const close = (server: Server) => new Promise((resolve) => server.close(resolve));

it("hands out ports below the kernel's own range, each worker from a range of its own", () => {
  const ranges = [
    rangeOf({}, 32_768),
    ...[0, 1, 2, 8].map((index) => rangeOf({ TEST_PARALLEL_INDEX: String(index) }, 32_768)),
    ...[1, 2, 3, 10].map((id) => rangeOf({ JEST_WORKER_ID: String(id) }, 32_768)),
  ].map((range) => range!);
  for (const range of ranges) expect(range.first + range.size).toBeLessThanOrEqual(32_768);
  const sorted = [...ranges].sort((a, b) => a.first - b.first);
  // disjoint: each ends before the next begins
  sorted.slice(1).forEach((range, index) => expect(range.first).toBeGreaterThanOrEqual(sorted[index]!.first + sorted[index]!.size));
  // a kernel that keeps almost nothing below its range: the harness asks the kernel instead
  expect(rangeOf({}, 10_500)).toBeNull();
});

it('gives a port nobody listens on, a new one each time, and passes over one taken since', async () => {
  const first = await freePort();
  const { first: from, size } = rangeOf(process.env)!;
  expect(first).toBeGreaterThanOrEqual(from);
  expect(first).toBeLessThan(from + size);
  const server = await listenOn(first); // free as promised
  // the next in turn is taken by someone else: it is passed over
  const taken = await listenOn(first + 1 < from + size ? first + 1 : from).catch(() => null);
  try {
    const second = await freePort();
    expect(second).not.toBe(first);
    if (taken) expect(second).not.toBe((taken.address() as { port: number }).port);
    await close(await listenOn(second));
  } finally {
    await close(server);
    if (taken) await close(taken);
  }
});
