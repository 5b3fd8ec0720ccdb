/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { apiError, polyfillRadix, rowsOf } from '@cbh/test-support';
import { NO_ACCESS_TEXT } from './access';
import { admin, operator, PAGE, renderAt, statusApi } from './test-kit';

beforeAll(polyfillRadix);

const statusCalls = (api: ReturnType<typeof statusApi>) => api.calls.filter((call) => !call.path.startsWith('/api/auth/'));

it('lists each page with its visibility, its state in words and a link to its public page', async () => {
  statusApi(admin);
  renderAt('/status-pages');
  expect(await screen.findByRole('heading', { level: 1, name: 'Status Pages' })).toBeTruthy();
  const table = await screen.findByRole('table', { name: 'Status pages' });
  expect(rowsOf(table)).toEqual([
    ['Payments', 'payments', 'Public', 'Partial outage', '2', '/status/payments (opens in a new tab)'],
    ['Internal tools', 'internal', 'Private', 'Operational', '0', '/status/internal (opens in a new tab)'],
  ]);
  expect(within(table).getByRole('link', { name: 'Payments' }).getAttribute('href')).toBe('/status-pages/1');
  const publicLink = within(table).getByRole('link', { name: '/status/payments (opens in a new tab)' });
  expect(publicLink.getAttribute('href')).toBe('/status/payments');
  expect(publicLink.getAttribute('target')).toBe('_blank');
});

it('explains what a status page is while there is none', async () => {
  statusApi(admin, { 'GET /api/status-pages': [] });
  renderAt('/status-pages');
  const empty = within(await screen.findByRole('region', { name: 'No status pages yet' }));
  expect(empty.getByText(/tells the people who depend on a service whether it works/)).toBeTruthy();
  expect(empty.getByRole('button', { name: 'New status page' })).toBeTruthy();
});

it('creates a page from its title (the slug suggested from it), then opens it', async () => {
  const api = statusApi(admin, { 'POST /api/status-pages': () => Response.json({ ...PAGE, id: 1 }, { status: 201 }) });
  renderAt('/status-pages');
  fireEvent.click((await screen.findAllByRole('button', { name: 'New status page' }))[0]!);
  const dialog = within(await screen.findByRole('dialog', { name: 'New status page' }));
  fireEvent.change(dialog.getByLabelText('Title'), { target: { value: 'EU Checkout' } });
  expect((dialog.getByLabelText('Slug') as HTMLInputElement).value).toBe('eu-checkout');
  fireEvent.click(dialog.getByLabelText(/^Public/));
  await act(async () => void fireEvent.click(dialog.getByRole('button', { name: 'Create' })));
  await waitFor(() => expect(api.callsTo('POST', '/api/status-pages')).toHaveLength(1));
  expect(api.callsTo('POST', '/api/status-pages')[0]!.body).toEqual({ title: 'EU Checkout', slug: 'eu-checkout', public: true });
  expect(await screen.findByRole('heading', { level: 1, name: 'Payments' })).toBeTruthy();
  expect(await screen.findByText('Status Page Created')).toBeTruthy();
});

it('checks the slug as typed, and puts the server’s refusal under the field it names', async () => {
  statusApi(admin, { 'POST /api/status-pages': apiError(409, 'slug: is taken by another status page') });
  renderAt('/status-pages');
  fireEvent.click((await screen.findAllByRole('button', { name: 'New status page' }))[0]!);
  const dialog = within(await screen.findByRole('dialog', { name: 'New status page' }));
  fireEvent.change(dialog.getByLabelText('Title'), { target: { value: 'Payments' } });
  fireEvent.change(dialog.getByLabelText('Slug'), { target: { value: 'Pay Ments' } });
  expect(dialog.getByText(/Slug: must be lower-case letters/)).toBeTruthy();
  fireEvent.change(dialog.getByLabelText('Slug'), { target: { value: 'payments' } });
  await act(async () => void fireEvent.click(dialog.getByRole('button', { name: 'Create' })));
  expect(await dialog.findByText('Slug: is taken by another status page')).toBeTruthy();
  expect(dialog.getByLabelText('Slug').getAttribute('aria-invalid')).toBe('true');
});

it('tells an account without circuit_breaker_admin that access is restricted, and reads nothing', async () => {
  const api = statusApi(operator);
  renderAt('/status-pages');
  expect(await screen.findByText(NO_ACCESS_TEXT)).toBeTruthy();
  await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
  expect(statusCalls(api)).toEqual([]);
  expect(screen.queryByRole('button', { name: 'New status page' })).toBeNull();
});

it('asks a signed-out visitor to sign in', async () => {
  statusApi(null);
  renderAt('/status-pages');
  expect(await screen.findByText('Sign in to manage status pages.')).toBeTruthy();
  expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/api/login');
});
