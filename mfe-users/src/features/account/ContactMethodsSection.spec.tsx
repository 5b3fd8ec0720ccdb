/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import type { ContactMethodView, CreateContactMethod } from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { apiError, authUser, clickAndSettle, fakeApi, polyfillRadix, rowsOf } from '@cbh/test-support';
import { Toaster } from '@cbh/ui';
import { AccountPage } from './AccountPage';

beforeAll(polyfillRadix);

const ROUTE = '/api/account/contact-methods';
const me = authUser({ email: 'otto@example.com', role: 'operator', permissions: ['dashboard_view', 'circuit_breaker_view'] });
const EMAIL: ContactMethodView = { id: 'email', type: 'email', label: '', target: 'otto@example.com', createdAt: null };
const DISCORD: ContactMethodView = {
  id: '5d1c0c2e-8f4e-4a5b-9c1d-2e3f4a5b6c7d',
  type: 'discord',
  label: 'Phone',
  target: 'discord.com',
  createdAt: '2026-11-20T08:00:00.000Z',
};

/** The account page with a contact-methods API that keeps what is added and removed. */
function renderAccount(start: ContactMethodView[] = [EMAIL, DISCORD], routes: Record<string, unknown> = {}) {
  let methods = [...start];
  const api = fakeApi({
    'GET /api/auth/user': me,
    'GET /api/sessions': [],
    [`GET ${ROUTE}`]: () => methods,
    [`POST ${ROUTE}`]: (body: CreateContactMethod) => {
      const added: ContactMethodView = {
        id: '0f6a2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b',
        type: body.type,
        label: body.label ?? '',
        target: new URL(body.url).host,
        createdAt: '2026-11-25T10:00:00.000Z',
      };
      methods = [...methods, added];
      return Response.json(added, { status: 201 });
    },
    [`DELETE ${ROUTE}/${DISCORD.id}`]: () => {
      methods = methods.filter((method) => method.id !== DISCORD.id);
      return new Response(null, { status: 204 });
    },
    ...routes,
  });
  render(
    <Provider store={createAppStore()}>
      <MemoryRouter initialEntries={['/account']}>
        <AccountPage />
      </MemoryRouter>
      <Toaster />
    </Provider>,
  );
  return api;
}

const table = () => screen.findByRole('region', { name: 'Your contact methods' });

