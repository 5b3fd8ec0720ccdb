import { expect, test, type Page } from './support/test';
import { Client } from 'pg';
import { seriousViolations } from './support/axe';
import { ADMIN, sharedDatabaseUrl } from './support/server';
import { signIn } from './support/sign-in';
import { simpleBreaker } from '../api/test/breaker-bodies';
import { shoot } from './support/shots';

/**
 * A breaker's page with its past, on the production build: a breaker with an hour of stored calls (per-second buckets
 * of two replicas) and journalled moves opens on the last hour, the range picker changes the span, the moves are
 * counted and marked, a move made now joins them live, the journal reads newest first, Delete sits in a danger zone
 * at the bottom, and the page fits 1,400 px and a 390 × 844 phone; the load-test page offers the same range picker.
 */
const NAME = `History ${process.pid}`;
const REPLICAS = ['00000000-0000-4000-8000-00000000e2e1', '00000000-0000-4000-8000-00000000e2e2'];

let db: Client;
let breakerId: number | undefined;

test.beforeAll(async () => {
  db = new Client({ connectionString: sharedDatabaseUrl() });
  await db.connect();
});
test.afterAll(async () => {
  if (breakerId !== undefined) await db.query('DELETE FROM circuit_breaker_configs WHERE id = $1', [breakerId]);
  await db?.end();
});

/** An hour of calls ending ten minutes ago, a failing spell 40 to 35 minutes ago; three moves then, one three hours ago. */
async function storeAnHour(id: number) {
  await db.query(
    `INSERT INTO metric_buckets (config_id, second, instance_id, success, failure)
     SELECT $1, date_trunc('second', now()) - make_interval(secs => s), r,
            CASE WHEN s BETWEEN 2100 AND 2400 THEN 2 ELSE 10 END,
            CASE WHEN s BETWEEN 2100 AND 2400 THEN 8 ELSE (s % 7 = 0)::int END
     FROM generate_series(600, 3600, 3) AS s, unnest($2::uuid[]) AS r`,
    [id, REPLICAS],
  );
  await db.query(
    `INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, instance_id, at) VALUES
       ($1, 'CLOSED', 'OPEN', 'an old failing spell', $2, now() - interval '3 hours'),
       ($1, 'OPEN', 'CLOSED', 'reset by an operator', $2, now() - interval '170 minutes'),
       ($1, 'CLOSED', 'OPEN', '5 consecutive failures', $2, now() - interval '38 minutes'),
       ($1, 'OPEN', 'HALF_OPEN', 'open period of 30 s elapsed', $2, now() - interval '37 minutes'),
       ($1, 'HALF_OPEN', 'CLOSED', '1 trial call(s) succeeded', $2, now() - interval '36 minutes')`,
    [id, REPLICAS[0]],
  );
}

async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.viewport);
}

const historyAnswer = (page: Page, range: string) =>
  page.waitForResponse((response) => response.url().includes(`/api/circuit-breakers/${breakerId}/history?range=${range}`) && response.ok());

