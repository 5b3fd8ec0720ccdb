import { randomUUID } from 'node:crypto';
import { apiForThisFile, DEMO_PASSWORD, signIn, TEST_ADMIN } from '../../../test/test-api';

const spec = apiForThisFile();

const call = (path: string, method = 'GET', body?: unknown) => spec.api.call(path, { method, body, cookie: spec.admin });

it('counts breakers, the last 24 h of requests against the 24 h before, and uptime from the availability record', async () => {
  for (let i = 0; i < 4; i++) await call('/api/services/3/test', 'POST');
  await call('/api/circuit-breakers', 'POST', {
    name: 'New',
    type: 'simple',
    failureThreshold: 3,
    timeout: 10_000,
    recoveryTime: 20_000,
    successThreshold: 1,
  });
  await call('/api/domains', 'POST', { domain: 'shop.example.test' });
  // The day before: 2 requests; and a replica that ran for a day, ten days ago, then nothing until now.
  await spec.api.sql(
    "INSERT INTO metric_buckets (config_id, second, instance_id, success) VALUES (3, now() - interval '30 hours', $1, 2)",
    [randomUUID()],
  );
  await spec.api.sql(
    "INSERT INTO api_instances (id, hostname, pid, started_at, last_seen_at) VALUES ($1, 'old', 1, now() - interval '10 days', now() - interval '9 days')",
    [randomUUID()],
  );

  let stats: Record<string, unknown> = {};
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    stats = await (await call('/api/dashboard/stats')).json();
    if (stats.totalRequests === 4) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  expect(stats).toMatchObject({
    activeCircuitBreakers: 4,
    circuitBreakerChange: 1,
    totalRequests: 4,
    requestsChange: 100,
    managedDomains: 1,
    domainsChange: 1,
  });
  expect(Number.parseFloat(stats.systemUptime as string)).toBeCloseTo(10, 0);
  expect(stats.systemUptime).toMatch(/^\d+\.\d%$/);
});

it('lists recent activity from the audit trail, newest first, naming people by name or role and never by e-mail', async () => {
  const operator = await signIn(spec.api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
  expect((await spec.api.call('/api/circuit-breakers/1/force-open', { method: 'POST', cookie: operator })).status).toBe(200);
  await spec.api.sql("UPDATE users SET last_name = 'Lovelace' WHERE email = 'operator@example.com'");
  // an account without a name is named by its role
  await spec.api.sql('UPDATE users SET first_name = NULL, last_name = NULL WHERE email = $1', [TEST_ADMIN.email]);
  const viewer = await signIn(spec.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);

  const response = await spec.api.call('/api/dashboard/activity', { cookie: viewer });
  const text = await response.text();
  const activity = JSON.parse(text);
  // the operator's entry, then the breaker the bootstrap super admin created in the test before
  expect(activity.slice(0, 2)).toEqual([
    { action: 'Omar Lovelace forced a circuit breaker open', timestamp: expect.any(String) },
    { action: 'A super administrator created a circuit breaker', timestamp: expect.any(String) },
  ]);
  expect(activity.length).toBeLessThanOrEqual(10);
  expect(text).not.toContain('@');
});