async function openAddDialog() {
  const section = within(await screen.findByRole('region', { name: 'Contact methods' }));
  await waitFor(() => expect((section.getByRole('button', { name: 'Add contact method' }) as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(section.getByRole('button', { name: 'Add contact method' }));
  return within(await screen.findByRole('dialog', { name: 'Add Contact Method' }));
}

afterEach(() => {
  // the toast store outlives the page: close what a test left open
  screen.queryAllByRole('button', { name: 'Close' }).forEach((button) => fireEvent.click(button));
});

it('lists the verified e-mail first, read-only, then the person’s channels by type, label and host', async () => {
  renderAccount();
  const region = await table();
  await waitFor(() => expect(rowsOf(region)).toHaveLength(2));
  const [email, discord] = rowsOf(region);
  expect(email!.slice(0, 3)).toEqual(['E-mailVerified', '—', 'otto@example.com']);
  expect(email!.at(-1)).toBe('Read-only');
  expect(discord!.slice(0, 3)).toEqual(['Discord', 'Phone', 'discord.com']);
  // the e-mail has no Remove; the channel's names the one it removes
  expect(
    within(region)
      .getAllByRole('button')
      .map((button) => button.textContent),
  ).toEqual(['Remove Discord Phone']);
});

it('adds a Slack contact method: sends the type, URL and label, and lists it by its host', async () => {
  const api = renderAccount();
  await table();
  const dialog = await openAddDialog();
  fireEvent.change(dialog.getByLabelText('Type'), { target: { value: 'slack' } });
  fireEvent.change(dialog.getByLabelText('URL'), { target: { value: ' https://hooks.slack.com/services/T000/B000/XXXX ' } });
  fireEvent.change(dialog.getByLabelText('Label (optional)'), { target: { value: 'Team room' } });
  await clickAndSettle(dialog.getByRole('button', { name: 'Add' }));

  expect(api.callsTo('POST', ROUTE).map((call) => call.body)).toEqual([
    { type: 'slack', url: 'https://hooks.slack.com/services/T000/B000/XXXX', label: 'Team room' },
  ]);
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(await screen.findByText('Contact Method Added')).toBeTruthy();
  const region = await table();
  await waitFor(() => expect(rowsOf(region)).toHaveLength(3));
  expect(rowsOf(region)[2]!.slice(0, 3)).toEqual(['Slack', 'Team room', 'hooks.slack.com']);
  // the URL, which holds the credentials, is not on the page
  expect(screen.queryByText(/XXXX/)).toBeNull();
});

it('names what is wrong with the URL before sending anything', async () => {
  const api = renderAccount();
  const dialog = await openAddDialog();
  fireEvent.change(dialog.getByLabelText('URL'), { target: { value: 'hooks.slack.com/services/T000' } });
  await clickAndSettle(dialog.getByRole('button', { name: 'Add' }));
  expect(dialog.getByText('URL: must be an http(s) URL')).toBeTruthy();
  expect(dialog.getByLabelText('URL').getAttribute('aria-invalid')).toBe('true');
  expect(api.callsTo('POST', ROUTE)).toEqual([]);
});

it('shows the API’s reason when it refuses the address, and keeps the form', async () => {
  const reason = 'url: private and loopback addresses are not allowed';
  renderAccount(undefined, { [`POST ${ROUTE}`]: apiError(400, reason) });
  const dialog = await openAddDialog();
  fireEvent.change(dialog.getByLabelText('Type'), { target: { value: 'webhook' } });
  fireEvent.change(dialog.getByLabelText('URL'), { target: { value: 'https://127.0.0.1/hook' } });
  await clickAndSettle(dialog.getByRole('button', { name: 'Add' }));
  expect((await dialog.findByRole('alert')).textContent).toBe(reason);
  expect(screen.getByRole('dialog', { name: 'Add Contact Method' })).toBeTruthy();
  expect((dialog.getByLabelText('URL') as HTMLInputElement).value).toBe('https://127.0.0.1/hook');
});

it('removes a channel after a confirmation, then lists the rest', async () => {
  const api = renderAccount();
  fireEvent.click(await screen.findByRole('button', { name: 'Remove Discord Phone' }));
  const confirm = within(await screen.findByRole('alertdialog', { name: 'Remove contact method' }));
  expect(confirm.getByText('Remove Discord ‘Phone’ (discord.com)? Escalations no longer reach you there.')).toBeTruthy();
  expect(api.callsTo('DELETE', `${ROUTE}/${DISCORD.id}`)).toEqual([]);
  await act(async () => fireEvent.click(confirm.getByRole('button', { name: 'Remove' })));
  await waitFor(() => expect(api.callsTo('DELETE', `${ROUTE}/${DISCORD.id}`)).toHaveLength(1));
  expect(await screen.findByText('Contact Method Removed')).toBeTruthy();
  await waitFor(async () => expect(rowsOf(await table())).toHaveLength(1));
});

it('offers no more once the person has five channels, and says why', async () => {
  const five = [1, 2, 3, 4, 5].map((n) => ({ ...DISCORD, id: `id-${n}`, label: `Room ${n}` }));
  renderAccount([EMAIL, ...five]);
  await waitFor(async () => expect(rowsOf(await table())).toHaveLength(6));
  expect((screen.getByRole('button', { name: 'Add contact method' }) as HTMLButtonElement).disabled).toBe(true);
  expect(screen.getByText(/You have 5 channels of your own, the most there may be: remove one to add another\./)).toBeTruthy();
});

it('says so when the contact methods cannot be loaded', async () => {
  renderAccount(undefined, { [`GET ${ROUTE}`]: apiError(403, 'Contact methods are managed in a signed-in session') });
  expect(
    await screen.findByText('The contact methods could not be loaded. Contact methods are managed in a signed-in session'),
  ).toBeTruthy();
});
