import { createServer, type Server, type Socket, connect } from 'node:net';
import { expect, test } from './support/test';
import type { BreakerConfigView, DrillDetailView, DrillView } from '@cbh/contracts';
import { freePort } from '../tools/testing/free-port.mjs';
import { until as poll } from './support/until';
import { startExampleService, type ExampleService } from './support/agent-service';
import { checkScreen, signedInOn } from './support/screens';
import { ACCOUNTS_ENV, ownDatabase, startSite, type Site } from './support/server';
import { apiSignIn, siteApi } from './support/site-api';
import { shoot } from './support/shots';

/**
 * Drills against real services: two instances of the example service (real opossum, @cbh/agent with faults allowed),
 * one to each of two production replicas; a third instance reaching the hub through a proxy the test can cut; and a
 * service that did not opt in. Each instance's own /health says which faults it runs.
 */
const DATABASE = `drills_e2e_${process.pid}`;
let replicas: Site[] = [];
let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
let cookie: string;
const services: ExampleService[] = [];
let checkout: ExampleService[];
let cutOff: ExampleService;
let legacy: ExampleService;
let proxy: { port: number; cut(): Promise<void> };

async function json<T>(response: Promise<Response>, status = 200): Promise<T> {
  const answered = await response;
  expect(answered.status, await answered.clone().text()).toBe(status);
  return (await answered.json()) as T;
}

