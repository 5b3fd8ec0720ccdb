import { expect, test, type Browser, type Page } from './support/test';
import type { BreakerConfigView, BreakerInstancesPage, BreakerStats } from '@cbh/contracts';
import { startResilience4jEndpoint, type Resilience4jEndpoint } from '../api/test/resilience4j-endpoint';
import { freePort } from '../tools/testing/free-port.mjs';
import { until } from './support/until';
import { startExampleService, type ExampleService } from './support/agent-service';
import { ACCOUNTS_ENV, ownDatabase, startSite, type Site } from './support/server';
import { apiSignIn, siteApi } from './support/site-api';
import { signIn } from './support/sign-in';
import { shoot } from './support/shots';

/**
 * The breakers of real services on the wall: two instances of the example service (real opossum breakers, reported
 * by @cbh/agent, one to each replica) and a resilience4j service's Prometheus endpoint, scraped. Two production
 * replicas on a database of their own, allowed to call 127.0.0.1 (the scrape target).
 */
const DATABASE = `fleet_e2e_${process.pid}`;
const SERVICE = 'checkout';
let replicas: Site[] = [];
let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
let ports: number[];
let env: Record<string, string>;
let token: string;
let cookie: string;
let endpoint: Resilience4jEndpoint;
const services: ExampleService[] = [];

/** One instance of examples/agent-service reporting to `hub`; resolves once it listens. */
const startService = (instance: string, hub: string) => startExampleService(instance, hub, token, SERVICE);

async function json<T>(response: Promise<Response>, status = 200): Promise<T> {
  const answered = await response;
  expect(answered.status, await answered.clone().text()).toBe(status);
  return (await answered.json()) as T;
}

const breakerNamed = async (name: string, source = 'agent', service = SERVICE) =>
  (await json<BreakerConfigView[]>(siteApi(replicas[0]!, cookie, `/api/circuit-breakers?source=${source}&service=${service}`))).find(
    (breaker) => breaker.name === name,
  );
const statsOf = async (id: number, replica = replicas[1]!) =>
  (await json<{ stats: BreakerStats[] }>(siteApi(replica, cookie, '/api/metrics/latest'))).stats.find((stats) => stats.configId === id);

async function startReplicas() {
  // the first replica migrates the database before the second starts
  replicas = [await startSite({ port: ports[0]!, env })];
  replicas.push(await startSite({ port: ports[1]!, env }));
  cookie = await apiSignIn(replicas[0]!);
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await ownDatabase(DATABASE);
  ports = [await freePort(), await freePort()];
  env = {
    ...ACCOUNTS_ENV,
    DATABASE_URL: database.url,
    PUBLIC_URL: `http://127.0.0.1:${ports[0]}`,
    ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
  };
  await startReplicas();
  const account = await json<{ id: string }>(siteApi(replicas[0]!, cookie, '/api/service-accounts', 'POST', { name: SERVICE }), 201);
  token = (
    await json<{ token: string }>(
      siteApi(replicas[0]!, cookie, `/api/service-accounts/${account.id}/tokens`, 'POST', { name: 'agent', expiresInDays: 1 }),
      201,
    )
  ).token;
  endpoint = await startResilience4jEndpoint({
    breakers: [
      { name: 'ledgerService', minimumNumberOfCalls: 5, slidingWindowSize: 10 },
      { name: 'fraudCheck', state: 'forced_open' },
    ],
  });
  await json(siteApi(replicas[0]!, cookie, '/api/scrape-targets', 'POST', { name: 'orders', url: endpoint.url, intervalSeconds: 5 }), 201);
  // one instance reports to each replica
  services.push(await startService('checkout-1', replicas[0]!.url), await startService('checkout-2', replicas[1]!.url));
});

test.afterAll(async () => {
  for (const service of services) await service.stop();
  for (const replica of replicas) await replica.stop();
  await endpoint?.close();
  await database?.drop();
});

/** A signed-in page on this file's first replica (the suite's own site knows none of these breakers). */
async function pageOnReplica(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: replicas[0]!.url });
  const page = await context.newPage();
  await signIn(page);
  return page;
}

/** Calls each service's breaker `times` times. */
async function traffic(breaker: string, times: number, of = services) {
  for (let i = 0; i < times; i++) await Promise.all(of.map((service) => service.call(breaker)));
}

test.describe.configure({ mode: 'serial' });

