/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { AuthUser, RemoteDescriptor } from '@cbh/contracts';
import { apiError, fakeApi, fakeLive } from '@cbh/test-support';
import { App } from '../App';
import type { RoutesModule } from '../federation/remotes';
import { forgetReturnPath, peekReturnPath, rememberReturnPath } from './return-path';

const manifest = {
  remotes: [
    { name: 'mfe_learning', entry: '/remotes/mfe-learning/mf-manifest.json', routes: ['/'] },
    { name: 'mfe_dashboard', entry: '/remotes/mfe-dashboard/mf-manifest.json', routes: ['/dashboard', '/circuit-breakers'] },
    { name: 'mfe_users', entry: '/remotes/mfe-users/mf-manifest.json', routes: ['/users'] },
  ],
};
const root: AuthUser = {
  id: 'u1',
  email: 'root@example.com',
  role: 'super_admin',
  firstName: 'Root',
  lastName: '',
  profileImageUrl: null,
  permissions: ['*'],
  canElevate: false,
};
const loadPages = jest.fn(async (remote: RemoteDescriptor): Promise<RoutesModule> => ({ default: () => <h1>{`${remote.name} page`}</h1> }));

function renderAt(path: string, session: AuthUser | null) {
  window.history.pushState({}, '', path);
  const api = fakeApi({
    'GET /api/auth/user': session ?? apiError(401, 'Not signed in'),
    'GET /api/metrics/latest': { stats: [] },
    'GET /api/circuit-breakers': [],
  });
  render(<App manifest={manifest} session={session} load={loadPages} reset={jest.fn()} />);
  return api;
}

let live: ReturnType<typeof fakeLive>;
beforeEach(async () => {
  loadPages.mockClear();
  forgetReturnPath();
  await act(async () => void (live = fakeLive()));
});
afterEach(() => act(() => live.stop()));

describe('a signed-out visit to a page for signed-in people', () => {
  it('asks to sign in, loads none of the page and makes no call; Sign in keeps the page to come back to', async () => {
    const api = renderAt('/users?tab=audit', null);
    expect(screen.getByRole('heading', { name: 'User Management' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Sign in to continue' })).toBeTruthy();
    expect(screen.queryByText(/permission/)).toBeNull();
    const signIn = screen.getByRole('link', { name: 'Sign in' });
    expect(signIn.getAttribute('href')).toBe('/api/login');
    expect(peekReturnPath()).toBeNull();
    // the browser's navigation to the sign-in page is not jsdom's to make
    document.addEventListener('click', (event) => event.preventDefault(), { once: true });
    fireEvent.click(signIn);
    expect(peekReturnPath()).toBe('/users?tab=audit');
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(loadPages).not.toHaveBeenCalled();
    expect(api.calls).toEqual([]);
  });

  it('leads home, where the site is drawn again', async () => {
    renderAt('/dashboard', null);
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Back to the home page' }));
    expect(await screen.findByRole('heading', { name: 'mfe_learning page' })).toBeTruthy();
  });
});

describe('after signing in', () => {
  it('goes on from / to the page that was asked for, once', async () => {
    rememberReturnPath('/users?tab=audit');
    renderAt('/', root);
    expect(await screen.findByRole('heading', { name: 'mfe_users page' })).toBeTruthy();
    expect(window.location.pathname + window.location.search).toBe('/users?tab=audit');
    expect(peekReturnPath()).toBeNull();
  });

  it('stays on / when nothing was asked for', async () => {
    renderAt('/', root);
    expect(await screen.findByRole('heading', { name: 'mfe_learning page' })).toBeTruthy();
    expect(window.location.pathname).toBe('/');
  });
});

describe('the not-found page', () => {
  it('offers home to a visitor, and the dashboard too when signed in', async () => {
    renderAt('/no-such-page', null);
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('link', { name: 'Open the dashboard' })).toBeNull();
  });

  it('says what a service component without a page is', async () => {
    renderAt('/services/rate-limiter', root);
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
    const component = screen.getByRole('region', { name: 'Rate Limiter' });
    expect(component.textContent).toContain('Security, monitoring');
    expect(component.textContent).toContain('Limits how often a client may call');
    expect(screen.getByRole('link', { name: 'Open the dashboard' }).getAttribute('href')).toBe('/dashboard');
  });
});
