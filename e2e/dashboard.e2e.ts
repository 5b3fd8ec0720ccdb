import { expect, test } from './support/test';
import { signIn } from './support/sign-in';
import { shoot } from './support/shots';

test('the dashboard shows the figures the API reports, for a signed-in account', async ({ page }) => {
  await signIn(page);

  await page.getByRole('banner').getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByText('System Operational')).toBeVisible();
  const stats = await (await page.request.get('/api/dashboard/stats')).json();
  const card = (name: string) => page.getByRole('region', { name });
  await expect(card('Active Circuit Breakers')).toContainText(String(stats.activeCircuitBreakers));
  await expect(card('Total Requests')).toContainText(stats.totalRequests.toLocaleString('en'));
  await expect(card('Managed Domains')).toContainText(String(stats.managedDomains));
  await expect(card('System Uptime')).toContainText(stats.systemUptime);
  await expect(page.getByRole('link', { name: 'User Management' }).last()).toHaveAttribute('href', '/users');
  await expect(card('Recent Activity')).toBeVisible();
  await shoot(page, 'dashboard', { fullPage: true });
});

test('an admin creates a circuit breaker from the dashboard’s quick action', async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Create Circuit Breaker' }).click();
  await expect(page).toHaveURL(/\/circuit-breakers\/new$/);
  await page.getByLabel('Name').fill('Checkout Bulkhead');
  await page.getByLabel('Type').selectOption('bulkhead');
  await page.getByLabel('Max concurrent calls').fill('4');
  await page.getByRole('button', { name: 'Create Circuit Breaker' }).click();
  await expect(page.getByText('Circuit Breaker Created').first()).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  const breakers = await (await page.request.get('/api/circuit-breakers')).json();
  expect(breakers).toContainEqual(
    expect.objectContaining({ name: 'Checkout Bulkhead', type: 'bulkhead', maxConcurrentCalls: 4, timeout: 30_000, state: 'CLOSED' }),
  );
});
