import { randomUUID } from 'node:crypto';
import { DEMO_PASSWORD, signIn, startTestApi, type TestApi } from '../../../test/test-api';

let api: TestApi;
let operator: string;

beforeAll(async () => {
  api = await startTestApi();
  operator = await signIn(api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
});
afterAll(async () => {
  await api.stop();
});

const call = (path: string, options: { method?: string; body?: unknown } = {}) => api.call(path, { cookie: operator, ...options });
const statsOf = async (configId: number) =>
  (await (await call('/api/metrics/latest')).json()).stats.find((s: { configId: number }) => s.configId === configId);
const until = async (check: () => Promise<boolean>, timeoutMs = 8000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

it('runs a load test at 100 % failures through the breaker until it opens, then short-circuits', async () => {
  const started = await call('/api/test-sessions', {
    method: 'POST',
    body: { configId: 1, failureRate: 100, requestRate: 50, duration: 1 },
  });
  expect(started.status).toBe(201);
  const session = await started.json();
  expect(session).toMatchObject({ configId: 1, failureRate: 100, requestRate: 50, duration: 1, status: 'running' });
  expect(Date.parse(session.endsAt) - Date.parse(session.startedAt)).toBe(60_000);

  await until(async () => (await statsOf(1)).state === 'OPEN');
  await until(async () => (await statsOf(1)).shortCircuitedCount > 0);
  const stats = await statsOf(1);
  expect(stats.failureCount).toBe(5);
  expect(stats.errorPercentage).toBe(100);

  const second = await call('/api/test-sessions', { method: 'POST', body: { configId: 1, failureRate: 0, requestRate: 1, duration: 1 } });
  expect(second.status).toBe(409);
  expect((await second.json()).message).toBe('A load test is already running for circuit breaker 1');

  const stopped = await (await call(`/api/test-sessions/${session.id}/stop`, { method: 'POST' })).json();
  expect(stopped).toMatchObject({ id: session.id, status: 'stopped', stoppedAt: expect.any(String) });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const after = await statsOf(1);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect((await statsOf(1)).shortCircuitedCount).toBe(after.shortCircuitedCount);
});

it('ends a session by itself at its end time', async () => {
  const session = await (
    await call('/api/test-sessions', { method: 'POST', body: { configId: 2, failureRate: 0, requestRate: 10, duration: 1 } })
  ).json();
  await api.sql("UPDATE test_sessions SET ends_at = now() + interval '1 second' WHERE id = $1", [session.id]);
  // The engine read its end time at start; a restarted owner reads it again, so hand the session over.
  await api.sql("UPDATE test_sessions SET owner_instance = $2, heartbeat_at = now() - interval '1 minute' WHERE id = $1", [
    session.id,
    randomUUID(),
  ]);
  await until(
    async () => (await api.sql('SELECT status FROM test_sessions WHERE id = $1', [session.id]))[0].status === 'completed',
    12_000,
  );
});

it('picks up a running session whose replica died', async () => {
  const session = await (
    await call('/api/test-sessions', { method: 'POST', body: { configId: 3, failureRate: 0, requestRate: 20, duration: 5 } })
  ).json();
  await api.sql("UPDATE test_sessions SET owner_instance = $2, heartbeat_at = now() - interval '1 minute' WHERE id = $1", [
    session.id,
    randomUUID(),
  ]);
  const instance = (await (await fetch(`${api.baseUrl}/api/health`)).json()).instance;
  await until(
    async () => (await api.sql('SELECT owner_instance FROM test_sessions WHERE id = $1', [session.id]))[0].owner_instance === instance,
    12_000,
  );
  await until(async () => (await statsOf(3)).successCount > 0);
  await call(`/api/test-sessions/${session.id}/stop`, { method: 'POST' });
});

it('validates the controls and names the field', async () => {
  for (const [body, message] of [
    [{ configId: 1, failureRate: 101, requestRate: 20, duration: 5 }, 'failureRate: must be at most 100'],
    [{ configId: 1, failureRate: 15, requestRate: 0, duration: 5 }, 'requestRate: must be at least 1'],
    [{ configId: 1, failureRate: 15, requestRate: 20, duration: 61 }, 'duration: must be at most 60'],
    [{ failureRate: 15, requestRate: 20, duration: 5 }, 'configId: is required'],
  ] as const) {
    const response = await call('/api/test-sessions', { method: 'POST', body });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(message);
  }
  expect(
    (await call('/api/test-sessions', { method: 'POST', body: { configId: 999, failureRate: 1, requestRate: 1, duration: 1 } })).status,
  ).toBe(404);
  expect((await call('/api/test-sessions/999/stop', { method: 'POST' })).status).toBe(404);
});
