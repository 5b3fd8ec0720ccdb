import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { REJECTION_MESSAGES } from '@cbh/breaker';
import { DEMO_PASSWORD, eventually, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../test/test-api';
import { ownCallHeaders } from './own-call';

let api: TestApi;
let admin: string;
let operator: string;

beforeAll(async () => {
  api = await startTestApi();
  admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  operator = await signIn(api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
});
afterAll(async () => {
  await api.stop();
});

const call = (path: string, options: { method?: string; body?: unknown; cookie?: string | null } = {}) =>
  api.call(path, { cookie: admin, ...options });
const testService = async (id: number) => (await call(`/api/services/${id}/test`, { method: 'POST', cookie: operator })).json();
/** A service calling `endpoint`, made and tested at once: what its test answered. */
const probe = async (endpoint: string) => {
  const body = { name: `Probe ${endpoint}`, endpoint, failureRate: 0, averageResponseTime: 10 };
  return testService((await (await call('/api/services', { method: 'POST', body })).json()).id);
};

it('seeds four services answered by the chaos target, the first three behind the demo breakers', async () => {
  const services = await (await call('/api/services')).json();
  expect(services).toHaveLength(4);
  expect(services.map((s: { endpoint: string; id: number }) => s.endpoint)).toEqual(
    services.map((s: { id: number }) => `/api/chaos/${s.id}`),
  );
  expect(services.map((s: { circuitBreakerConfigId: number | null }) => s.circuitBreakerConfigId !== null)).toEqual([
    true,
    true,
    true,
    false,
  ]);
});

it('makes one real call through the breaker and reports it', async () => {
  const [first] = await (await call('/api/services')).json();
  const patched = await (
    await call(`/api/services/${first.id}`, { method: 'PATCH', body: { failureRate: 0, averageResponseTime: 40 } })
  ).json();
  expect(patched.circuitBreakerConfigId).toBe(first.circuitBreakerConfigId);
  const result = await testService(first.id);
  expect(result).toMatchObject({ serviceId: first.id, success: true, statusCode: 200, circuitBreakerState: 'CLOSED', error: null });
  expect(result.responseTime).toBeGreaterThanOrEqual(25);
});

it('opens the breaker after failureThreshold failed calls, then answers fast without calling', async () => {
  const [first] = await (await call('/api/services')).json();
  await call(`/api/services/${first.id}`, { method: 'PATCH', body: { failureRate: 100, averageResponseTime: 1 } });
  const results = [];
  for (let i = 0; i < 6; i++) results.push(await testService(first.id));
  expect(results.slice(0, 5).map((r) => [r.success, r.statusCode])).toEqual(Array(5).fill([false, 503]));
  expect(results[4].circuitBreakerState).toBe('OPEN');
  expect(results[5]).toMatchObject({
    success: false,
    responseTime: 0,
    statusCode: null,
    error: REJECTION_MESSAGES['short-circuited'],
    circuitBreakerState: 'OPEN',
  });
  // the move is journalled beside the answer, not before it: the journal has it as soon as its insert commits
  let journal = { transitions: [] as unknown[] };
  await eventually(async () => {
    journal = await (await call(`/api/circuit-breakers/${first.circuitBreakerConfigId}/transitions`)).json();
    return journal.transitions.length > 0;
  }, 5000);
  expect(journal.transitions[0]).toMatchObject({ from: 'CLOSED', to: 'OPEN', reason: '5 consecutive failures' });
});

/** Services made so far: each gets a name of its own (names are unique). */
let made = 0;

/** A new service without a breaker on the built-in chaos target, under its own id. */
async function chaosService(averageResponseTime: number): Promise<{ id: number }> {
  const body = { name: `Chaos ${++made}`, endpoint: '/api/chaos/0', failureRate: 0, averageResponseTime };
  const service = await (await call('/api/services', { method: 'POST', body })).json();
  await call(`/api/services/${service.id}`, { method: 'PATCH', body: { endpoint: `/api/chaos/${service.id}` } });
  return service;
}

it('answers the chaos target only to the API itself: anyone else, on loopback too, gets the 404 of a route that does not exist', async () => {
  const service = await chaosService(1);
  const path = `/api/chaos/${service.id}`;
  const unknownRoute = await fetch(`${api.baseUrl}/api/no-such-route`);
  expect({ status: unknownRoute.status, body: await unknownRoute.json() }).toEqual({
    status: 404,
    body: { statusCode: 404, error: 'Not Found', message: 'Cannot GET /api/no-such-route' },
  });
  const outsiders: Record<string, string>[] = [{}, { 'x-cbh-own-call': 'a guess' }, { 'x-forwarded-for': '127.0.0.1' }, { cookie: admin }];
  for (const headers of outsiders) {
    const outside = await fetch(`${api.baseUrl}${path}`, { headers });
    expect({ headers, status: outside.status, body: await outside.json() }).toEqual({
      headers,
      status: 404,
      body: { statusCode: 404, error: 'Not Found', message: `Cannot GET ${path}` },
    });
  }
  // the API's own service test still reaches it
  expect(await testService(service.id)).toMatchObject({ serviceId: service.id, success: true, statusCode: 200, error: null });
});

it("answers the API itself within a test call's 10 s deadline, whatever average response time a service names", async () => {
  const service = await chaosService(60_000);
  // 60 s ±25 % would hold the request 45–75 s; the answer comes when a test call would stop waiting
  const answer = await fetch(`${api.baseUrl}/api/chaos/${service.id}`, { headers: ownCallHeaders() });
  expect({ status: answer.status, body: await answer.json() }).toEqual({ status: 200, body: { ok: true, delayMs: 10_000 } });
}, 30_000);

it('refuses to call link-local, metadata and private addresses', async () => {
  for (const [endpoint, reason] of [
    ['http://169.254.169.254/latest/meta-data/', 'Refused to call 169.254.169.254: a link-local or metadata address'],
    ['http://127.0.0.1:9/', 'Refused to call 127.0.0.1: a loopback or private address'],
    ['http://localhost:9/', 'Refused to call localhost (127.0.0.1): a loopback or private address'],
  ] as const) {
    const result = await probe(endpoint);
    expect(result).toMatchObject({ success: false, error: reason });
  }
});

it('refuses every IPv6 form that embeds a loopback or metadata IPv4 address, and the server behind it hears nothing', async () => {
  let heard = 0;
  const server = http.createServer((_req, res) => {
    heard++;
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    for (const [host, reason] of [
      ['[::ffff:7f00:1]', 'a loopback or private address'],
      ['[::ffff:127.0.0.1]', 'a loopback or private address'],
      ['[0:0:0:0:0:ffff:7f00:0001]', 'a loopback or private address'],
      ['[::ffff:0:7f00:1]', 'a loopback or private address'],
      ['[64:ff9b::7f00:1]', 'a loopback or private address'],
      ['[2002:7f00:1::1]', 'a loopback or private address'],
      ['[::127.0.0.1]', 'an unspecified, multicast or reserved address'],
      ['[::ffff:169.254.169.254]', 'a link-local or metadata address'],
      ['[::ffff:a9fe:a9fe]', 'a link-local or metadata address'],
      ['[64:ff9b::a9fe:a9fe]', 'a link-local or metadata address'],
    ]) {
      const endpoint = `http://${host}:${port}/`;
      const result = await probe(endpoint);
      expect({ endpoint, success: result.success, error: result.error }).toEqual({
        endpoint,
        success: false,
        error: expect.stringMatching(new RegExp(`^Refused to call .+: ${reason}$`)),
      });
    }
    expect(heard).toBe(0);
  } finally {
    server.close();
  }
});

it('validates services and names the field', async () => {
  const bad = await call('/api/services', {
    method: 'POST',
    body: { name: 'x', endpoint: 'ftp://files', failureRate: 101, averageResponseTime: 10 },
  });
  expect(bad.status).toBe(400);
  expect((await bad.json()).message).toBe('endpoint: must be an http(s) URL or /api/chaos/<id>; failureRate: must be at most 100');
  const unknownBreaker = await call('/api/services', {
    method: 'POST',
    body: { name: 'x', endpoint: 'https://example.com', failureRate: 1, averageResponseTime: 10, circuitBreakerConfigId: 9999 },
  });
  expect(unknownBreaker.status).toBe(404);
  expect((await call('/api/services/9999/test', { method: 'POST', cookie: operator })).status).toBe(404);
});

it('lets only operators test, and only admins change services', async () => {
  const viewer = await signIn(api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
  expect((await call('/api/services/1/test', { method: 'POST', cookie: viewer })).status).toBe(403);
  expect((await call('/api/services/1', { method: 'PATCH', cookie: operator, body: { failureRate: 1 } })).status).toBe(403);
});

it('names services uniquely whatever the letter case: creating or renaming to a taken name is a 409 naming it', async () => {
  const body = { name: 'Ledger', endpoint: 'https://ledger.example.test', failureRate: 0, averageResponseTime: 10 };
  const ledger = await call('/api/services', { method: 'POST', body });
  expect(ledger.status).toBe(201);
  const clash = await call('/api/services', { method: 'POST', body: { ...body, name: 'LEDGER' } });
  expect({ status: clash.status, message: (await clash.json()).message }).toEqual({
    status: 409,
    message: 'A service named LEDGER already exists',
  });
  const other = await (await call('/api/services', { method: 'POST', body: { ...body, name: 'Journal' } })).json();
  const renamed = await call(`/api/services/${other.id}`, { method: 'PATCH', body: { name: 'ledger' } });
  expect({ status: renamed.status, message: (await renamed.json()).message }).toEqual({
    status: 409,
    message: 'A service named ledger already exists',
  });
  expect((await (await call(`/api/services`)).json()).filter((s: { name: string }) => /ledger/i.test(s.name))).toHaveLength(1);
});
