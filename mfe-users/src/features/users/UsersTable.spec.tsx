/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { PERMISSIONS, permissionLabel, ROLE_DEFAULT_PERMISSIONS } from '@cbh/contracts';
import { apiError, authUser } from '@cbh/test-support';
import { clickAndSettle, heldRoute, polyfillRadix, renderPage, superAdmin, usersApi, userView, toastSpy } from './test-kit';

beforeAll(polyfillRadix);

const row = (id: string) => within(screen.getByTestId(`user-row-${id}`));
const updated = () => userView({ id: 'ada', email: 'ada@example.com' });

async function openFor(action: 'Role' | 'Permissions' | 'End sessions' | 'Delete', email: string, dialogName: string, role = 'dialog') {
  fireEvent.click(await screen.findByRole('button', { name: `Actions for ${email}` }));
  fireEvent.click(await screen.findByRole('button', { name: action === 'Role' ? 'Change role' : action }));
  return within(await screen.findByRole(role, { name: dialogName }));
}

const describedBy = (element: HTMLElement) => document.getElementById(element.getAttribute('aria-describedby') ?? '')?.textContent;

/** A row's action in its menu, the menu opened. */
async function ownAction(action: string, email: string) {
  fireEvent.click(await screen.findByRole('button', { name: `Actions for ${email}` }));
  return (await screen.findByRole('button', { name: action })) as HTMLButtonElement;
}

