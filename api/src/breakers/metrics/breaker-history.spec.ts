import { randomUUID } from 'node:crypto';
import { apiForThisFile, DEMO_PASSWORD, signIn } from '../../../test/test-api';
import { historyPoints } from './breaker-history.service';

const spec = apiForThisFile();
const call = (path: string, cookie: string | null = spec.admin) => spec.api.call(path, { cookie });

/** The second the buckets of a test are counted back from: one for all, so that two of the same `ago` share a second. */
let base: Date;
beforeEach(async () => {
  base = ((await spec.api.sql("SELECT date_trunc('second', now()) AS base")) as { base: Date }[])[0]!.base;
});

/** One bucket of one replica, `ago` seconds before the test's base second. */
const bucket = (configId: number, ago: number, replica: string, success: number, failure = 0, shortCircuited = 0) =>
  spec.api.sql(
    `INSERT INTO metric_buckets (config_id, second, instance_id, success, failure, short_circuited)
     VALUES ($1, $7::timestamptz - make_interval(secs => $2), $3, $4, $5, $6)`,
    [configId, ago, replica, success, failure, shortCircuited, base],
  );

it('sums the stored buckets of every replica into at most 300 steps per range, saying where there were no calls', async () => {
  const [breaker] = await (await call('/api/circuit-breakers')).json();
  const [a, b] = [randomUUID(), randomUUID()];
  // 40 minutes ago: two replicas in the same second; 5 hours ago: one replica; 30 hours ago: out of every range
  await bucket(breaker.id, 40 * 60, a, 9, 3);
  await bucket(breaker.id, 40 * 60, b, 6, 0, 6);
  await bucket(breaker.id, 5 * 3600, a, 72);
  await bucket(breaker.id, 30 * 3600, a, 1000);

  const hour = await (await call(`/api/circuit-breakers/${breaker.id}/history`)).json();
  expect(hour).toMatchObject({ range: '1h', stepSeconds: 12 });
  expect(hour.points).toHaveLength(300);
  const busy = hour.points.filter((point: { calls: number }) => point.calls > 0);
  expect(busy).toHaveLength(1);
  // 24 calls in 12 s, of which 3 failed and 6 were short-circuited
  expect(busy[0]).toMatchObject({ calls: 24, callsPerSecond: 2, errorPercentage: 37.5 });
  expect(hour.points[0]).toMatchObject({ calls: 0, callsPerSecond: 0, errorPercentage: null });
  expect(Date.parse(hour.to) - Date.parse(hour.from)).toBe(3600_000);

  const day = await (await call(`/api/circuit-breakers/${breaker.id}/history?range=24h`)).json();
  expect(day.points).toHaveLength(300);
  expect(day.stepSeconds).toBe(288);
  expect(day.points.reduce((sum: number, point: { calls: number }) => sum + point.calls, 0)).toBe(24 + 72);

  const five = await (await call(`/api/circuit-breakers/${breaker.id}/history?range=5m`)).json();
  expect(five.points).toHaveLength(300);
  expect(five.points.every((point: { errorPercentage: number | null }) => point.errorPercentage === null)).toBe(true);
});

it('lists the journal moves of the range, oldest first, with the state the range began in', async () => {
  const [, breaker] = await (await call('/api/circuit-breakers')).json();
  await spec.api.sql(
    `INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, at) VALUES
       ($1, 'CLOSED', 'OPEN', 'long ago', now() - interval '2 hours'),
       ($1, 'OPEN', 'HALF_OPEN', 'trial', now() - interval '30 minutes'),
       ($1, 'HALF_OPEN', 'CLOSED', 'recovered', now() - interval '29 minutes')`,
    [breaker.id],
  );
  const hour = await (await call(`/api/circuit-breakers/${breaker.id}/history?range=1h`)).json();
  expect(hour.stateBefore).toBe('OPEN');
  expect(hour.transitions.map((move: { reason: string }) => move.reason)).toEqual(['trial', 'recovered']);
  expect(hour.transitionsCapped).toBe(false);
  const six = await (await call(`/api/circuit-breakers/${breaker.id}/history?range=6h`)).json();
  expect(six.stateBefore).toBeNull();
  expect(six.transitions).toHaveLength(3);
});

it('refuses a range it does not offer, an unknown breaker, and accounts without circuit_breaker_view', async () => {
  const bad = await call('/api/circuit-breakers/1/history?range=7d');
  expect(bad.status).toBe(400);
  expect((await bad.json()).message).toBe('range: must be one of 5m, 1h, 6h, 24h');
  expect((await call('/api/circuit-breakers/1/history?range=1h&limit=5')).status).toBe(400);
  expect((await call('/api/circuit-breakers/999999/history')).status).toBe(404);
  expect((await call('/api/circuit-breakers/abc/history')).status).toBe(400);
  expect((await call('/api/circuit-breakers/1/history', null)).status).toBe(401);

  const viewer = await signIn(spec.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
  expect((await call('/api/circuit-breakers/1/history', viewer)).status).toBe(200);
  const [{ id }] = await spec.api.sql("SELECT id FROM users WHERE email = 'viewer@example.com'");
  const changed = await spec.api.call(`/api/users/${id}/permissions`, {
    method: 'PATCH',
    cookie: spec.admin,
    body: { permissions: ['dashboard_view'] },
  });
  expect(changed.status).toBe(200);
  const without = await signIn(spec.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
  expect((await call('/api/circuit-breakers/1/history', without)).status).toBe(403);
});

it('fills every step, and gives no error percentage to a step without calls', () => {
  const from = new Date('2026-01-01T00:00:00Z');
  const points = historyPoints([{ step: 1, calls: 10, errors: 0 }], from, 10, 3);
  expect(points).toEqual([
    { at: '2026-01-01T00:00:00.000Z', calls: 0, callsPerSecond: 0, errorPercentage: null },
    { at: '2026-01-01T00:00:10.000Z', calls: 10, callsPerSecond: 1, errorPercentage: 0 },
    { at: '2026-01-01T00:00:20.000Z', calls: 0, callsPerSecond: 0, errorPercentage: null },
  ]);
});
