/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { AuthUser } from '@cbh/contracts';
import { MemoryRouter, Route, Routes } from '@cbh/router';
import { authUser } from '@cbh/test-support';
import { TopBar } from './TopBar';

const viewer = authUser({ email: 'vera@example.com', role: 'viewer', permissions: ['dashboard_view', 'circuit_breaker_view'] });
const superAdmin = authUser({ email: 'root@example.com', role: 'super_admin', permissions: [] });
const elevation = authUser({ email: 'eli@example.com', role: 'admin', permissions: ['domain_management'], canElevate: true });

function renderBar(user: AuthUser | null) {
  render(
    <MemoryRouter initialEntries={['/dashboard']}>
      <TopBar user={user} />
      <Routes>
        <Route path="*" element={<main>page</main>} />
      </Routes>
    </MemoryRouter>,
  );
  return screen.getByRole('button', { name: 'Menu' });
}

async function openMenu(button: HTMLElement) {
  fireEvent.click(button);
  return within(await screen.findByRole('dialog', { name: 'Menu' }));
}

const names = (links: HTMLElement[]) => links.map((link) => link.textContent);

describe('the menu that stands in for the top bar on a phone', () => {
  it('moves focus into itself, closes on Escape and gives focus back to its button', async () => {
    const button = renderBar(viewer);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await openMenu(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    await waitFor(() => expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(button);
  });

  it('closes once a link in it is followed', async () => {
    const menu = await openMenu(renderBar(viewer));
    fireEvent.click(menu.getByRole('link', { name: 'Circuit Breakers' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it.each([
    ['a signed-out visitor', null, ['Home', 'Dashboard']],
    ['a viewer', viewer, ['Home', 'Dashboard', 'Circuit Breakers']],
    ['an admin with domain_management', elevation, ['Home', 'Dashboard', 'Domains']],
    ['a super admin', superAdmin, ['Home', 'Dashboard', 'Circuit Breakers', 'Domains', 'Notifications', 'User Management', 'Core Logic']],
  ])('lists the pages %s may open, the same the top bar links on a desk', async (_who, user, expected) => {
    const button = renderBar(user);
    const desk = names(within(within(screen.getByRole('banner')).getByRole('navigation', { name: 'Main' })).getAllByRole('link'));
    const menu = await openMenu(button);
    expect(names(within(menu.getByRole('navigation', { name: 'Main' })).getAllByRole('link'))).toEqual(expected);
    expect(desk).toEqual(expected);
  });

  it('holds the name and role, Logout and Start Demo for someone signed in', async () => {
    const menu = await openMenu(renderBar(viewer));
    expect(menu.getByRole('link', { name: 'Vera' }).getAttribute('href')).toBe('/account');
    expect(menu.getByTestId('role-badge').textContent).toBe('Viewer');
    expect(menu.getByRole('link', { name: 'Logout' }).getAttribute('href')).toBe('/api/logout');
    expect(menu.getByRole('link', { name: 'Start Demo' }).getAttribute('href')).toBe('/dashboard');
    expect(menu.queryByRole('link', { name: 'Login' })).toBeNull();
    expect(menu.queryByRole('link', { name: 'Elevate to Super Admin' })).toBeNull();
  });

  it('holds Login and Start Demo, both to the sign-in page, for a visitor', async () => {
    const menu = await openMenu(renderBar(null));
    expect(menu.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/api/login');
    expect(menu.getByRole('link', { name: 'Start Demo' }).getAttribute('href')).toBe('/api/login');
    expect(menu.queryByRole('link', { name: 'Logout' })).toBeNull();
  });

  it('offers Elevate to Super Admin to the elevation account', async () => {
    const menu = await openMenu(renderBar(elevation));
    expect(menu.getByRole('link', { name: 'Elevate to Super Admin' }).getAttribute('href')).toBe('/elevate');
  });

  it('lists the sidebar’s 15 items by group, each with its status in words', async () => {
    const menu = await openMenu(renderBar(null));
    const services = within(menu.getByRole('navigation', { name: 'Service Logic' }));
    expect(services.getAllByRole('group').map((group) => group.getAttribute('aria-label'))).toEqual([
      'Core Logic',
      'Data Management',
      'Security',
      'Communication',
      'Monitoring',
    ]);
    const links = services.getAllByRole('link');
    expect(links).toHaveLength(15);
    const versioning = links.find((link) => link.getAttribute('href') === '/services/versioning')!;
    expect(versioning.textContent).toBe('API Versioninginactive');
    expect(links.filter((link) => link.textContent?.endsWith('monitoring')).map((link) => link.getAttribute('href'))).toEqual([
      '/services/rate-limiter',
      '/services/notifications',
    ]);
  });
});
