import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A loopback port nobody listens on right now. The test harnesses take one when no port is configured, so a
 * server left running on a fixed port (a developer's `npm start`, another checkout's tests) cannot make a run fail.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
