/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import type { AuthUser, RemoteDescriptor } from '@cbh/contracts';
import { REMOTE_LOAD_TIMEOUT_MS } from '@cbh/contracts';
import { App } from './App';
import { RemoteTimeoutError } from './federation/remote-errors';
import { withTimeout, type RoutesModule } from './federation/remotes';

const manifest = {
  remotes: [
    { name: 'mfe_dashboard', entry: '/remotes/mfe-dashboard/mf-manifest.json', routes: ['/dashboard'] },
    { name: 'mfe_domains', entry: '/remotes/mfe-domains/mf-manifest.json', routes: ['/domains'] },
  ],
};

const user = (overrides: Partial<AuthUser> = {}): AuthUser => ({
  id: 'u1',
  email: 'ada@example.com',
  role: 'viewer',
  firstName: 'Ada',
  lastName: 'Lovelace',
  profileImageUrl: null,
  permissions: ['dashboard_view', 'circuit_breaker_view'],
  canElevate: false,
  ...overrides,
});

function respondWith(account: AuthUser | null) {
  global.fetch = jest.fn(async () =>
    account
      ? new Response(JSON.stringify(account), { status: 200, headers: { 'content-type': 'application/json' } })
      : new Response(JSON.stringify({ statusCode: 401, error: 'Unauthorized', message: 'Not signed in' }), {
          status: 401,
          headers: { 'content-type': 'application/json' },
        }),
  );
}

const page = (title: string): RoutesModule => ({ default: () => <h1>{title}</h1> });
const loadPages = jest.fn(async (remote: RemoteDescriptor) => page(`${remote.name} page`));

async function renderAt(path: string, account: AuthUser | null, load = loadPages, reset = jest.fn()) {
  window.history.pushState({}, '', path);
  respondWith(account);
  render(<App manifest={manifest} load={load} reset={reset} />);
  await screen.findByRole('link', { name: 'Circuit Breaker Hub' });
}

describe('auth state', () => {
  it('shows a full-screen spinner while the session is checked', () => {
    global.fetch = jest.fn(() => new Promise<Response>(() => undefined));
    render(<App manifest={manifest} load={loadPages} reset={jest.fn()} />);
    expect(screen.getByRole('status', { name: 'Checking your session' })).toBeTruthy();
    expect(screen.queryByRole('banner')).toBeNull();
  });

  it('treats a 401 as signed out: Login, no account, no demo user', async () => {
    await renderAt('/dashboard', null);
    expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/api/login');
    expect(screen.queryByRole('link', { name: 'Logout' })).toBeNull();
    expect(screen.queryByTestId('role-badge')).toBeNull();
    expect(global.fetch).toHaveBeenCalledTimes(1);
  });
});

describe('top bar', () => {
  it('shows the first name, the role badge and Logout to the server path', async () => {
    await renderAt('/dashboard', user());
    expect(screen.getByTestId('account-name').textContent).toBe('Ada');
    expect(screen.getByTestId('role-badge').textContent).toBe('Viewer');
    expect(screen.getByRole('link', { name: 'Logout' }).getAttribute('href')).toBe('/api/logout');
    expect(screen.getByRole('link', { name: 'Start Demo' })).toBeTruthy();
  });

  it('falls back to the email without a first name, to admin without a role, to the raw name of an unknown role', async () => {
    await renderAt('/dashboard', user({ firstName: null, role: '' }));
    expect(screen.getByTestId('account-name').textContent).toBe('ada@example.com');
    expect(screen.getByTestId('role-badge').textContent).toBe('admin');
  });

  it('shows an unknown role by its raw name', async () => {
    await renderAt('/dashboard', user({ role: 'auditor' }));
    expect(screen.getByTestId('role-badge').textContent).toBe('auditor');
  });

  it.each([
    ['viewer', user(), { users: false, coreLogic: false }],
    ['holder of user_management', user({ role: 'operator', permissions: ['user_management'] }), { users: true, coreLogic: false }],
    ['admin', user({ role: 'admin', permissions: ['domain_management'] }), { users: false, coreLogic: false }],
    ['super_admin', user({ role: 'super_admin', permissions: [] }), { users: true, coreLogic: true }],
  ])('shows User Management and Core Logic links per role: %s', async (_label, account, expected) => {
    await renderAt('/dashboard', account);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: 'User Management' }) !== null).toBe(expected.users);
    expect(within(nav).queryByRole('link', { name: 'Core Logic' }) !== null).toBe(expected.coreLogic);
  });

  it('offers Elevate to Super Admin only to the elevation account while it is not super_admin', async () => {
    await renderAt('/dashboard', user({ canElevate: true }));
    expect(screen.getByRole('link', { name: 'Elevate to Super Admin' }).getAttribute('href')).toBe('/elevate');
  });

  it('hides Elevate once the account is super_admin', async () => {
    await renderAt('/dashboard', user({ canElevate: true, role: 'super_admin' }));
    expect(screen.queryByRole('link', { name: 'Elevate to Super Admin' })).toBeNull();
  });
});

describe('route table', () => {
  it('renders the remote that owns the path', async () => {
    await renderAt('/domains', null);
    expect(await screen.findByRole('heading', { name: 'mfe_domains page' })).toBeTruthy();
  });

  it.each(['/services/validation', '/services/versioning', '/nowhere'])('shows the not-found screen at %s', async (path) => {
    await renderAt(path, null);
    expect(screen.getByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeTruthy();
  });
});

describe('remote failures', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('shows a fallback card in the chrome when a remote cannot be loaded, and Retry loads it again', async () => {
    const reset = jest.fn();
    const load = jest
      .fn<Promise<RoutesModule>, [RemoteDescriptor]>()
      .mockRejectedValueOnce(new Error('404 mf-manifest.json'))
      .mockResolvedValueOnce(page('Dashboard'));
    await renderAt('/dashboard', null, load, reset);

    const fallback = await screen.findByTestId('remote-fallback');
    expect(fallback.textContent).toContain('The dashboard screens could not be loaded');
    expect(screen.getByRole('complementary', { name: 'Service Logic' })).toBeTruthy();

    fireEvent.click(within(fallback).getByRole('button', { name: 'Retry' }));
    expect(reset).toHaveBeenCalledWith(manifest.remotes[0]);
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
  });

  it('shows the fallback when a remote throws while rendering, and other routes keep working', async () => {
    const load = jest.fn(async (remote: RemoteDescriptor) =>
      remote.name === 'mfe_dashboard'
        ? {
            default: () => {
              throw new Error('boom');
            },
          }
        : page('Domain Management'),
    );
    await renderAt('/dashboard', null, load);
    expect((await screen.findByTestId('remote-fallback')).textContent).toContain('boom');

    fireEvent.click(screen.getByRole('link', { name: 'Domains' }));
    expect(await screen.findByRole('heading', { name: 'Domain Management' })).toBeTruthy();
  });

  it('gives up on a remote that does not answer within the timeout', async () => {
    jest.useFakeTimers();
    const never = new Promise<string>(() => undefined);
    const result = withTimeout(never, REMOTE_LOAD_TIMEOUT_MS, () => new RemoteTimeoutError('mfe_dashboard', REMOTE_LOAD_TIMEOUT_MS));
    const settled = result.catch((error: Error) => error);
    await act(async () => void jest.advanceTimersByTime(REMOTE_LOAD_TIMEOUT_MS));
    expect(((await settled) as Error).message).toBe('mfe_dashboard did not answer within 10 s');
    jest.useRealTimers();
  });
});
