/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { apiError } from '@cbh/test-support';
import { admin, clickAndSettle, domainsApi, domainView, heldRoute, polyfillRadix, renderPage } from './test-kit';

beforeAll(polyfillRadix);

async function openAdd() {
  fireEvent.click(await screen.findByRole('button', { name: 'Add Domain' }));
  return within(await screen.findByRole('dialog', { name: 'Add Domain' }));
}

const added = () => Response.json(domainView({ id: 9, domain: 'fresh.example.test' }), { status: 201 });

it('has one Domain Name field with an example, and waits for a name', async () => {
  domainsApi(admin);
  renderPage();
  const dialog = await openAdd();
  const field = dialog.getByLabelText('Domain Name') as HTMLInputElement;
  expect(field.placeholder).toBe('example.com');
  const add = dialog.getByRole('button', { name: 'Add Domain' }) as HTMLButtonElement;
  expect(add.disabled).toBe(true);
  fireEvent.change(field, { target: { value: '   ' } });
  expect(add.disabled).toBe(true);
  fireEvent.change(field, { target: { value: 'fresh.example.test' } });
  expect(add.disabled).toBe(false);
  fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});

it("reads 'Adding...' while pending, then toasts, clears the field, closes and refreshes the lists", async () => {
  const held = heldRoute(added);
  const api = domainsApi(admin, { 'POST /api/domains': held.route });
  renderPage();
  const dialog = await openAdd();
  await waitFor(() => expect(api.callsTo('GET', '/api/domains')).toHaveLength(1));
  fireEvent.change(dialog.getByLabelText('Domain Name'), { target: { value: 'fresh.example.test' } });
  await clickAndSettle(dialog.getByRole('button', { name: 'Add Domain' }));

  const pending = dialog.getByRole('button', { name: 'Adding...' }) as HTMLButtonElement;
  expect(pending.disabled).toBe(true);
  await act(async () => held.release());

  expect(await screen.findByText('Domain Added')).toBeTruthy();
  expect(screen.getByText('Your domain has been added successfully.')).toBeTruthy();
  expect(api.callsTo('POST', '/api/domains').map((call) => call.body)).toEqual([{ domain: 'fresh.example.test' }]);
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  await waitFor(() => expect(api.callsTo('GET', '/api/domains')).toHaveLength(2));
  expect(api.callsTo('GET', '/api/ssl-certificates')).toHaveLength(2);

  const reopened = await openAdd();
  expect((reopened.getByLabelText('Domain Name') as HTMLInputElement).value).toBe('');
});

it.each([
  [400, 'domain: must be a bare domain name, without a scheme such as https://'],
  [409, 'Domain shop.example.test is already registered'],
])("adds the server's %i reason to the spec's words and keeps what was typed", async (status, message) => {
  domainsApi(admin, { 'POST /api/domains': apiError(status, message) });
  renderPage();
  const dialog = await openAdd();
  fireEvent.change(dialog.getByLabelText('Domain Name'), { target: { value: 'https://shop.example.test' } });
  await clickAndSettle(dialog.getByRole('button', { name: 'Add Domain' }));
  expect(await screen.findByText(`Failed to add domain. Please try again. ${message}.`)).toBeTruthy();
  expect(screen.getByText('Error')).toBeTruthy();
  expect(screen.getByRole('dialog', { name: 'Add Domain' })).toBeTruthy();
  expect((dialog.getByLabelText('Domain Name') as HTMLInputElement).value).toBe('https://shop.example.test');
});

it.each([
  ['no message', () => new Response('', { status: 502 })],
  ['a 500 with its message', apiError(500, 'Internal server error')],
  ['a 403 with its message', apiError(403, 'Forbidden resource')],
])('shows the generic message for any other failure (%s)', async (_case, route) => {
  domainsApi(admin, { 'POST /api/domains': route });
  renderPage();
  const dialog = await openAdd();
  fireEvent.change(dialog.getByLabelText('Domain Name'), { target: { value: 'x.example.test' } });
  await clickAndSettle(dialog.getByRole('button', { name: 'Add Domain' }));
  expect(await screen.findByText('Failed to add domain. Please try again.')).toBeTruthy();
  expect(screen.queryByText(/Internal server error|Forbidden resource/)).toBeNull();
});