/** A TCP proxy to `port` on loopback whose cut() closes every connection and refuses new ones: a network cut. */
async function startProxy(target: number): Promise<{ port: number; cut(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** A drill's state reaches instances through reports to two replicas: its waits are given 20 s. */
const until = <T>(read: () => Promise<T>, holds: (value: T) => boolean, ms = 20_000) => poll(read, holds, ms);

async function serviceToken(site: Site, service: string): Promise<string> {
  const account = await json<{ id: string }>(siteApi(site, cookie, '/api/service-accounts', 'POST', { name: service }), 201);
  return (
    await json<{ token: string }>(
      siteApi(site, cookie, `/api/service-accounts/${account.id}/tokens`, 'POST', { name: 'agent', expiresInDays: 1 }),
      201,
    )
  ).token;
}

/** Calls the breaker on every instance every 50 ms while `work` runs: the traffic a drill's faults hit. */
async function withTraffic<T>(instances: ExampleService[], breaker: string, work: () => Promise<T>): Promise<T> {
  let running = true;
  const loops = instances.map(async (instance) => {
    while (running) {
      await instance.call(breaker).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  try {
    return await work();
  } finally {
    running = false;
    await Promise.all(loops);
  }
}

const drillOf = (site: Site, id: number) => json<DrillDetailView>(siteApi(site, cookie, `/api/drills/${id}`));

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await ownDatabase(DATABASE);
  const ports = [await freePort(), await freePort()];
  const env = { ...ACCOUNTS_ENV, DATABASE_URL: database.url, PUBLIC_URL: `http://127.0.0.1:${ports[0]}` };
  replicas = [await startSite({ port: ports[0]!, env })];
  replicas.push(await startSite({ port: ports[1]!, env }));
  cookie = await apiSignIn(replicas[0]!);
  const [a, b] = replicas as [Site, Site];
  const checkoutToken = await serviceToken(a, 'checkout');
  const faultsAllowed = { CBH_ALLOW_FAULTS: '1' };
  checkout = [
    await startExampleService('checkout-1', a.url, checkoutToken, 'checkout', faultsAllowed),
    await startExampleService('checkout-2', b.url, checkoutToken, 'checkout', faultsAllowed),
  ];
  proxy = await startProxy(ports[1]!);
  cutOff = await startExampleService(
    'orders-1',
    `http://127.0.0.1:${proxy.port}`,
    await serviceToken(a, 'orders'),
    'orders',
    faultsAllowed,
  );
  legacy = await startExampleService('legacy-1', a.url, await serviceToken(a, 'legacy'), 'legacy');
  services.push(...checkout, cutOff, legacy);
  // every instance's breakers are on the hub before a drill names them
  await until(
    () => json<BreakerConfigView[]>(siteApi(a, cookie, '/api/circuit-breakers?source=agent')),
    (breakers) =>
      ['checkout', 'orders', 'legacy'].every((service) =>
        breakers.some((breaker) => breaker.service === service && breaker.name === 'payments'),
      ),
  );
});

test.afterAll(async () => {
  for (const service of services) await service.stop();
  for (const replica of replicas) await replica.stop();
  await proxy?.cut().catch(() => undefined);
  await database?.drop();
});

test.describe.configure({ mode: 'serial' });

test('errors injected into half of payments’ calls on both instances open it within the expectation, and the report says met', async () => {
  test.setTimeout(90_000);
  const [a, b] = replicas as [Site, Site];
  // the breaker trips at 25 % failures, so that half its calls failing opens it for sure, not by the luck of a sample
  // at its threshold (opossum opens above errorThresholdPercentage, and the example's is 50)
  const payments = (await json<BreakerConfigView[]>(siteApi(a, cookie, '/api/circuit-breakers?source=agent&service=checkout'))).find(
    (breaker) => breaker.name === 'payments',
  )!;
  await json(siteApi(a, cookie, `/api/circuit-breakers/${payments.id}`, 'PATCH', { librarySettings: { errorThresholdPercentage: 25 } }));
  await Promise.all(
    checkout.map((instance) =>
      until(
        async () => (await instance.health()).breakers.find((breaker) => breaker.name === 'payments')!.settings.errorThresholdPercentage,
        (value) => value === 25,
      ),
    ),
  );
  const drill = await json<DrillView>(
    siteApi(a, cookie, '/api/drills', 'POST', {
      name: 'payments-errors',
      steps: [
        { breaker: { service: 'checkout', name: 'payments' }, fault: { kind: 'error', rate: 0.5 }, instances: 'all', durationSeconds: 20 },
      ],
      expectations: [{ breaker: { service: 'checkout', name: 'payments' }, state: 'OPEN', withinSeconds: 15, after: 'start' }],
    }),
    201,
  );
  const report = await withTraffic(checkout, 'payments', () =>
    until(
      () => drillOf(b, drill.id),
      (detail) => detail.verdict !== 'pending',
      40_000,
    ),
  );
  expect(report.verdict).toBe('met');
  expect(report.expectations[0]).toMatchObject({ result: 'met', tookSeconds: expect.any(Number) });
  expect(report.expectations[0]!.tookSeconds!).toBeLessThanOrEqual(15);
  // both instances applied the fault (each says so in its next report, to its own replica), and the breaker's
  // opening is on the timeline with its instance
  const appliedBy = (detail: DrillDetailView) =>
    detail.timeline
      .filter((entry) => entry.kind === 'fault_applied')
      .map((entry) => entry.instance)
      .sort();
  const withBoth = await until(
    () => drillOf(a, drill.id),
    (detail) => appliedBy(detail).length === 2,
  );
  expect(appliedBy(withBoth)).toEqual(['checkout/checkout-1', 'checkout/checkout-2']);
  expect(report.timeline.some((entry) => entry.kind === 'transition' && / → OPEN/.test(entry.text))).toBe(true);
  await json(siteApi(a, cookie, `/api/drills/${drill.id}/stop`, 'POST')).catch(() => undefined);
});

test('stop-all ends every fault on every instance within a reporting period', async () => {
  const [a] = replicas as [Site, Site];
  await json(
    siteApi(a, cookie, '/api/drills', 'POST', {
      name: 'inventory-latency',
      steps: [
        {
          breaker: { service: 'checkout', name: 'inventory' },
          fault: { kind: 'latency', rate: 1, latencyMs: 50 },
          instances: 'all',
          durationSeconds: 600,
        },
      ],
    }),
    201,
  );
  const running = await Promise.all(
    checkout.map((instance) =>
      until(
        () => instance.health(),
        (health) => health.faults.active.length === 1,
      ),
    ),
  );
  expect(running.map((health) => health.faults.active.length)).toEqual([1, 1]);
  const delivered = running.map((health) => health.hub!.delivered);
  expect(await json(siteApi(a, cookie, '/api/drills/stop-all', 'POST'))).toEqual({ stopped: 1 });
  const after = await Promise.all(
    checkout.map((instance) =>
      until(
        () => instance.health(),
        (health) => health.faults.active.length === 0,
      ),
    ),
  );
  // gone with the reply to the first or second report after the stop: one reporting period (a report may have been on its way)
  after.forEach((health, index) => {
    expect(health.faults.active).toEqual([]);
    expect(health.hub!.delivered - delivered[index]!).toBeLessThanOrEqual(2);
  });
});

test('an instance cut off from the hub drops its faults after two reporting periods, and keeps its settings', async () => {
  test.setTimeout(60_000);
  const [a] = replicas as [Site, Site];
  const breakers = await json<BreakerConfigView[]>(siteApi(a, cookie, '/api/circuit-breakers?source=agent&service=orders'));
  const payments = breakers.find((breaker) => breaker.name === 'payments')!;
  // a setting the hub chose, applied by the instance
  await json(siteApi(a, cookie, `/api/circuit-breakers/${payments.id}`, 'PATCH', { librarySettings: { errorThresholdPercentage: 30 } }));
  const threshold = async () =>
    (await cutOff.health()).breakers.find((breaker) => breaker.name === 'payments')!.settings.errorThresholdPercentage;
  expect(await until(threshold, (value) => value === 30)).toBe(30);
  await json(
    siteApi(a, cookie, '/api/drills', 'POST', {
      name: 'orders-timeouts',
      steps: [{ breaker: payments.id, fault: { kind: 'error', rate: 1 }, instances: 'all', durationSeconds: 600 }],
    }),
    201,
  );
  expect(
    (
      await until(
        () => cutOff.health(),
        (health) => health.faults.active.length === 1,
      )
    ).faults.active,
  ).toHaveLength(1);
  expect((await cutOff.call('payments')).injected).toBe(true);
  await proxy.cut();
  const dropped = await until(
    () => cutOff.health(),
    (health) => health.faults.active.length === 0,
  );
  expect(dropped.faults.active).toEqual([]);
  expect(dropped.hub!.reachable).toBe(false);
  expect(cutOff.logs.join('')).toMatch(/no reply from the hub for 2 reporting periods: faults drill-\d+-0 dropped/);
  // its calls are its own again, through the breaker with the hub's setting still on: faults fail safe, settings static
  expect((await cutOff.call('payments')).injected).not.toBe(true);
  expect(await threshold()).toBe(30);
  await json(siteApi(a, cookie, '/api/drills/stop-all', 'POST'));
});

test('a service that did not opt in refuses the fault, and says so on the drill’s timeline', async () => {
  const [a] = replicas as [Site, Site];
  const drill = await json<DrillView>(
    siteApi(a, cookie, '/api/drills', 'POST', {
      name: 'legacy-errors',
      steps: [
        { breaker: { service: 'legacy', name: 'payments' }, fault: { kind: 'error', rate: 1 }, instances: 'all', durationSeconds: 600 },
      ],
    }),
    201,
  );
  const detail = await until(
    () => drillOf(a, drill.id),
    (view) => view.timeline.some((entry) => entry.kind === 'fault_refused'),
  );
  expect(detail.timeline.find((entry) => entry.kind === 'fault_refused')).toMatchObject({
    instance: 'legacy/legacy-1',
    text: `Fault drill-${drill.id}-0 refused by legacy/legacy-1: this service does not take faults`,
  });
  expect(await legacy.call('payments')).toMatchObject({ status: 200 });
  expect((await legacy.health()).faults).toEqual({ allowed: false, active: [] });
  await json(siteApi(a, cookie, `/api/drills/${drill.id}/stop`, 'POST'));
});

test('an admin composes a drill on the Drills page, confirms its blast radius, watches it live and stops it', async ({ browser }) => {
  test.setTimeout(90_000);
  const [a] = replicas as [Site, Site];
  const page = await signedInOn(a, browser);
  await page.goto('/drills');
  await expect(page.getByRole('heading', { level: 1, name: 'Drills' })).toBeVisible();
  await page.getByRole('button', { name: 'New drill' }).click();
  const form = page.getByRole('dialog', { name: 'New drill' });
  await form.getByLabel('Name').fill('inventory-slow');
  const step = form.getByTestId('step-1');
  await step.getByLabel('Breaker').selectOption({ label: 'inventory (checkout)' });
  await step.getByLabel('Fault').selectOption({ label: 'Latency' });
  await step.getByLabel('Calls hit (%)').fill('25');
  await step.getByLabel('Latency (ms)').fill('800');
  await step.getByLabel('Duration (s)').fill('60');
  await shoot(page, 'drills-new');
  await form.getByRole('button', { name: 'Review and start' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Start drill' });
  await expect(confirm.getByTestId('blast-radius')).toHaveText(
    "Step 1: latency 800 ms on 25 % of inventory's calls on all instances of checkout for 60 s",
  );
  await confirm.getByRole('button', { name: 'Start drill' }).click();
  await expect(page).toHaveURL(/\/drills\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'inventory-slow' })).toBeVisible();
  // the instances apply it: the page follows over /ws
  await expect(page.getByText('checkout/checkout-1').first()).toBeVisible({ timeout: 15_000 });
  await checkScreen(page, 'a running drill at 1400 px');
  await shoot(page, 'drill-running', { fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await checkScreen(page, 'a running drill at 390 px');
  await shoot(page, 'drill-running-phone', { fullPage: true });
  await page.getByRole('button', { name: 'Stop drill' }).click();
  await expect(page.getByText('stopped', { exact: false }).first()).toBeVisible();
  await Promise.all(
    checkout.map((instance) =>
      until(
        () => instance.health(),
        (health) => health.faults.active.length === 0,
      ),
    ),
  );
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/drills');
  await checkScreen(page, 'the drills list at 1400 px');
  await shoot(page, 'drills-list', { fullPage: true });
  await page.context().close();
});

test('the learning page’s guided drill: traffic, latency injected, the adaptive demo breaker opens, stopped, it recovers', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const [a] = replicas as [Site, Site];
  const page = await signedInOn(a, browser);
  await page.goto('/');
  const steps = page.getByRole('list', { name: 'Guided drill steps' });
  await steps.getByRole('button', { name: 'Send traffic' }).click();
  await steps.getByRole('button', { name: 'Inject latency' }).click();
  await expect(page.getByText(/Opened (after \d+ s|within a second): the breaker stopped calling the slow service\./)).toBeVisible({
    timeout: 45_000,
  });
  await page.getByTestId('guided-step-3').scrollIntoViewIfNeeded();
  await checkScreen(page, 'the guided drill at 1400 px, the breaker open');
  await shoot(page, 'guided-drill-open');
  await steps.getByRole('button', { name: 'Stop the drill' }).click();
  await expect(page.getByText(/Closed again \d+ s after/)).toBeVisible({ timeout: 90_000 });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('guided-step-4').scrollIntoViewIfNeeded();
  await checkScreen(page, 'the guided drill at 390 px, recovered');
  await shoot(page, 'guided-drill-phone');
  await page.context().close();
});
