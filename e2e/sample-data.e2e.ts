import { expect, test } from './support/test';
import { ADMIN, startOwnSite, type Site } from './support/server';
import { signIn } from './support/sign-in';
import { recordShownTexts } from './support/toasts';

/**
 * A super admin trying out an empty hub: the wall offers the sample data, loading it fills the wall, and removing it
 * from the dashboard leaves the hub as empty as it was. On a site of its own without the demo data.
 */
let site: Site;

test.beforeAll(async () => {
  site = await startOwnSite('sample-data', () => ({ SEED_DEMO: 'false' }));
});

test.afterAll(async () => {
  await site?.stop();
});

// a failure shows what the site said: the request log and any error of the load
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) {
    await testInfo.attach('the site’s output', { body: site.logs.join('').slice(-20_000), contentType: 'text/plain' });
  }
});

test('loads the sample data from the empty wall and removes it from the dashboard', async ({ page }) => {
  test.setTimeout(90_000);
  // the toasts of the sample breakers opening may take the place of "Sample data loaded" at once
  const wasShown = await recordShownTexts(page);
  await signIn(page, ADMIN, site.url);

  await page.goto(`${site.url}/circuit-breakers`);
  await expect(page.getByText('No circuit breakers yet')).toBeVisible();
  const offer = page.getByRole('region', { name: 'Try the hub with sample data' });
  const loading = page.waitForResponse(
    (response) => response.url() === `${site.url}/api/sample-data` && response.request().method() === 'POST',
    { timeout: 15_000 },
  );
  await offer.getByRole('button', { name: 'Load sample data' }).click();
  const answer = await loading;
  expect(answer.status(), await answer.text()).toBe(201);
  await expect.poll(() => wasShown('Sample data loaded')).toBe(true);

  const tiles = page.getByTestId('breaker-tile');
  for (const name of ['Checkout API', 'Email Relay', 'Recommendations', 'Pricing Engine', 'Image Resizer', 'Report Export']) {
    await expect(tiles.filter({ has: page.getByRole('link', { name, exact: true }) })).toBeVisible();
  }
  await expect(page.getByText('No circuit breakers yet')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Remove sample data' })).toBeVisible();

  await page.goto(`${site.url}/dashboard`);
  await page.getByRole('button', { name: 'Remove sample data' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Remove sample data?' });
  await expect(
    dialog.getByText('6 breakers: Checkout API, Email Relay, Image Resizer, Pricing Engine, Recommendations, Report Export'),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect.poll(() => wasShown('Sample data removed')).toBe(true);
  await expect(page.getByRole('button', { name: 'Remove sample data' })).toHaveCount(0);

  await page.goto(`${site.url}/circuit-breakers`);
  await expect(page.getByText('No circuit breakers yet')).toBeVisible();
  await expect(page.getByTestId('breaker-tile')).toHaveCount(0);
  // the hub is as empty as before, so the offer is back
  await expect(page.getByRole('button', { name: 'Load sample data' })).toBeVisible();
});
