import { expect, test } from './support/test';
import { seriousViolations } from './support/axe';
import { loadedProviders } from './support/federation';
import { ADMIN, DEMO_PASSWORD, replicasForTheseTests } from './support/server';
import { signIn } from './support/sign-in';
import { breakersMadeHere, breakerTile as tile } from './support/breakers';
import { shoot } from './support/shots';

const createBreaker = breakersMadeHere();

test('replays a journal after a 100 % load test: CLOSED → OPEN → HALF_OPEN → OPEN, each step with its reason', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page);
  const breaker = await createBreaker(page.request, 'Replayed', { failureThreshold: 2, timeout: 5_000, recoveryTime: 10_000 });
  const session = await (
    await page.request.post('/api/test-sessions', { data: { configId: breaker.id, failureRate: 100, requestRate: 20, duration: 1 } })
  ).json();
  // two trips: opened by failures, half-opened by its open period, opened again by the failed trial, half-opened again
  await expect
    .poll(async () => (await (await page.request.get(`/api/circuit-breakers/${breaker.id}/transitions`)).json()).transitions.length, {
      timeout: 30_000,
    })
    .toBeGreaterThanOrEqual(4);
  await page.request.post(`/api/test-sessions/${session.id}/stop`);

  // Each frame from the moment they appear: the charts' card's height, and where the journal starts. Neither may move
  // once a card's code or data arrives, or what is below moves from under a pointer about to press it (as Next moved
  // from under this test's click when the charts drew after the journal, and the load tests' card grew with its list).
  await page.addInitScript(() => {
    const seen = { chartsCard: [] as number[], journalTop: [] as number[] };
    (window as unknown as { layout: typeof seen }).layout = seen;
    const note = (values: number[], value: number | undefined) => {
      if (value !== undefined && values.at(-1) !== value) values.push(value);
    };
    const look = () => {
      const card = document.querySelector('[aria-labelledby="live-charts-title"]');
      const journal = document.querySelector('[aria-labelledby="journal-title"]');
      note(seen.chartsCard, card ? Math.round(card.getBoundingClientRect().height) : undefined);
      note(seen.journalTop, journal ? Math.round(journal.getBoundingClientRect().top + window.scrollY) : undefined);
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  await page.goto(`/circuit-breakers/${breaker.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Replayed' })).toBeVisible();
  const journal = page.getByRole('region', { name: 'Transition journal' });
  const diagram = journal.getByRole('list', { name: 'Breaker states' });
  const lit = () => diagram.locator('[aria-current="step"]');
  const next = journal.getByRole('button', { name: 'Next' });

  await expect(lit()).toHaveText('CLOSED');
  await expect(page.getByRole('region', { name: 'Metrics' }).locator('canvas').first()).toBeVisible();
  // every card has its data (the stored history among it, and the load tests' list) before a button below is pressed
  await expect(page.getByRole('main').getByText(/^Loading/)).toHaveCount(0);
  const layout = await page.evaluate(() => (window as unknown as { layout: { chartsCard: number[]; journalTop: number[] } }).layout);
  expect(layout.chartsCard).toHaveLength(1);
  expect(layout.journalTop).toHaveLength(1);
  await next.click();
  await expect(lit()).toHaveText('OPEN');
  await expect(journal).toContainText('2 consecutive failures');
  await next.click();
  await expect(lit()).toHaveText('HALF-OPEN');
  await expect(journal).toContainText('open period of 5 s elapsed');
  await next.click();
  await expect(lit()).toHaveText('OPEN');
  await expect(journal).toContainText('trial call failed');
  await journal.getByRole('button', { name: 'Previous' }).click();
  await expect(lit()).toHaveText('HALF-OPEN');
  await shoot(page, 'console-replay', { fullPage: true });
});

test.describe('with a second API replica', () => {
  const replicas = replicasForTheseTests('second');

  test('forcing a breaker open on the console turns its tile, the learning hero and a browser on the other replica red', async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    await signIn(page);
    const breaker = await createBreaker(page.request, 'Forced from the console');

    // an operator watching the wall through the other replica
    const elsewhere = await browser.newContext({ baseURL: replicas.second.url });
    const wall = await elsewhere.newPage();
    await signIn(wall);
    await wall.goto('/circuit-breakers');
    await expect(tile(wall, breaker.name)).toHaveAttribute('data-state', 'CLOSED');

    // the learning page's hero, in another tab of this browser
    const home = await page.context().newPage();
    await home.goto('/');
    const openCount = async () => Number(await home.getByTestId('hero-OPEN').locator('strong').textContent());
    // other tests' breakers may move meanwhile: the hero must count what the API reports open, ours among them
    const heroFollows = async () => {
      const { stats } = await (await page.request.get('/api/metrics/latest')).json();
      const open = (stats as { configId: number; state: string }[]).filter((entry) => entry.state === 'OPEN');
      return open.some((entry) => entry.configId === breaker.id) && (await openCount()) === open.length;
    };
    await expect.poll(openCount).not.toBeNaN();

    await page.goto(`/circuit-breakers/${breaker.id}`);
    await page.getByRole('button', { name: 'Force open' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('refused at once');
    await confirm.getByRole('button', { name: 'Force open' }).click();
    await expect(page.getByText('Breaker forced open').first()).toBeVisible();

    await expect(tile(wall, breaker.name)).toHaveAttribute('data-state', 'OPEN', { timeout: 5000 });
    await expect.poll(heroFollows, { timeout: 5000 }).toBe(true);
    await expect(page.getByTestId('open-breakers')).toContainText(/\d+ open/);
    await shoot(wall, 'console-wall-second-replica', { fullPage: true });

    await page.request.post(`/api/circuit-breakers/${breaker.id}/reset`);
    await expect(tile(wall, breaker.name)).toHaveAttribute('data-state', 'CLOSED', { timeout: 5000 });
    await elsewhere.close();
  });
});

test('a viewer sees the wall and a breaker’s page, but no controls', async ({ page }) => {
  await signIn(page, { email: 'viewer@example.com', password: DEMO_PASSWORD });
  await page.getByRole('banner').getByRole('link', { name: 'Circuit Breakers' }).click();
  await expect(page).toHaveURL(/\/circuit-breakers$/);
  await expect(tile(page, 'Payment Gateway')).toBeVisible();
  await tile(page, 'Payment Gateway').getByRole('link', { name: 'Payment Gateway' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Payment Gateway' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Transition journal' })).toBeVisible();
  for (const name of ['Force open', 'Force closed', 'Disable', 'Reset', 'Edit', 'Delete']) {
    await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
});

test('a visit from the learning page to a breaker’s page downloads the breaker widgets and uPlot once', async ({ page }) => {
  await signIn(page);
  const bodies: Promise<string>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') bodies.push(response.text().catch(() => ''));
  });
  // home: the learning remote draws the state diagram and a chart; then the console's page, in the same document
  await page.goto('/');
  await expect(page.getByRole('list', { name: 'Breaker states' }).first()).toBeVisible();
  await page.getByRole('banner').getByRole('link', { name: 'Circuit Breakers' }).click();
  await tile(page, 'Payment Gateway').getByRole('link', { name: 'Payment Gateway' }).click();
  await expect(page.getByRole('region', { name: 'Transition journal' })).toBeVisible();
  await expect(page.locator('canvas').first()).toBeVisible();

  const scripts = await Promise.all(bodies);
  // the diagram's words and uPlot's own code (its posToVal method), each in one downloaded file
  expect(scripts.filter((body) => body.includes('failures reach the threshold')).length).toBe(1);
  expect(scripts.filter((body) => body.includes('posToVal')).length).toBe(1);
  expect(await loadedProviders(page, '@cbh/breaker-widgets')).toHaveLength(1);
});

test('the wall and a breaker’s page have no serious or critical accessibility violations', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/circuit-breakers');
  await expect(page.getByTestId('breaker-tile').first()).toBeVisible();
  expect(await seriousViolations(page, '/circuit-breakers')).toEqual({ where: '/circuit-breakers', violations: [] });
  await page.goto('/circuit-breakers/1');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Force open' }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  expect(await seriousViolations(page, 'force-open confirmation')).toEqual({ where: 'force-open confirmation', violations: [] });
  await page.keyboard.press('Escape');
  expect(await seriousViolations(page, '/circuit-breakers/1')).toEqual({ where: '/circuit-breakers/1', violations: [] });
});
