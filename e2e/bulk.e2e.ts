import { expect, test } from './support/test';
import { replicasForTheseTests } from './support/server';
import { signIn } from './support/sign-in';
import { breakersMadeHere, breakerTile as tile } from './support/breakers';
import { shoot } from './support/shots';

const createBreaker = breakersMadeHere();

test.describe('with a second API replica', () => {
  const replicas = replicasForTheseTests('second');

  test('forcing 3 breakers open at once from the wall turns their 3 tiles red on a browser watching the other replica', async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    // the bootstrap super admin holds bulk_operations and the breakers' permissions
    await signIn(page);
    const names = ['Bulk journey A', 'Bulk journey B', 'Bulk journey C'];
    for (const name of names) await createBreaker(page.request, name);
    const untouched = await createBreaker(page.request, 'Bulk journey D');

    // someone watching the wall through the other replica, in a browser of their own
    const elsewhere = await browser.newContext({ baseURL: replicas.second.url });
    const watcher = await elsewhere.newPage();
    await signIn(watcher);
    await watcher.goto('/circuit-breakers');
    for (const name of [...names, untouched.name]) await expect(tile(watcher, name)).toHaveAttribute('data-state', 'CLOSED');

    await page.goto('/circuit-breakers');
    const toolbar = page.getByRole('toolbar', { name: 'Actions on the chosen breakers' });
    await expect(toolbar).toContainText('0 selected');
    for (const name of names) await page.getByRole('checkbox', { name: `Select ${name}`, exact: true }).check();
    await expect(toolbar).toContainText('3 selected');
    for (const name of names) await expect(tile(page, name)).toHaveAttribute('data-selected', 'true');

    await toolbar.getByRole('button', { name: 'Force open' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Force open 3 breakers?' });
    await expect(confirm).toContainText('Bulk journey A, Bulk journey B and Bulk journey C.');
    await expect(confirm).toContainText('refused at once');
    await confirm.getByRole('button', { name: 'Force open 3 breakers' }).click();
    await expect(page.getByText('3 forced open').first()).toBeVisible();
    await expect(confirm).toHaveCount(0);
    await expect(toolbar).toContainText('0 selected');

    // live on the other replica: the 3 tiles red, their override shown, the fourth untouched
    for (const name of names) {
      await expect(tile(watcher, name)).toHaveAttribute('data-state', 'OPEN', { timeout: 5000 });
      await expect(tile(watcher, name).getByTestId('override-badge')).toHaveText('Override: forced open');
    }
    await expect(tile(watcher, untouched.name)).toHaveAttribute('data-state', 'CLOSED');
    await shoot(watcher, 'bulk-force-open-second-replica', { fullPage: true });

    // and back: Reset the same 3 from the wall, chosen with Select all shown under the Open filter
    await page.getByRole('combobox', { name: /^State/ }).selectOption('OPEN');
    for (const name of names) await expect(tile(page, name)).toBeVisible();
    await toolbar.getByRole('checkbox', { name: 'Select all shown' }).check();
    // every open breaker shown is chosen, ours among them; unchosen again, then only ours
    for (const name of names) await expect(page.getByRole('checkbox', { name: `Select ${name}`, exact: true })).toBeChecked();
    await toolbar.getByRole('checkbox', { name: 'Select all shown' }).uncheck();
    await expect(toolbar).toContainText('0 selected');
    for (const name of names) await page.getByRole('checkbox', { name: `Select ${name}`, exact: true }).check();
    await toolbar.getByRole('button', { name: 'Reset' }).click();
    await page.getByRole('alertdialog', { name: 'Reset 3 breakers?' }).getByRole('button', { name: 'Reset 3 breakers' }).click();
    await expect(page.getByText('3 reset').first()).toBeVisible();
    for (const name of names) await expect(tile(watcher, name)).toHaveAttribute('data-state', 'CLOSED', { timeout: 5000 });
    await elsewhere.close();
  });
});
