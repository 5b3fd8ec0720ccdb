import { expect, test, type Browser } from './support/test';
import { startWebhookReceiver, type WebhookReceiver } from '../api/test/webhook-receiver';
import { freePort } from '../tools/testing/free-port.mjs';
import { ACCOUNTS_ENV, ownDatabase, startSite, type Site } from './support/server';
import { checkScreen, signedInOn } from './support/screens';
import { apiSignIn, createBreaker, siteApi } from './support/site-api';

/**
 * An SLO over what users of a breaker experienced, in the production build: a load test with failing calls through
 * the breaker opens it, and every call it then refuses counts against the SLO as much as a failure; within a few
 * counting rounds the 1 h and 5 m burn rates pass 14.4, the page-level `slo.burn_rate` reaches a signed webhook, and
 * /slos and the SLO's page say so — checked with axe and for sideways scrolling at 1400 and 390 px.
 *
 * On a site and database of its own, allowed to post to the receiver on 127.0.0.1 (the suite's main site is not).
 */
const DATABASE = `slos_e2e_${process.pid}`;
const SECRET = 'whsec-shared-by-the-hub-and-the-slo-receiver';

let site: Site;
let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
let receiver: WebhookReceiver;
let cookie: string;
let breaker: { id: number; name: string };
let slo: { id: number; name: string };

test.describe.configure({ mode: 'serial' });

async function json<T>(response: Promise<Response>, status: number): Promise<T> {
  const answered = await response;
  expect(answered.status, await answered.clone().text()).toBe(status);
  return (await answered.json()) as T;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await ownDatabase(DATABASE);
  const port = await freePort();
  site = await startSite({
    port,
    env: { ...ACCOUNTS_ENV, DATABASE_URL: database.url, PUBLIC_URL: `http://127.0.0.1:${port}`, ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' },
  });
  receiver = await startWebhookReceiver({ secret: SECRET });
  cookie = await apiSignIn(site);
  breaker = await createBreaker(site, cookie, 'Checkout payments');
  const channel = await json<{ id: string }>(
    siteApi(site, cookie, '/api/notification-channels', 'POST', { name: 'SLO pager', type: 'webhook', url: receiver.url, secret: SECRET }),
    201,
  );
  await json(
    siteApi(site, cookie, '/api/notification-rules', 'POST', { name: 'SLO pages', events: ['slo.burn_rate'], channelIds: [channel.id] }),
    201,
  );
  slo = await json(
    siteApi(site, cookie, '/api/slos', 'POST', {
      name: 'Checkout availability',
      description: 'Payments answered for the people checking out',
      target: 99.9,
      window: '30d',
      indicator: { kind: 'breaker-calls', breakers: [breaker.id] },
    }),
    201,
  );
});

test.afterAll(async () => {
  await receiver?.stop();
  await site?.stop();
  await database?.drop();
});

const signedIn = (browser: Browser, width?: number, height?: number) => signedInOn(site, browser, width, height);

test('failing and refused calls through a breaker burn its SLO: the page-level alert reaches the webhook and /slos shows it', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  // half the calls fail: the breaker opens after 5 failures and refuses the rest while open
  await json(
    siteApi(site, cookie, '/api/test-sessions', 'POST', { configId: breaker.id, failureRate: 50, requestRate: 20, duration: 1 }),
    201,
  );
  await expect
    .poll(() => receiver.received.filter((hook) => hook.body.type === 'slo.burn_rate').length, { timeout: 90_000, intervals: [1000] })
    .toBeGreaterThan(0);
  const page = receiver.received.find((hook) => hook.body.type === 'slo.burn_rate')!;
  expect(page.signatureValid).toBe(true);
  expect(page.body.data).toMatchObject({
    slo: { id: slo.id, name: 'Checkout availability', target: 99.9, window: '30d', kind: 'breaker-calls' },
    severity: 'page',
    window: '1h',
    url: `${site.url}/slos/${slo.id}`,
  });
  expect((page.body.data as { burnRate: number }).burnRate).toBeGreaterThan(14.4);

  for (const [width, height] of [
    [1400, 900],
    [390, 844],
  ] as const) {
    const screen = await signedIn(browser, width, height);
    await screen.goto('/slos');
    await expect(screen.getByRole('heading', { level: 1 })).toHaveText('SLOs');
    const row = screen.getByRole('row').filter({ hasText: 'Checkout availability' });
    await expect(row).toContainText('Budget exhausted');
    await checkScreen(screen, `/slos at ${width} px`);

    await row.getByRole('link', { name: 'Checkout availability' }).click();
    await expect(screen).toHaveURL(`${site.url}/slos/${slo.id}`);
    await expect(screen.getByRole('heading', { level: 1 })).toHaveText('Checkout availability');
    await expect(screen.getByTestId('burn-alerts')).toContainText('Firing: page');
    await expect(screen.getByTestId('burn-1h')).toHaveAttribute('data-over', 'true');
    await checkScreen(screen, `the SLO at ${width} px`);
    await screen.context().close();
  }
});
