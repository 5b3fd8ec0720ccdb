/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { AuthUser } from '@cbh/contracts';
import { MemoryRouter, Route, Routes } from '@cbh/router';
import { authUser } from '@cbh/test-support';
import { TopBar } from './TopBar';

const viewer = authUser({ email: 'vera@example.com', role: 'viewer', permissions: ['dashboard_view', 'circuit_breaker_view'] });
const superAdmin = authUser({ email: 'root@example.com', role: 'super_admin', permissions: [] });
const systemAdmin = authUser({ email: 'sam@example.com', role: 'viewer', permissions: ['dashboard_view', 'system_admin'] });
const breakerAdmin = authUser({
  email: 'ada@example.com',
  role: 'admin',
  permissions: ['dashboard_view', 'circuit_breaker_view', 'circuit_breaker_admin'],
});
const elevation = authUser({ email: 'eli@example.com', role: 'admin', permissions: ['domain_management'], canElevate: true });

function renderBar(user: AuthUser | null, at = '/dashboard') {
  render(
    <MemoryRouter initialEntries={[at]}>
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
    ['a signed-out visitor', null, ['Home', 'Dashboard'], ['Load Test']],
    ['a viewer', viewer, ['Home', 'Dashboard', 'Circuit Breakers'], ['On Call', 'SLOs', 'Load Test']],
    ['an admin with domain_management', elevation, ['Home', 'Dashboard', 'Domains'], ['Load Test']],
    // Drills for the holders of circuit_breaker_admin only: a drill hurts real traffic
    [
      'an admin with circuit_breaker_admin',
      breakerAdmin,
      ['Home', 'Dashboard', 'Circuit Breakers'],
      ['On Call', 'SLOs', 'Drills', 'Load Test', 'Notifications', 'Scrape Targets'],
    ],
    [
      'a super admin',
      superAdmin,
      ['Home', 'Dashboard', 'Circuit Breakers', 'Domains'],
      [
        'On Call',
        'SLOs',
        'Drills',
        'Load Test',
        'Notifications',
        'Scrape Targets',
        'User Management',
        'Core Logic',
        'Organisation',
        'System',
        'Releases',
      ],
    ],
    ['a system_admin without user_management', systemAdmin, ['Home', 'Dashboard'], ['Load Test', 'System', 'Releases']],
  ])('lists the pages %s may open, the same the top bar and its More link on a desk', async (_who, user, row, more) => {
    const button = renderBar(user);
    const nav = within(within(screen.getByRole('banner')).getByRole('navigation', { name: 'Main' }));
    expect(names(nav.getAllByRole('link'))).toEqual(row);
    fireEvent.click(nav.getByRole('button', { name: 'More' }));
    expect(names(nav.getAllByRole('link'))).toEqual([...row, ...more]);
    const menu = await openMenu(button);
    expect(names(within(menu.getByRole('navigation', { name: 'Main' })).getAllByRole('link'))).toEqual([...row, ...more]);
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

describe('the top bar on a desk', () => {
  const nav = () => within(within(screen.getByRole('banner')).getByRole('navigation', { name: 'Main' }));

  it('marks the page shown on its row', () => {
    renderBar(superAdmin, '/circuit-breakers/4');
    expect(nav().getByRole('link', { name: 'Circuit Breakers' }).getAttribute('aria-current')).toBe('page');
    expect(nav().getByRole('button', { name: 'More' }).className).not.toContain('active');
  });

  it.each([
    '/on-call',
    '/load-test',
    '/scrape-targets',
    '/notifications',
    '/settings/organisation',
    '/settings/system',
    '/settings/releases',
  ])('highlights More and, under it, the link of %s', (path) => {
    renderBar(superAdmin, path);
    const more = nav().getByRole('button', { name: 'More' });
    expect(more.className).toContain('active');
    fireEvent.click(more);
    expect(more.getAttribute('aria-expanded')).toBe('true');
    const current = nav()
      .getAllByRole('link')
      .filter((link) => link.getAttribute('aria-current') === 'page');
    expect(current.map((link) => link.getAttribute('href'))).toEqual([path]);
  });

  it('highlights On Call under More on an alert group’s page', () => {
    renderBar(viewer, '/on-call/groups/7');
    const more = nav().getByRole('button', { name: 'More' });
    expect(more.className).toContain('active');
    fireEvent.click(more);
    expect(nav().getByRole('link', { name: 'On Call' }).getAttribute('aria-current')).toBe('page');
  });

  it('closes More on Escape, giving focus back to it, and on a click outside', () => {
    renderBar(superAdmin);
    const more = nav().getByRole('button', { name: 'More' });
    fireEvent.click(more);
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(more);
    fireEvent.click(more);
    fireEvent.pointerDown(document.body);
    expect(more.getAttribute('aria-expanded')).toBe('false');
  });

  it('groups the settings under their name', () => {
    renderBar(superAdmin);
    fireEvent.click(nav().getByRole('button', { name: 'More' }));
    expect(names(within(nav().getByRole('group', { name: 'Settings' })).getAllByRole('link'))).toEqual([
      'Organisation',
      'System',
      'Releases',
    ]);
  });
});
