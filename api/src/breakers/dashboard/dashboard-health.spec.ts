import { randomUUID } from 'node:crypto';
import { DASHBOARD_HEALTH_LIMITS, DASHBOARD_OPENINGS_HOURS, type DashboardHealth } from '@cbh/contracts';
import { apiForThisFile, DEMO_PASSWORD, eventually, signIn } from '../../../test/test-api';

const spec = apiForThisFile();

const call = (path: string, method = 'GET', body?: unknown) => spec.api.call(path, { method, body, cookie: spec.admin });
const health = async (): Promise<DashboardHealth> => {
  const response = await call('/api/dashboard/health');
  expect(response.status).toBe(200);
  return response.json();
};
/** The overview once `check` holds of it: a manual move answers before its journal row is written. */
async function healthWhen(check: (health: DashboardHealth) => boolean): Promise<DashboardHealth> {
  let last = await health();
  await eventually(async () => check((last = await health())), 5000);
  return last;
}

async function newBreaker(name: string): Promise<number> {
  const response = await call('/api/circuit-breakers', 'POST', {
    name,
    type: 'simple',
    failureThreshold: 3,
    timeout: 10_000,
    recoveryTime: 20_000,
    successThreshold: 1,
  });
  return (await response.json()).id;
}

/** A journal row written behind the API's back, as a replica (or a service instance) would. */
const journal = (configId: number, from: string, to: string, at: string) =>
  spec.api.sql(
    `INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, instance_id, at) VALUES ($1, $2, $3, 'failures', $4, ${at})`,
    [configId, from, to, randomUUID()],
  );

it('asks circuit_breaker_view: a signed-out visitor gets 401, an account with dashboard_view alone 403, a viewer 200', async () => {
  expect((await spec.api.call('/api/dashboard/health')).status).toBe(401);
  const viewer = await signIn(spec.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
  expect((await spec.api.call('/api/dashboard/health', { cookie: viewer })).status).toBe(200);
  const [{ id }] = await spec.api.sql("SELECT id FROM users WHERE email = 'operator@example.com'");
  expect((await call(`/api/users/${id}/permissions`, 'PATCH', { permissions: ['dashboard_view'] })).status).toBe(200);
  const dashboardOnly = await signIn(spec.api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
  expect((await spec.api.call('/api/dashboard/health', { cookie: dashboardOnly })).status).toBe(403);
});

it('lists a breaker forced open with its name and moment; after a reset it leaves, and both moves are listed newest first', async () => {
  const id = await newBreaker('Payments');
  expect((await call(`/api/circuit-breakers/${id}/force-open`, 'POST')).status).toBe(200);
  let now = await healthWhen((answer) => answer.transitions[0]?.configId === id);
  expect(now.open).toBe(1);
  expect(now.unhealthy).toEqual([
    { id, name: 'Payments', service: null, state: 'OPEN', override: 'forced-open', since: expect.any(String) },
  ]);
  expect(now.transitions[0]).toMatchObject({ configId: id, name: 'Payments', from: 'CLOSED', to: 'OPEN', places: 1 });
  expect(now.openings).toHaveLength(DASHBOARD_OPENINGS_HOURS);
  expect(now.openings.at(-1)!.count).toBe(1);
  expect(Date.parse(now.openings.at(-1)!.hour)).toBeLessThanOrEqual(Date.now());
  expect(Date.parse(now.openings.at(-1)!.hour) - Date.parse(now.openings[0]!.hour)).toBe(23 * 3_600_000);

  expect((await call(`/api/circuit-breakers/${id}/reset`, 'POST')).status).toBe(200);
  now = await healthWhen((answer) => answer.transitions[0]?.to === 'CLOSED');
  expect(now.open).toBe(0);
  expect(now.unhealthy).toEqual([]);
  expect(now.transitions.slice(0, 2)).toMatchObject([
    { configId: id, from: 'OPEN', to: 'CLOSED' },
    { configId: id, from: 'CLOSED', to: 'OPEN' },
  ]);
  // the opening stays in the day's openings
  expect(now.openings.at(-1)!.count).toBe(1);
});

it('bounds its lists, counts a move journalled by several places once, and an opening per breaker and minute', async () => {
  const ids: number[] = [];
  for (let i = 0; i < DASHBOARD_HEALTH_LIMITS.unhealthy + 3; i++) ids.push(await newBreaker(`Bulk ${i}`));
  for (const id of ids) expect((await call(`/api/circuit-breakers/${id}/force-open`, 'POST')).status).toBe(200);
  // one opening of ids[0] five hours ago, journalled by three replicas within two seconds; ids[1] opened in the same hour
  const fiveHoursAgo = "date_trunc('hour', now()) - interval '5 hours' + interval '10 minutes'";
  for (const offset of ['0', '1', '2']) await journal(ids[0]!, 'CLOSED', 'OPEN', `${fiveHoursAgo} + interval '${offset} seconds'`);
  await journal(ids[1]!, 'CLOSED', 'OPEN', fiveHoursAgo);
  // a re-opening after a failed trial is a move, not an opening
  await journal(ids[1]!, 'HALF_OPEN', 'OPEN', fiveHoursAgo);

  const now = await healthWhen((answer) => answer.openings.at(-1)!.count === ids.length + 1);
  expect(now.open).toBe(ids.length);
  expect(now.unhealthy).toHaveLength(DASHBOARD_HEALTH_LIMITS.unhealthy);
  expect(now.transitions).toHaveLength(DASHBOARD_HEALTH_LIMITS.transitions);
  // the newest first
  const times = now.transitions.map((move) => Date.parse(move.at));
  expect([...times].sort((a, b) => b - a)).toEqual(times);
  expect(now.openings.at(-6)!.count).toBe(2);
  // and Payments, opened in the test before
  expect(now.openings.at(-1)!.count).toBe(ids.length + 1);

  // the moves of five hours ago, with nothing newer
  for (const id of ids.slice(2)) expect((await call(`/api/circuit-breakers/${id}`, 'DELETE')).status).toBe(204);
  await spec.api.sql("DELETE FROM breaker_transitions WHERE at > now() - interval '1 hour'");
  const after = await health();
  expect(after.transitions.filter((move) => move.configId === ids[0])).toMatchObject([{ from: 'CLOSED', to: 'OPEN', places: 3 }]);
});
