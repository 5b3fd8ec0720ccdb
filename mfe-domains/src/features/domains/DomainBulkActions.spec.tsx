/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { apiError, authUser } from '@cbh/test-support';
import { admin, clickAndSettle, domainsApi, polyfillRadix, renderPage, rowsOf } from './test-kit';

beforeAll(polyfillRadix);

const bulkAdmin = authUser({ email: 'ada@example.com', role: 'admin', permissions: ['domain_management', 'bulk_operations'] });
const portfolio = () => screen.findByRole('region', { name: 'Domain portfolio' });
const checkbox = (domain: string) => screen.getByRole('checkbox', { name: `Select ${domain}` }) as HTMLInputElement;
const toolbar = () => within(screen.getByRole('toolbar', { name: 'Actions on the chosen domains' }));

it('offers no row checkboxes without bulk_operations', async () => {
  domainsApi(admin);
  renderPage();
  await portfolio();
  expect(screen.queryByRole('checkbox')).toBeNull();
  expect(screen.queryByRole('toolbar')).toBeNull();
});

it('selects rows one by one or all shown, and verifies them after one confirmation naming how many and which', async () => {
  let body: unknown;
  const api = domainsApi(bulkAdmin, {
    'POST /api/domains/bulk': (sent: unknown) => {
      body = sent;
      return {
        results: [
          { id: 4, ok: true, status: 202 },
          { id: 3, ok: true, status: 202 },
        ],
      };
    },
  });
  renderPage();
  const table = await portfolio();
  expect(within(table).getAllByRole('columnheader')[0]!.textContent).toBe('Select');
  expect(rowsOf(table).map((row) => row[1])).toEqual(['new.example.test', 'old.example.test', 'blog.example.test', 'shop.example.test']);
  expect(
    toolbar()
      .getAllByRole('button')
      .map((button) => button.textContent),
  ).toEqual(['Verify', 'Delete']);
  expect(toolbar().getByText('0 selected')).toBeTruthy();

  fireEvent.click(toolbar().getByRole('checkbox', { name: 'Select all shown' }));
  expect(toolbar().getByText('4 selected')).toBeTruthy();
  fireEvent.click(checkbox('blog.example.test'));
  fireEvent.click(checkbox('shop.example.test'));
  expect(toolbar().getByText('2 selected')).toBeTruthy();

  fireEvent.click(toolbar().getByRole('button', { name: 'Verify' }));
  const dialog = within(await screen.findByRole('alertdialog', { name: 'Verify 2 domains?' }));
  expect(dialog.getByText(/^new\.example\.test and old\.example\.test\. Each one's TXT record is looked up again/)).toBeTruthy();
  await clickAndSettle(dialog.getByRole('button', { name: 'Verify 2 domains' }));
  await waitFor(() => expect(api.callsTo('POST', '/api/domains/bulk')).toHaveLength(1));
  expect(body).toEqual({ action: 'verify', ids: [4, 3] });
  expect(await screen.findByText('Verify: done')).toBeTruthy();
  expect(screen.getByText('2 sent for verification')).toBeTruthy();
  expect(toolbar().getByText('0 selected')).toBeTruthy();
});

it('deletes many, keeping the ones that failed chosen and saying why', async () => {
  domainsApi(bulkAdmin, {
    'POST /api/domains/bulk': {
      results: [
        { id: 2, ok: true, status: 204 },
        { id: 1, ok: false, status: 404, message: 'No domain with id 1' },
      ],
    },
  });
  renderPage();
  await portfolio();
  fireEvent.click(checkbox('blog.example.test'));
  fireEvent.click(checkbox('shop.example.test'));
  fireEvent.click(toolbar().getByRole('button', { name: 'Delete' }));
  const dialog = within(await screen.findByRole('alertdialog', { name: 'Delete 2 domains?' }));
  await clickAndSettle(dialog.getByRole('button', { name: 'Delete 2 domains' }));
  expect(await screen.findByText('Delete: not every domain changed')).toBeTruthy();
  expect(screen.getByText('1 deleted, 1 failed: No domain with id 1')).toBeTruthy();
  expect([checkbox('blog.example.test').checked, checkbox('shop.example.test').checked]).toEqual([false, true]);
});

it('says when the request itself was refused', async () => {
  domainsApi(bulkAdmin, { 'POST /api/domains/bulk': apiError(403, 'Requires the bulk_operations permission') });
  renderPage();
  await portfolio();
  fireEvent.click(checkbox('new.example.test'));
  fireEvent.click(toolbar().getByRole('button', { name: 'Verify' }));
  const dialog = within(await screen.findByRole('alertdialog', { name: 'Verify 1 domain?' }));
  await clickAndSettle(dialog.getByRole('button', { name: 'Verify 1 domain' }));
  expect(await screen.findByText('Requires the bulk_operations permission')).toBeTruthy();
  expect(checkbox('new.example.test').checked).toBe(true);
});
