import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../test/test-api';
import { simpleBreaker } from '../../../test/breaker-bodies';

/** A downstream that answers at once, then sends its body one byte every 200 ms forever: never idle, never done. */
let server: http.Server;
let port: number;
/** Resolves when the API lets go of its connection to the downstream. */
let released: Promise<void>;
let api: TestApi;
let admin: string;

beforeAll(async () => {
  let release!: () => void;
  released = new Promise((resolve) => (release = resolve));
  server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    const timer = setInterval(() => response.write('.'), 200);
    response.on('close', () => {
      clearInterval(timer);
      release();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  api = await startTestApi({ ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' });
  admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await api.stop();
});

it("fails a service's test as a timeout at the 10 s deadline when the body never ends, counted as a timeout by its breaker", async () => {
  const call = (path: string, body?: unknown) => api.call(path, { method: 'POST', cookie: admin, body });
  const breaker = await (await call('/api/circuit-breakers', simpleBreaker('Drip', { successThreshold: 1 }))).json();
  const service = await (
    await call('/api/services', {
      name: 'Drip',
      endpoint: `http://127.0.0.1:${port}/`,
      failureRate: 0,
      averageResponseTime: 10,
      circuitBreakerConfigId: breaker.id,
    })
  ).json();

  const result = await (await call(`/api/services/${service.id}/test`)).json();
  expect(result).toMatchObject({ success: false, statusCode: null, error: 'No complete answer within 10000 ms' });
  expect(result.responseTime).toBeLessThan(20_000);
  // the call was abandoned, not left reading
  await released;
  const { stats } = await (await api.call('/api/metrics/latest', { cookie: admin })).json();
  expect(stats.find((figures: { configId: number }) => figures.configId === breaker.id)).toMatchObject({
    timeoutCount: 1,
    failureCount: 0,
    successCount: 0,
  });
}, 40_000);