test("both instances' breakers and the scraped ones are on the wall, their figures merged", async ({ browser }) => {
  test.setTimeout(60_000);
  await traffic('payments', 15);
  const payments = await until(
    () => breakerNamed('payments'),
    (breaker) => breaker !== undefined,
  );
  expect(payments).toMatchObject({ source: 'agent', service: SERVICE, library: 'opossum', libraryType: 'error-percentage' });
  // 15 calls on each instance, merged on the replica neither reported to alone
  const merged = await until(
    () => statsOf(payments!.id),
    (stats) => stats?.instances?.total === 2 && stats.successCount >= 30,
  );
  expect(merged).toMatchObject({ instances: { total: 2, stale: 0, bad: null }, state: 'CLOSED' });
  expect(merged!.successCount).toBeGreaterThanOrEqual(30);

  const fraud = await until(
    () => breakerNamed('fraudCheck', 'scrape', 'orders'),
    (breaker) => breaker?.state === 'OPEN',
  );
  expect(fraud).toMatchObject({ source: 'scrape', service: 'orders', library: 'resilience4j', state: 'OPEN', override: 'forced-open' });
  expect(await breakerNamed('ledgerService', 'scrape', 'orders')).toMatchObject({ source: 'scrape', state: 'CLOSED' });

  const page = await pageOnReplica(browser);
  await page.goto('/circuit-breakers');
  const tile = page.getByRole('article', { name: 'payments' });
  await expect(tile).toContainText(SERVICE);
  await expect(tile).toContainText('2 instances');
  await expect(page.getByRole('article', { name: 'fraudCheck' })).toContainText('orders');
  await shoot(page, 'fleet-wall', { fullPage: true });
});

test('Force open on the hub opens the opossum breaker in both instances within 2 s, as the services answer', async ({ browser }) => {
  test.setTimeout(60_000);
  const payments = (await breakerNamed('payments'))!;
  const page = await pageOnReplica(browser);
  await page.goto(`/circuit-breakers/${payments.id}`);
  await page.getByRole('button', { name: 'Force open' }).click();
  const dialog = page.getByRole('alertdialog');
  const clicked = Date.now();
  await dialog.getByRole('button', { name: 'Force open' }).click();
  const answers = await until(
    () => Promise.all(services.map((service) => service.call('payments'))),
    (all) => all.every((answer) => answer.status === 503 && answer.state === 'OPEN'),
    2000,
  );
  expect(answers, `within 2 s of the confirmation (${Date.now() - clicked} ms)`).toEqual([
    { status: 503, state: 'OPEN' },
    { status: 503, state: 'OPEN' },
  ]);
  await json(siteApi(replicas[1]!, cookie, `/api/circuit-breakers/${payments.id}/reset`, 'POST'));
  const closed = await until(
    () => Promise.all(services.map((service) => service.call('payments'))),
    (all) => all.every((answer) => answer.status === 200 && answer.state === 'CLOSED'),
    3000,
  );
  expect(closed.map((answer) => answer.state)).toEqual(['CLOSED', 'CLOSED']);
});

test('with the hub stopped the services keep serving and their breakers keep working; back, the figures resume', async () => {
  test.setTimeout(90_000);
  const payments = (await breakerNamed('payments'))!;
  for (const replica of replicas) await replica.stop();
  // both keep serving through their breakers
  for (let i = 0; i < 5; i++) {
    expect((await Promise.all(services.map((service) => service.call('payments')))).map((answer) => answer.status)).toEqual([200, 200]);
  }
  const lost = await until(
    () => fetch(`${services[0]!.url}/health`).then((response) => response.json()),
    (health) => health.hub?.reachable === false,
  );
  expect(lost.hub).toMatchObject({ reachable: false });
  // and the breaker still trips on its own: checkout-2's downstream fails, its opossum opens
  await services[1]!.fail(100);
  const tripped = await until(
    () => services[1]!.call('inventory'),
    (answer) => answer.state === 'OPEN',
  );
  expect(tripped).toEqual({ status: 503, state: 'OPEN' });
  await services[1]!.fail(0);
  // one warning for the outage, not one per attempt
  await expect.poll(() => services[0]!.logs.join('').match(/\[agent\] hub unreachable/g)?.length ?? 0).toBe(1);

  await startReplicas();
  await until(
    () => fetch(`${services[0]!.url}/health`).then((response) => response.json()),
    (health) => health.hub?.reachable === true,
    15_000,
  );
  expect(services[0]!.logs.join('')).toMatch(/\[agent\] hub reachable again after \d+ failed reports/);
  await traffic('payments', 10);
  const resumed = await until(
    () => statsOf(payments.id),
    (stats) => stats?.instances?.total === 2 && stats.successCount >= 10,
  );
  expect(resumed?.instances).toMatchObject({ total: 2, stale: 0 });
});

test('one instance failing is marked as the bad instance on the breaker page', async ({ browser }) => {
  test.setTimeout(60_000);
  const inventory = (await breakerNamed('inventory'))!;
  await services[1]!.fail(90);
  await traffic('inventory', 30);
  const page0 = await until(
    () => json<BreakerInstancesPage>(siteApi(replicas[0]!, cookie, `/api/circuit-breakers/${inventory.id}/instances`)),
    (instances) => instances.merged?.instances?.bad === 'checkout-2',
  );
  expect(page0.instances.map((instance) => [instance.instance, instance.bad])).toEqual([
    ['checkout-1', false],
    ['checkout-2', true],
  ]);
  const page = await pageOnReplica(browser);
  await page.goto(`/circuit-breakers/${inventory.id}`);
  const row = page.getByRole('row', { name: /checkout-2/ });
  await expect(row).toContainText('Bad instance');
  await expect(page.getByRole('row', { name: /checkout-1/ })).not.toContainText('Bad instance');
  await shoot(page, 'fleet-bad-instance', { fullPage: true });
  await services[1]!.fail(0);
});
