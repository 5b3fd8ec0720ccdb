import { expect, test, type APIRequestContext } from './support/test';
import { ROUTES } from '@cbh/contracts';
import { FITS, fits, heightOf, phoneCheck, tapInMenu } from './support/phone';
import { signIn } from './support/sign-in';
import { simpleBreaker } from '../api/test/breaker-bodies';

/** What the test made through the API, deleted after it so later files find the site as it was. */
const made: string[] = [];
let api: APIRequestContext | undefined;
test.afterEach(async () => {
  for (const path of made.splice(0).reverse()) await api?.delete(path);
});

async function create<T extends { id: number | string }>(request: APIRequestContext, path: string, data: unknown): Promise<T> {
  const response = await request.post(path, { data });
  expect(response.status(), await response.text()).toBe(201);
  const created = (await response.json()) as T;
  made.push(`${path}/${created.id}`);
  return created;
}

test('an operator on a phone: a breaker’s notification in the log, a tap to its page, Force open confirmed by taps', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page);
  api = page.request;
  const breaker = await create<{ id: number; name: string }>(
    api,
    '/api/circuit-breakers',
    simpleBreaker('Paged on a phone', { successThreshold: 1 }),
  );
  // without SMTP_URL the e-mail stays in the outbox, and the log shows the delivery as failed: it is still logged
  const channel = await create<{ id: string }>(api, '/api/notification-channels', {
    name: 'On-call phone',
    type: 'email',
    recipients: ['oncall@example.com'],
  });
  await create(api, '/api/notification-rules', {
    name: 'Page the phone',
    channelIds: [channel.id],
    events: ['breaker.opened'],
    breakers: [breaker.name],
    minIntervalMinutes: 0,
  });
  // it opens, and is reset: the operator finds it in the log and forces it open again
  expect((await api.post(`/api/circuit-breakers/${breaker.id}/force-open`)).status()).toBe(200);
  expect((await api.post(`/api/circuit-breakers/${breaker.id}/reset`)).status()).toBe(200);

  await tapInMenu(page, ROUTES.notifications.title, /\/notifications$/);
  const deliveries = page.getByRole('region', { name: 'Deliveries' });
  const row = deliveries.getByRole('row').filter({ hasText: 'Breaker opened' }).filter({ hasText: breaker.name });
  await expect(row).toHaveCount(1);
  expect(await phoneCheck(page, ROUTES.notifications.path)).toEqual({ where: ROUTES.notifications.path, ...FITS });
  await row.getByRole('link', { name: breaker.name }).tap();

  await expect(page).toHaveURL(new RegExp(`/circuit-breakers/${breaker.id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(breaker.name);
  await expect(page.getByTestId('state-badge').first()).toHaveText('CLOSED');
  expect(await phoneCheck(page, 'breaker page')).toEqual({ where: 'breaker page', ...FITS });

  const controls = page.getByRole('region', { name: 'Manual control' });
  const forceOpen = controls.getByRole('button', { name: 'Force open' });
  const reset = controls.getByRole('button', { name: 'Reset' });
  expect(await heightOf(forceOpen)).toBeGreaterThanOrEqual(44);
  expect(await heightOf(reset)).toBeGreaterThanOrEqual(44);
  await forceOpen.tap();

  const confirmation = page.getByRole('alertdialog', { name: `Force open “${breaker.name}”?` });
  await expect(confirmation).toBeVisible();
  const box = (await confirmation.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
  const confirm = confirmation.getByRole('button', { name: 'Force open' });
  expect(await heightOf(confirm)).toBeGreaterThanOrEqual(44);
  expect(await heightOf(confirmation.getByRole('button', { name: 'Cancel' }))).toBeGreaterThanOrEqual(44);
  expect(await fits(page, 'Force open confirmation')).toEqual({ where: 'Force open confirmation', ...FITS });
  await confirm.tap();

  await expect(confirmation).toHaveCount(0);
  await expect(page.getByTestId('state-badge').first()).toHaveText('OPEN');
  await expect(controls.getByTestId('current-override')).toHaveText('Override: forced open');
  const breakers = (await (await api.get('/api/circuit-breakers')).json()) as { id: number; override: string }[];
  expect(breakers.find((entry) => entry.id === breaker.id)?.override).toBe('forced-open');
});
