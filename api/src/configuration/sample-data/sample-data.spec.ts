import type { BreakerConfigView, DeliveryPage, JournalPage, SampleDataView, TestSessionView } from '@cbh/contracts';
import { DEMO_PASSWORD, eventually, signIn, startTestApi, TEST_ADMIN, twoReplicasForThisFile } from '../../../test/test-api';
import { simpleBreaker } from '../../../test/breaker-bodies';

const spec = twoReplicasForThisFile();

const asAdmin = (path: string, method = 'GET', body?: unknown) => spec.api.call(path, { method, body, cookie: spec.admin });
const json = async <T>(response: Response, status = 200): Promise<T> => {
  const answer = await response.json();
  expect({ status: response.status, answer }).toMatchObject({ status });
  return answer as T;
};
const exported = async () => (await asAdmin('/api/export')).text();
const sampleData = async () => json<SampleDataView>(await asAdmin('/api/sample-data'));
const breakerNamed = async (name: string) =>
  (await json<BreakerConfigView[]>(await asAdmin('/api/circuit-breakers'))).find((breaker) => breaker.name === name);

it('shows a super admin that none is loaded, and refuses everyone else', async () => {
  expect(await sampleData()).toEqual({ loaded: false, loadedAt: null, items: [], refused: null });
  const admin = await signIn(spec.api.baseUrl, 'admin@demo.example.com', DEMO_PASSWORD);
  for (const method of ['GET', 'POST', 'DELETE']) {
    const response = await spec.api.call('/api/sample-data', { method, cookie: admin });
    expect({ method, status: response.status, message: (await response.json()).message }).toEqual({
      method,
      status: 403,
      message: 'Only a super admin may do this',
    });
  }
});

it('loads once across replicas, with history, and removes exactly what it added', async () => {
  const before = await exported();
  const [first, second] = await Promise.all([
    asAdmin('/api/sample-data', 'POST'),
    spec.second.call('/api/sample-data', { method: 'POST', cookie: spec.admin }),
  ]);
  expect([first.status, second.status].sort()).toEqual([201, 409]);
  const loaded = await sampleData();
  expect(loaded.loaded).toBe(true);
  expect(loaded.items).toEqual([
    { kind: 'breaker', name: 'Checkout API' },
    { kind: 'breaker', name: 'Email Relay' },
    { kind: 'breaker', name: 'Image Resizer' },
    { kind: 'breaker', name: 'Pricing Engine' },
    { kind: 'breaker', name: 'Recommendations' },
    { kind: 'breaker', name: 'Report Export' },
    { kind: 'service', name: 'Catalog' },
    { kind: 'service', name: 'Storefront' },
    { kind: 'domain', name: 'status.example.test' },
    { kind: 'channel', name: 'Sample log' },
    { kind: 'notificationRule', name: 'Sample breakers opening' },
  ]);

  // history: a manual control tried and undone, and load tests running (Checkout API's failures open it)
  const relay = (await breakerNamed('Email Relay'))!;
  const journal = await json<JournalPage>(await asAdmin(`/api/circuit-breakers/${relay.id}/transitions`));
  expect(journal.transitions.map((move) => `${move.from}→${move.to}`)).toEqual(['OPEN→CLOSED', 'CLOSED→OPEN']);
  const running = await json<TestSessionView[]>(await asAdmin('/api/test-sessions?status=running'));
  const checkout = (await breakerNamed('Checkout API'))!;
  expect(running.map((session) => session.configId)).toContain(checkout.id);
  // its opening reaches the log channel through the sample rule, delivered
  expect(
    await eventually(async () => {
      const page = await json<DeliveryPage>(await asAdmin('/api/notification-deliveries'));
      return page.items.some(
        (delivery) => delivery.channelName === 'Sample log' && delivery.event === 'breaker.opened' && delivery.status === 'delivered',
      );
    }, 20_000),
  ).toBe(true);
  const audit = await spec.api.sql("SELECT action FROM audit_entries WHERE action LIKE 'sample-data.%' OR action = 'breaker.create'");
  expect(audit.filter((entry) => entry.action === 'sample-data.load')).toHaveLength(1);
  expect(audit.filter((entry) => entry.action === 'breaker.create')).toHaveLength(6);

  // what happens meanwhile: an operator's own breaker stays; a sample item changed is still removed, one deleted is skipped
  await json(await asAdmin('/api/circuit-breakers', 'POST', simpleBreaker('Mine')), 201);
  const reports = (await breakerNamed('Report Export'))!;
  await json(await asAdmin(`/api/circuit-breakers/${reports.id}`, 'PATCH', { failureThreshold: 9 }));
  const pricing = (await breakerNamed('Pricing Engine'))!;
  expect((await asAdmin(`/api/circuit-breakers/${pricing.id}`, 'DELETE')).status).toBe(204);

  expect(await json<SampleDataView>(await spec.second.call('/api/sample-data', { method: 'DELETE', cookie: spec.admin }))).toEqual({
    loaded: false,
    loadedAt: null,
    items: [],
    refused: null,
  });
  const mine = (await breakerNamed('Mine'))!;
  expect(await breakerNamed('Report Export')).toBeUndefined();
  expect((await asAdmin(`/api/circuit-breakers/${mine.id}`, 'DELETE')).status).toBe(204);
  expect(await exported()).toBe(before);
  expect(await spec.api.sql("SELECT count(*)::int AS n FROM test_sessions WHERE status = 'running'")).toEqual([{ n: 0 }]);
  expect((await asAdmin('/api/sample-data', 'DELETE')).status).toBe(404);
}, 60_000);

it('adds nothing when the hub already has an item of one of its names', async () => {
  const mine = await json<BreakerConfigView>(await asAdmin('/api/circuit-breakers', 'POST', simpleBreaker('checkout api')), 201);
  const before = await exported();
  const refused = await asAdmin('/api/sample-data', 'POST');
  expect({ status: refused.status, message: (await refused.json()).message }).toEqual({
    status: 409,
    message: "The hub already has breaker 'Checkout API': sample data only adds items of its own",
  });
  expect(await exported()).toBe(before);
  expect((await sampleData()).loaded).toBe(false);
  expect((await asAdmin(`/api/circuit-breakers/${mine.id}`, 'DELETE')).status).toBe(204);
});

it('is refused in production, as SEED_DEMO is', async () => {
  const production = await startTestApi({ NODE_ENV: 'production', SEED_DEMO: 'false' });
  try {
    const admin = await signIn(production.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
    expect(await json<SampleDataView>(await production.call('/api/sample-data', { cookie: admin }))).toMatchObject({
      loaded: false,
      refused: 'Sample data is not for production (NODE_ENV=production)',
    });
    const refused = await production.call('/api/sample-data', { method: 'POST', cookie: admin });
    expect({ status: refused.status, message: (await refused.json()).message }).toEqual({
      status: 403,
      message: 'Sample data is not for production (NODE_ENV=production)',
    });
  } finally {
    await production.stop();
  }
});