describe('Edit User Role', () => {
  it('shows the current role and sends the chosen role with its default permissions', async () => {
    const held = heldRoute(() => Response.json(updated()));
    const api = usersApi(superAdmin, { 'PATCH /api/users/ada': held.route });
    renderPage();
    const dialog = await openFor('Role', 'ada@example.com', 'Edit User Role');
    expect(dialog.getByText(/Current role/).textContent).toContain('Administrator');
    const select = dialog.getByLabelText('Role') as HTMLSelectElement;
    expect(select.value).toBe('admin');
    fireEvent.change(select, { target: { value: 'operator' } });
    await clickAndSettle(dialog.getByRole('button', { name: 'Save' }));
    expect((dialog.getByRole('button', { name: 'Saving...' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => held.release());

    expect(await screen.findByText('User Updated')).toBeTruthy();
    expect(screen.getByText('User information updated successfully.')).toBeTruthy();
    expect(api.callsTo('PATCH', '/api/users/ada').map((call) => call.body)).toEqual([
      { role: 'operator', permissions: [...ROLE_DEFAULT_PERMISSIONS.operator] },
    ]);
    expect(ROLE_DEFAULT_PERMISSIONS.operator).toEqual([
      'dashboard_view',
      'circuit_breaker_view',
      'circuit_breaker_operate',
      'metrics_view',
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('sends every permission for super_admin', async () => {
    const api = usersApi(superAdmin, { 'PATCH /api/users/pat': () => Response.json(updated()) });
    renderPage();
    const dialog = await openFor('Role', 'pat@example.com', 'Edit User Role');
    fireEvent.change(dialog.getByLabelText('Role'), { target: { value: 'super_admin' } });
    await clickAndSettle(dialog.getByRole('button', { name: 'Save' }));
    await screen.findByText('User Updated');
    expect(api.callsTo('PATCH', '/api/users/pat')[0]!.body).toEqual({ role: 'super_admin', permissions: [...PERMISSIONS] });
  });

  it('adds the server’s reason to the spec’s words on failure and stays open', async () => {
    usersApi(superAdmin, { 'PATCH /api/users/root': apiError(409, 'The last active super_admin cannot be demoted') });
    renderPage();
    const dialog = await openFor('Role', 'root@example.com', 'Edit User Role');
    fireEvent.change(dialog.getByLabelText('Role'), { target: { value: 'viewer' } });
    await clickAndSettle(dialog.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to update user. The last active super_admin cannot be demoted.')).toBeTruthy();
    expect(toastSpy).toHaveBeenLastCalledWith({
      title: 'Error',
      description: 'Failed to update user. The last active super_admin cannot be demoted.',
      variant: 'destructive',
    });
    expect(screen.getByRole('dialog', { name: 'Edit User Role' })).toBeTruthy();
  });

  it('falls back to a generic message, and shows an unknown current role by its raw name', async () => {
    usersApi(superAdmin, { 'PATCH /api/users/odd': () => new Response('', { status: 500 }) });
    renderPage();
    const dialog = await openFor('Role', 'odd@example.com', 'Edit User Role');
    expect(dialog.getByText(/Current role/).textContent).toContain('auditor');
    await clickAndSettle(dialog.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to update user.')).toBeTruthy();
  });
});

describe('Edit User Permissions', () => {
  it('has a switch per permission, counts the selection and sends it', async () => {
    const held = heldRoute(() => Response.json(updated()));
    const api = usersApi(superAdmin, { 'PATCH /api/users/ada/permissions': held.route });
    renderPage();
    const dialog = await openFor('Permissions', 'ada@example.com', 'Edit User Permissions');
    const switches = dialog.getAllByRole('switch');
    expect(switches.map((control) => control.getAttribute('aria-label'))).toEqual(
      PERMISSIONS.map((key) => `${permissionLabel(key)} (${key})`),
    );
    // ada holds dashboard_view, metrics_view and circuit_breaker_view
    expect(dialog.getByText('Selected permissions (3)')).toBeTruthy();
    expect(dialog.getByRole('switch', { name: /metrics_view\b/ }).getAttribute('aria-checked')).toBe('true');

    fireEvent.click(dialog.getByRole('switch', { name: /audit_access\b/ }));
    fireEvent.click(dialog.getByRole('switch', { name: /metrics_view\b/ }));
    expect(dialog.getByText('Selected permissions (3)')).toBeTruthy();
    fireEvent.click(dialog.getByRole('switch', { name: /export_data\b/ }));
    expect(dialog.getByText('Selected permissions (4)')).toBeTruthy();
    const summary = within(dialog.getByRole('region', { name: 'Selected permissions' }));
    expect(summary.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'View dashboard',
      'View circuit breakers',
      'Read the audit log',
      'Export data',
    ]);

    await clickAndSettle(dialog.getByRole('button', { name: 'Save Permissions' }));
    expect((dialog.getByRole('button', { name: 'Saving...' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => held.release());
    expect(await screen.findByText('Permissions Updated')).toBeTruthy();
    expect(screen.getByText('User permissions updated successfully.')).toBeTruthy();
    expect(api.callsTo('PATCH', '/api/users/ada/permissions').map((call) => call.body)).toEqual([
      { permissions: ['dashboard_view', 'circuit_breaker_view', 'audit_access', 'export_data'] },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says when nothing is selected and can send an empty list', async () => {
    const api = usersApi(superAdmin, { 'PATCH /api/users/pat/permissions': () => Response.json(updated()) });
    renderPage();
    const dialog = await openFor('Permissions', 'pat@example.com', 'Edit User Permissions');
    fireEvent.click(dialog.getByRole('switch', { name: /dashboard_view\b/ }));
    fireEvent.click(dialog.getByRole('switch', { name: /circuit_breaker_view\b/ }));
    expect(dialog.getByText('Selected permissions (0)')).toBeTruthy();
    expect(dialog.getByText('No permissions selected')).toBeTruthy();
    await clickAndSettle(dialog.getByRole('button', { name: 'Save Permissions' }));
    await screen.findByText('Permissions Updated');
    expect(api.callsTo('PATCH', '/api/users/pat/permissions')[0]!.body).toEqual({ permissions: [] });
  });

  it('adds the server’s reason to the spec’s words and stays open', async () => {
    usersApi(superAdmin, { 'PATCH /api/users/ada/permissions': apiError(403, 'You cannot grant system_admin, which you do not hold') });
    renderPage();
    const dialog = await openFor('Permissions', 'ada@example.com', 'Edit User Permissions');
    await clickAndSettle(dialog.getByRole('button', { name: 'Save Permissions' }));
    expect(await screen.findByText('Failed to update permissions. You cannot grant system_admin, which you do not hold.')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Edit User Permissions' })).toBeTruthy();
  });

  it('falls back to a generic message', async () => {
    usersApi(superAdmin, { 'PATCH /api/users/ada/permissions': () => new Response('', { status: 500 }) });
    renderPage();
    const dialog = await openFor('Permissions', 'ada@example.com', 'Edit User Permissions');
    await clickAndSettle(dialog.getByRole('button', { name: 'Save Permissions' }));
    expect(await screen.findByText('Failed to update permissions.')).toBeTruthy();
  });

  it('cancels without sending anything', async () => {
    const api = usersApi(superAdmin);
    renderPage();
    const dialog = await openFor('Permissions', 'ada@example.com', 'Edit User Permissions');
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.filter((call) => call.method === 'PATCH')).toEqual([]);
  });
});

describe('active status', () => {
  it('is disabled on the signed-in user’s own row, with the reason in a tooltip on focus', async () => {
    const api = usersApi(superAdmin);
    renderPage();
    const own = (await screen.findByRole('switch', { name: 'Active: root@example.com' })) as HTMLButtonElement;
    expect(own.disabled).toBe(true);
    expect((row('ada').getByRole('switch') as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(own);
    // the focusable wrapper carries the explanation, since the disabled switch gets no events
    const anchor = own.parentElement!;
    expect(anchor.getAttribute('tabindex')).toBe('0');
    act(() => anchor.focus());
    expect((await screen.findByRole('tooltip')).textContent).toBe('You cannot change your own status');
    expect(api.calls.filter((call) => call.method === 'PATCH')).toEqual([]);
  });

  it('sends the new status and confirms it', async () => {
    const api = usersApi(superAdmin, { 'PATCH /api/users/ivan/status': () => Response.json(updated()) });
    renderPage();
    await clickAndSettle(await screen.findByRole('switch', { name: 'Active: ivan@example.com' }));
    expect(await screen.findByText('User Status Updated')).toBeTruthy();
    expect(screen.getByText('User status changed successfully.')).toBeTruthy();
    expect(api.callsTo('PATCH', '/api/users/ivan/status').map((call) => call.body)).toEqual([{ isActive: true }]);
  });

  it('deactivates an active user', async () => {
    const api = usersApi(superAdmin, { 'PATCH /api/users/ada/status': () => Response.json(updated()) });
    renderPage();
    await clickAndSettle(await screen.findByRole('switch', { name: 'Active: ada@example.com' }));
    await screen.findByText('User Status Updated');
    expect(api.callsTo('PATCH', '/api/users/ada/status')[0]!.body).toEqual({ isActive: false });
  });

  it('adds the server’s reason to the spec’s words, or gives those alone, when it fails', async () => {
    usersApi(superAdmin, {
      'PATCH /api/users/ada/status': apiError(409, 'The last active super_admin cannot be deactivated'),
      'PATCH /api/users/ivan/status': () => new Response('', { status: 500 }),
    });
    renderPage();
    await clickAndSettle(await screen.findByRole('switch', { name: 'Active: ada@example.com' }));
    expect(await screen.findByText('Failed to update user. The last active super_admin cannot be deactivated.')).toBeTruthy();
    await clickAndSettle(screen.getByRole('switch', { name: 'Active: ivan@example.com' }));
    expect(await screen.findByText('Failed to update user.')).toBeTruthy();
    expect(toastSpy).toHaveBeenLastCalledWith({ title: 'Error', description: 'Failed to update user.', variant: 'destructive' });
  });
});

describe('delete', () => {
  it('asks first, and sends DELETE only once confirmed', async () => {
    const api = usersApi(superAdmin, { 'DELETE /api/users/ada': () => new Response(null, { status: 204 }) });
    renderPage();
    let confirm = await openFor('Delete', 'ada@example.com', 'Delete user', 'alertdialog');
    expect(confirm.getByText('Delete Ada Lovelace (ada@example.com)? This removes the account and ends its sessions.')).toBeTruthy();
    fireEvent.click(confirm.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.callsTo('DELETE', '/api/users/ada')).toEqual([]);

    confirm = await openFor('Delete', 'ada@example.com', 'Delete user', 'alertdialog');
    expect(api.callsTo('DELETE', '/api/users/ada')).toEqual([]);
    await clickAndSettle(confirm.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User Deleted')).toBeTruthy();
    expect(screen.getByText('User removed from system.')).toBeTruthy();
    expect(api.callsTo('DELETE', '/api/users/ada')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('names a user without a name by e-mail, and reports the server’s reason, else a generic message', async () => {
    usersApi(superAdmin, {
      'DELETE /api/users/pat': apiError(404, 'No user with id pat'),
      'DELETE /api/users/ivan': () => new Response('', { status: 500 }),
    });
    renderPage();
    let confirm = await openFor('Delete', 'pat@example.com', 'Delete user', 'alertdialog');
    expect(confirm.getByText('Delete pat@example.com? This removes the account and ends its sessions.')).toBeTruthy();
    await clickAndSettle(confirm.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No user with id pat')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    confirm = await openFor('Delete', 'ivan@example.com', 'Delete user', 'alertdialog');
    await clickAndSettle(confirm.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete user.')).toBeTruthy();
  });

  it('is not offered on the signed-in user’s own row', async () => {
    usersApi(superAdmin);
    renderPage();
    const own = await ownAction('Delete', 'root@example.com');
    expect(own.disabled).toBe(true);
    expect(describedBy(own)).toBe('You cannot delete your own account');
  });
});

describe('end sessions', () => {
  it('asks first, then signs the account out everywhere and says how many sessions ended and tokens were revoked', async () => {
    const api = usersApi(superAdmin, { 'DELETE /api/users/ada/sessions': () => Response.json({ ended: 3, revokedTokens: 2 }) });
    renderPage();
    let confirm = await openFor('End sessions', 'ada@example.com', 'End sessions', 'alertdialog');
    expect(
      confirm.getByText(
        'Sign Ada Lovelace (ada@example.com) out everywhere? Every browser they are signed in on has to sign in again, and their access tokens are revoked.',
      ),
    ).toBeTruthy();
    fireEvent.click(confirm.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.callsTo('DELETE', '/api/users/ada/sessions')).toEqual([]);

    confirm = await openFor('End sessions', 'ada@example.com', 'End sessions', 'alertdialog');
    await clickAndSettle(confirm.getByRole('button', { name: 'End sessions' }));
    expect(await screen.findByText('Sessions Ended')).toBeTruthy();
    expect(screen.getByText('3 sessions ended, 2 access tokens revoked.')).toBeTruthy();
    expect(api.callsTo('DELETE', '/api/users/ada/sessions')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('reports the server’s reason, and is not offered on one’s own row', async () => {
    usersApi(superAdmin, { 'DELETE /api/users/pat/sessions': apiError(404, 'No user with id pat') });
    renderPage();
    const confirm = await openFor('End sessions', 'pat@example.com', 'End sessions', 'alertdialog');
    await clickAndSettle(confirm.getByRole('button', { name: 'End sessions' }));
    expect(await screen.findByText('No user with id pat')).toBeTruthy();
    expect(toastSpy).toHaveBeenLastCalledWith({ title: 'Error', description: 'No user with id pat', variant: 'destructive' });

    const own = await ownAction('End sessions', 'root@example.com');
    expect(own.disabled).toBe(true);
    expect(describedBy(own)).toBe('You cannot end your own sessions here');
  });
});

describe('accounts the signed-in user may not change', () => {
  const manager = authUser({
    email: 'mia@example.com',
    role: 'admin',
    permissions: [...ROLE_DEFAULT_PERMISSIONS.admin, 'user_management'],
  });

  it('offer no control, with the server’s reason beside each, while accounts within reach keep theirs', async () => {
    const api = usersApi(manager);
    renderPage();
    const inMenu = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
    const rootSwitch = (await screen.findByRole('switch', { name: 'Active: root@example.com' })) as HTMLButtonElement;
    expect(rootSwitch.disabled).toBe(true);
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for root@example.com' }));
    const controls = ['Change role', 'Permissions', 'End sessions', 'Delete'].map(inMenu);
    for (const control of controls) {
      expect(control.disabled).toBe(true);
      expect(describedBy(control)).toBe('Only a super_admin can change or delete a super_admin');
      fireEvent.click(control);
    }
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);

    fireEvent.keyDown(controls[0]!, { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'Actions for ada@example.com' }));
    for (const control of ['Change role', 'Permissions', 'Delete'].map(inMenu)) expect(control.disabled).toBe(false);
    expect((row('ada').getByRole('switch') as HTMLButtonElement).disabled).toBe(false);
  });
});