test('a breaker with an hour of history: the past on open, the range picker, marked moves, the journal newest first, Delete at the bottom', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, ADMIN);
  const created = await page.request.post('/api/circuit-breakers', {
    data: simpleBreaker(NAME, { successThreshold: 1 }),
  });
  expect(created.ok()).toBe(true);
  breakerId = (await created.json()).id as number;
  await storeAnHour(breakerId);

  const hour = historyAnswer(page, '1h');
  await page.goto(`/circuit-breakers/${breakerId}`);
  const answer = await (await hour).json();
  expect(answer.points.length).toBeLessThanOrEqual(300);
  expect(answer.points.filter((point: { calls: number }) => point.calls > 0).length).toBeGreaterThan(200);

  const charts = page.getByRole('region', { name: 'Metrics' });
  const picker = charts.getByRole('group', { name: 'Time range of the charts' });
  await expect(picker.getByRole('button', { name: '1 h' })).toHaveAttribute('aria-pressed', 'true');
  const summary = charts.getByTestId('history-summary');
  await expect(summary).toContainText('Last 1 h: calls recorded; 3 state changes');
  await expect(charts.locator('canvas')).toHaveCount(4);
  await expect(charts.getByText(/The hub keeps no latency history/)).toBeVisible();
  await shoot(page, 'history-1400', { fullPage: true });

  // the span follows the picker: six hours reach the older moves, five minutes hold no calls
  const six = historyAnswer(page, '6h');
  await picker.getByRole('button', { name: '6 h' }).click();
  expect((await (await six).json()).stepSeconds).toBe(72);
  await expect(summary).toContainText('Last 6 h: calls recorded; 5 state changes');
  const five = historyAnswer(page, '5m');
  await picker.getByRole('button', { name: '5 min' }).click();
  await five;
  await expect(summary).toContainText('Last 5 min: no traffic; 0 state changes');
  await picker.getByRole('button', { name: '1 h' }).click();
  await expect(summary).toContainText('Last 1 h: calls recorded; 3 state changes');

  // a move made now is marked too, without reloading
  expect((await page.request.post(`/api/circuit-breakers/${breakerId}/force-open`)).ok()).toBe(true);
  await expect(summary).toContainText('4 state changes');
  await shoot(page, 'history-forced-open-1400', { fullPage: true });

  // the journal newest first
  const rows = page.getByRole('list', { name: 'Transitions, newest first' }).getByRole('button');
  await expect(rows).toHaveCount(6);
  await expect(rows.first()).toContainText('CLOSED → OPEN');
  await expect(rows.first()).toContainText('forced open');
  await expect(rows.nth(1)).toContainText('HALF-OPEN → CLOSED');
  await expect(rows.last()).toContainText('an old failing spell');

  // manual controls by consequence, Delete in the danger zone below everything else
  await expect(page.getByRole('button', { name: 'Force open' })).toBeDisabled();
  await expect(page.getByText(/Every call through this breaker is refused at once/)).toBeVisible();
  const danger = page.getByRole('region', { name: 'Danger zone' });
  await expect(danger.getByRole('button', { name: 'Delete' })).toBeVisible();
  const journalBox = (await page.getByRole('region', { name: 'Transition journal' }).boundingBox())!;
  const dangerBox = (await danger.boundingBox())!;
  expect(dangerBox.y).toBeGreaterThan(journalBox.y + journalBox.height - 1);
  await expectNoSidewaysScroll(page);
  const where = `/circuit-breakers/${breakerId}`;
  expect(await seriousViolations(page, where)).toEqual({ where, violations: [] });
  await danger.scrollIntoViewIfNeeded();
  await shoot(page, 'history-bottom-1400');
  await page.request.post(`/api/circuit-breakers/${breakerId}/reset`);

  // a phone: nothing sideways, the picker and controls in reach, Delete still last
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(summary).toContainText('Last 1 h: calls recorded');
  await shoot(page, 'history-top-390');
  await expectNoSidewaysScroll(page);
  await expect(page.getByRole('button', { name: 'Force open' })).toBeVisible();
  await picker.getByRole('button', { name: '24 h' }).scrollIntoViewIfNeeded();
  await expect(picker.getByRole('button', { name: '24 h' })).toBeVisible();
  await expect(danger.getByRole('button', { name: 'Delete' })).toBeVisible();
  await charts.scrollIntoViewIfNeeded();
  await shoot(page, 'history-charts-390');
  await danger.scrollIntoViewIfNeeded();
  await shoot(page, 'history-bottom-390');
  // the load-test page offers the same range picker over the chosen breaker
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/load-test');
  const loadCharts = page.getByRole('region', { name: /state, error %, throughput and latency/ });
  await page.getByRole('combobox', { name: 'Circuit breaker', exact: true }).selectOption(String(breakerId));
  await expect(loadCharts.getByTestId('history-summary')).toContainText('Last 5 min');
  const loadHour = historyAnswer(page, '1h');
  await loadCharts.getByRole('button', { name: '1 h' }).click();
  await loadHour;
  await expect(loadCharts.getByTestId('history-summary')).toContainText('Last 1 h: calls recorded');
  await expectNoSidewaysScroll(page);
  await shoot(page, 'history-load-test-1400', { fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await shoot(page, 'history-load-test-390', { fullPage: true });
});
