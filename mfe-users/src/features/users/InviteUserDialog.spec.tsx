/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { apiError } from '@cbh/test-support';
import { clickAndSettle, heldRoute, polyfillRadix, renderPage, superAdmin, usersApi, userView } from './test-kit';

beforeAll(polyfillRadix);

async function openInvite() {
  fireEvent.click(await screen.findByRole('button', { name: 'Invite User' }));
  return within(await screen.findByRole('dialog', { name: 'Invite User' }));
}

const invited = () => Response.json(userView({ id: 'new', email: 'new@example.com', activatedAt: null }), { status: 201 });

it('has an e-mail field, a role select defaulting to Viewer with the four roles, and waits for an address', async () => {
  usersApi(superAdmin);
  renderPage();
  const dialog = await openInvite();
  const email = dialog.getByLabelText('Email Address') as HTMLInputElement;
  expect(email.type).toBe('email');
  const role = dialog.getByLabelText('Role') as HTMLSelectElement;
  expect(role.value).toBe('viewer');
  expect(Array.from(role.options).map((option) => [option.value, option.textContent])).toEqual([
    ['viewer', 'Viewer'],
    ['operator', 'Operator'],
    ['admin', 'Administrator'],
    ['super_admin', 'Super Administrator'],
  ]);
  const send = dialog.getByRole('button', { name: 'Send Invitation' }) as HTMLButtonElement;
  expect(send.disabled).toBe(true);
  fireEvent.change(email, { target: { value: '   ' } });
  expect(send.disabled).toBe(true);
  fireEvent.change(email, { target: { value: 'new@example.com' } });
  expect(send.disabled).toBe(false);
  fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});

it('sends the invitation with the default role, shows Sending... meanwhile, then toasts, resets and closes', async () => {
  const held = heldRoute(invited);
  const api = usersApi(superAdmin, { 'POST /api/users/invite': held.route });
  renderPage();
  const dialog = await openInvite();
  fireEvent.change(dialog.getByLabelText('Email Address'), { target: { value: 'new@example.com' } });
  await clickAndSettle(dialog.getByRole('button', { name: 'Send Invitation' }));

  const pending = dialog.getByRole('button', { name: 'Sending...' }) as HTMLButtonElement;
  expect(pending.disabled).toBe(true);
  await act(async () => held.release());

  expect(await screen.findByText('User Invited')).toBeTruthy();
  expect(screen.getByText('Invitation sent successfully.')).toBeTruthy();
  expect(api.callsTo('POST', '/api/users/invite').map((call) => call.body)).toEqual([{ email: 'new@example.com', role: 'viewer' }]);
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  // the list is read again so the new account shows up: RTK Query invalidates once no query is in flight (the list,
  // the figures and the page's other reads settle first)
  await waitFor(() => expect(api.calls.filter((call) => call.method === 'GET' && call.path.startsWith('/api/users?'))).toHaveLength(2));

  const reopened = await openInvite();
  expect((reopened.getByLabelText('Email Address') as HTMLInputElement).value).toBe('');
  expect((reopened.getByLabelText('Role') as HTMLSelectElement).value).toBe('viewer');
});

it('sends the chosen role', async () => {
  const api = usersApi(superAdmin, { 'POST /api/users/invite': invited });
  renderPage();
  const dialog = await openInvite();
  fireEvent.change(dialog.getByLabelText('Email Address'), { target: { value: 'op@example.com' } });
  fireEvent.change(dialog.getByLabelText('Role'), { target: { value: 'operator' } });
  await clickAndSettle(dialog.getByRole('button', { name: 'Send Invitation' }));
  await screen.findByText('User Invited');
  expect(api.callsTo('POST', '/api/users/invite').map((call) => call.body)).toEqual([{ email: 'op@example.com', role: 'operator' }]);
});

it('adds the server’s reason when the address is taken and keeps the dialog open with what was typed', async () => {
  usersApi(superAdmin, { 'POST /api/users/invite': apiError(409, 'A user with the e-mail ada@example.com already exists') });
  renderPage();
  const dialog = await openInvite();
  fireEvent.change(dialog.getByLabelText('Email Address'), { target: { value: 'ada@example.com' } });
  await clickAndSettle(dialog.getByRole('button', { name: 'Send Invitation' }));
  expect(await screen.findByText('Failed to invite user. A user with the e-mail ada@example.com already exists.')).toBeTruthy();
  expect(screen.getByText('Error')).toBeTruthy();
  expect(screen.getByRole('dialog', { name: 'Invite User' })).toBeTruthy();
  expect((dialog.getByLabelText('Email Address') as HTMLInputElement).value).toBe('ada@example.com');
  expect((dialog.getByRole('button', { name: 'Send Invitation' }) as HTMLButtonElement).disabled).toBe(false);
});

it('falls back to a generic message when the server gives none', async () => {
  usersApi(superAdmin, { 'POST /api/users/invite': () => new Response('', { status: 500 }) });
  renderPage();
  const dialog = await openInvite();
  fireEvent.change(dialog.getByLabelText('Email Address'), { target: { value: 'x@example.com' } });
  await clickAndSettle(dialog.getByRole('button', { name: 'Send Invitation' }));
  expect(await screen.findByText('Failed to invite user.')).toBeTruthy();
});
