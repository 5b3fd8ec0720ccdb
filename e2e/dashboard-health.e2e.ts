import { expect, test, type Page } from './support/test';
import { Client } from 'pg';
import { ADMIN, DEMO_PASSWORD, sharedDatabaseUrl } from './support/server';
import { signIn } from './support/sign-in';
import { simpleBreaker } from '../api/test/breaker-bodies';
import { shoot } from './support/shots';

/**
 * The dashboard's health overview on the production build: a breaker forced open is listed as open now with a link
 * to its page; reset, it leaves the list live (no reload) and its moves head the last transitions; the day's openings
 * count it; a domain alert that fires is listed to a domain manager and not to a viewer; the page fits 1,400 px and
 * a 390 × 844 phone.
 */
const NAME = `Health Overview ${process.pid}`;
const DOMAIN = `health-${process.pid}.example.test`;

let db: Client;
let breakerId: number | undefined;
let domainId: number | undefined;

test.beforeAll(async () => {
  db = new Client({ connectionString: sharedDatabaseUrl() });
  await db.connect();
});
test.afterAll(async () => {
  if (breakerId !== undefined) await db.query('DELETE FROM circuit_breaker_configs WHERE id = $1', [breakerId]);
  if (domainId !== undefined) await db.query('DELETE FROM domains WHERE id = $1', [domainId]);
  await db?.end();
});

/** Nothing reaches past the viewport's width. */
async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.viewport);
}

async function api(page: Page, path: string, method = 'GET', data?: unknown) {
  const response = await page.request.fetch(path, { method, data });
  expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
  return response.json();
}

test('a breaker forced open shows as open now with its link, leaves after a reset, and its moves and opening are shown', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, ADMIN);
  const breaker = await api(page, '/api/circuit-breakers', 'POST', simpleBreaker(NAME, { successThreshold: 1 }));
  breakerId = breaker.id;
  await api(page, `/api/circuit-breakers/${breaker.id}/force-open`, 'POST');

  await page.goto('/dashboard');
  const health = page.getByRole('region', { name: 'Breaker Health' });
  const openNow = health.getByRole('list', { name: 'Breakers open now' });
  await expect(openNow.getByRole('link', { name: NAME })).toHaveAttribute('href', `/circuit-breakers/${breaker.id}`);
  await expect(openNow.getByRole('listitem').filter({ hasText: NAME })).toContainText('forced');
  // the sparkline's current hour holds the opening
  const chart = health.getByTestId('openings-chart');
  await expect(chart.locator('rect').last().locator('title')).toHaveText(/^[1-9]\d* openings?, this hour$/);
  await expect(chart.getByRole('img')).toHaveAttribute('aria-label', /^[1-9]\d* openings? in the last 24 hours/);
  await expectNoSidewaysScroll(page);
  await shoot(page, 'dashboard-health-1400-open', { fullPage: true });

  // reset elsewhere: the page follows without a reload
  await api(page, `/api/circuit-breakers/${breaker.id}/reset`, 'POST');
  await expect(openNow.getByRole('link', { name: NAME })).toHaveCount(0);
  const moves = page.getByRole('list', { name: 'Last transitions' }).getByRole('listitem');
  await expect(moves.first()).toContainText(NAME);
  await expect(moves.first()).toContainText('Open → Closed');
  await expect(moves.filter({ hasText: NAME }).nth(1)).toContainText('Closed → Open');
  await expect(moves.first().getByRole('link', { name: NAME })).toHaveAttribute('href', `/circuit-breakers/${breaker.id}`);
  await expect(chart.locator('rect').last().locator('title')).toHaveText(/^[1-9]\d* openings?, this hour$/);

  // a phone: everything in, the overview where the thumb reaches it
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(health).toBeVisible();
  await health.scrollIntoViewIfNeeded();
  await expect(chart).toBeVisible();
  await expect(moves.first().getByRole('link', { name: NAME })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shoot(page, 'dashboard-health-390', { fullPage: true });
  await shoot(page.getByRole('region', { name: 'Last Transitions' }), 'dashboard-health-390-transitions');
});

test('a firing domain alert shows to a domain manager, and not to a viewer without domain_management', async ({ browser }) => {
  // a domain whose checks are not due (they could resolve the alert), and an alert that fires now
  const [domain] = (
    await db.query(
      "INSERT INTO domains (domain, verification_token, next_check_at) VALUES ($1, 'e2e', now() + interval '1 day') RETURNING id",
      [DOMAIN],
    )
  ).rows;
  domainId = domain.id;
  await db.query("INSERT INTO domain_alerts (domain_id, alert_type, severity, message) VALUES ($1, 'site_down', 'critical', $2)", [
    domainId,
    `${DOMAIN} does not answer`,
  ]);

  const manager = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await signIn(manager, { email: 'admin@demo.example.com', password: DEMO_PASSWORD });
  await manager.goto('/dashboard');
  const alerts = manager.getByRole('region', { name: 'Domain Alerts' });
  const row = alerts.getByRole('list', { name: 'Firing domain alerts' }).getByRole('listitem').filter({ hasText: DOMAIN });
  await expect(row).toContainText('Site down');
  await expect(row).toContainText(`${DOMAIN} does not answer`);
  await expect(alerts.getByRole('link', { name: /Domains/ })).toHaveAttribute('href', '/domains');
  await expectNoSidewaysScroll(manager);
  await shoot(manager, 'dashboard-health-1400-manager', { fullPage: true });
  await manager.setViewportSize({ width: 390, height: 844 });
  await expect(row).toBeVisible();
  await expectNoSidewaysScroll(manager);
  await shoot(alerts, 'dashboard-health-390-alerts');
  await manager.close();

  const viewer = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await signIn(viewer, { email: 'viewer@example.com', password: DEMO_PASSWORD });
  await viewer.goto('/dashboard');
  await expect(viewer.getByRole('region', { name: 'Breaker Health' })).toBeVisible();
  await expect(viewer.getByRole('region', { name: 'Last Transitions' })).toBeVisible();
  await expect(viewer.getByRole('region', { name: 'Domain Alerts' })).toHaveCount(0);
  await expect(viewer.getByText(DOMAIN)).toHaveCount(0);
  await expectNoSidewaysScroll(viewer);
  await viewer.close();
});
