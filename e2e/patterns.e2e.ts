import { expect, test, type Page } from './support/test';
import { seriousViolations } from './support/axe';

/** The six pattern demonstrations against the production build, as a visitor who is not signed in. */

async function openDemo(page: Page, path: string, heading: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

/** axe with each of the page's top-level tabs open in turn. */
async function axeOnEveryTab(page: Page, where: string) {
  const results = [];
  const tabs = page.getByRole('tablist').first().getByRole('tab');
  for (const name of await tabs.allTextContents()) {
    await tabs.filter({ hasText: name }).first().click();
    results.push(await seriousViolations(page, `${where}: ${name}`));
  }
  return results.filter((result) => result.violations.length > 0);
}

test('CQRS: a command goes from pending to executed or failed, and a query reports its time', async ({ page }) => {
  await openDemo(page, '/patterns/cqrs', 'CQRS');
  await page.getByRole('tab', { name: 'Commands (Write)' }).click();
  await page.getByLabel('Order ID').fill('');
  await expect(page.getByRole('button', { name: 'Create Order' })).toBeDisabled();
  await expect(page.getByText('Enter an order ID')).toBeVisible();
  await page.getByLabel('Order ID').fill('order-42');
  await page.getByRole('button', { name: 'Create Order' }).click();
  const status = page.getByTestId('command-status').first();
  await expect(status).toHaveText('pending');
  await expect(status).toHaveText(/^(executed|failed)$/, { timeout: 3000 });
  await page.getByRole('tab', { name: 'Queries (Read)' }).click();
  await page.getByRole('button', { name: 'Get Orders' }).click();
  await expect(page.getByTestId('execution-time').first()).toHaveText(/^\d{3} ms$/);
  expect(await axeOnEveryTab(page, 'CQRS')).toEqual([]);
});

test('event sourcing: add an item, travel in time, take a snapshot', async ({ page }) => {
  await openDemo(page, '/patterns/event-sourcing', 'Event Sourcing');
  await page.getByRole('tab', { name: 'Event Stream' }).click();
  await page.getByRole('button', { name: 'Add Item' }).click();
  await page.getByRole('tab', { name: 'Time Travel' }).click();
  await expect(page.getByText('Viewing state at event 4 of 4')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Timeline of 4 events, viewing after event 4' })).toBeVisible();
  await page.getByRole('button', { name: 'Beginning' }).click();
  await expect(page.getByText('Viewing state at event 0 of 4')).toBeVisible();
  await page.getByRole('button', { name: 'Current' }).click();
  await page.getByRole('tab', { name: 'Aggregates' }).click();
  await page.getByRole('button', { name: 'Create Snapshot' }).click();
  await page.getByRole('tab', { name: 'Snapshots' }).click();
  await expect(page.getByRole('list', { name: 'Snapshots' }).getByRole('listitem')).toHaveCount(1);
  expect(await axeOnEveryTab(page, 'Event Sourcing')).toEqual([]);
});

test('microservices: scaling stops at one instance, and a breaker cycles through its states', async ({ page }) => {
  await openDemo(page, '/patterns/microservices', 'Microservices');
  await expect(page.getByRole('img', { name: /Service map of 6 services/ })).toBeVisible();
  await page.getByRole('tab', { name: 'Services' }).click();
  const payment = page.getByRole('region', { name: 'Payment Service' });
  await payment.getByRole('button', { name: 'Scale Down Payment Service' }).click();
  await expect(payment.getByTestId('instances')).toHaveText('1');
  await expect(payment.getByRole('button', { name: 'Scale Down Payment Service' })).toBeDisabled();
  await page.getByRole('tab', { name: 'Circuit Breakers' }).click();
  const state = page.getByTestId('breaker-user');
  for (const next of ['OPEN', 'HALF_OPEN', 'CLOSED']) {
    await page.getByRole('button', { name: 'Toggle Circuit Breaker of User Service' }).click();
    await expect(state).toHaveText(next);
  }
  await page.getByRole('tab', { name: 'Communication' }).click();
  await expect(page.getByRole('list', { name: 'Live calls' }).getByRole('listitem').first()).toBeVisible({ timeout: 5000 });
  expect(await axeOnEveryTab(page, 'Microservices')).toEqual([]);
  // the breaker tab leads to the lesson that runs the same state machine
  await page.getByRole('tab', { name: 'Circuit Breakers' }).click();
  await page.getByRole('link', { name: 'breaker lesson on the learning page' }).click();
  await expect(page.getByRole('heading', { name: 'How a Circuit Breaker Works' })).toBeInViewport();
});

test('saga: a run ends completed or compensated', async ({ page }) => {
  await openDemo(page, '/patterns/saga', 'Saga');
  await page.getByRole('button', { name: 'Start Account Creation' }).click();
  await page.getByRole('tab', { name: 'Saga Executions' }).click();
  await expect(page.getByTestId('saga-status')).toHaveText(/^(completed|compensated)$/, { timeout: 30_000 });
  expect(await axeOnEveryTab(page, 'Saga')).toEqual([]);
});

test('domain-driven design: add a model to a context and publish its event', async ({ page }) => {
  await openDemo(page, '/patterns/domain-driven-design', 'Domain-Driven Design');
  await page.getByRole('tab', { name: 'Domain Models' }).click();
  await expect(page.getByRole('button', { name: 'Add Model' })).toBeDisabled();
  // Chromium names a label-wrapped select with its chosen option too; the Bounded Contexts panel is named with a capital C
  await page.getByLabel(/^Bounded context/).selectOption('order-management');
  await page.getByLabel('Model name').fill('Invoice');
  await page.getByRole('button', { name: 'Add Model' }).click();
  const invoice = page.getByRole('region', { name: 'Invoice model' });
  await invoice.getByRole('tab', { name: 'Events' }).click();
  await invoice.getByRole('button', { name: 'Publish InvoiceCreated' }).click();
  await page.getByRole('tab', { name: 'Domain Events' }).click();
  await expect(page.getByRole('list', { name: 'Published domain events' })).toContainText('InvoiceCreated');
  expect(await axeOnEveryTab(page, 'Domain-Driven Design')).toEqual([]);
});

test('hexagonal: add a port and toggle an adapter', async ({ page }) => {
  await openDemo(page, '/patterns/hexagonal-architecture', 'Hexagonal Architecture');
  await page.getByRole('tab', { name: 'Ports' }).click();
  await page.getByLabel('Port name').fill('Billing');
  await page.getByLabel('Type').selectOption('secondary');
  await page.getByRole('button', { name: 'Add Port' }).click();
  await expect(page.getByRole('region', { name: 'Secondary ports (outbound)' })).toContainText('Billing');
  await page.getByRole('tab', { name: 'Adapters' }).click();
  const rest = page.getByRole('region', { name: 'REST API adapter' });
  await rest.getByRole('button', { name: 'Toggle REST API' }).click();
  await expect(rest.getByTestId('adapter-status')).toHaveText('inactive');
  expect(await axeOnEveryTab(page, 'Hexagonal Architecture')).toEqual([]);
});
