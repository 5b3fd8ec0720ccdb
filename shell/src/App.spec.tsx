/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { AuthUser, BreakerStats, BreakerTransition, RemoteDescriptor } from '@cbh/contracts';
import { REMOTE_LOAD_TIMEOUT_MS } from '@cbh/contracts';
import { apiError, breakerStats, fakeApi, fakeLive } from '@cbh/test-support';
import { App } from './App';
import { RemoteTimeoutError } from './federation/remote-errors';
import { withTimeout, type RoutesModule } from './federation/remotes';

const manifest = {
  remotes: [
    { name: 'mfe_dashboard', entry: '/remotes/mfe-dashboard/mf-manifest.json', routes: ['/dashboard', '/circuit-breakers'] },
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

/** The API as the chrome reads it: the account, and the breakers and their latest figures. */
function respondWith(account: AuthUser | null, stats: BreakerStats[] = []) {
  return fakeApi({
    'GET /api/auth/user': account ?? apiError(401, 'Not signed in'),
    'GET /api/metrics/latest': { stats },
    'GET /api/circuit-breakers': [{ id: 3, name: 'payments' }],
  });
}

const page = (title: string): RoutesModule => ({ default: () => <h1>{title}</h1> });
const loadPages = jest.fn(async (remote: RemoteDescriptor) => page(`${remote.name} page`));

async function renderAt(path: string, account: AuthUser | null, load = loadPages, reset = jest.fn(), stats: BreakerStats[] = []) {
  window.history.pushState({}, '', path);
  const api = respondWith(account, stats);
  render(<App manifest={manifest} load={load} reset={reset} />);
  await screen.findByRole('link', { name: 'Circuit Breaker Hub' });
  return api;
}

// every signed-in render runs the live connection: over a fake socket, not a real one to nowhere
let live: ReturnType<typeof fakeLive>;
beforeEach(async () => {
  await act(async () => void (live = fakeLive()));
});
afterEach(() => act(() => live.stop()));

describe('auth state', () => {
  it('shows a full-screen spinner while the session is checked', async () => {
    global.fetch = jest.fn(() => new Promise<Response>(() => undefined));
    render(<App manifest={manifest} load={loadPages} reset={jest.fn()} />);
    expect(await screen.findByRole('status', { name: 'Checking your session' })).toBeTruthy();
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

describe('the session probe’s answer', () => {
  it('shows a visitor signed out on a page no remote owns the not-found page without the store, which comes with the first remote route', async () => {
    window.history.pushState({}, '', '/no-such-page');
    const api = respondWith(null);
    const learning = { name: 'mfe_learning', entry: '/remotes/mfe-learning/mf-manifest.json', routes: ['/'] };
    render(<App manifest={{ remotes: [...manifest.remotes, learning] }} session={null} load={loadPages} reset={jest.fn()} />);
    // at once: no spinner, no chunk to wait for
    expect(screen.getByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Login' })).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Go to the home page' }));
    expect(await screen.findByRole('heading', { name: 'mfe_learning page' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Login' })).toBeTruthy();
    // the probe's answer is the store's: the account is not asked for again
    expect(api.callsTo('GET', '/api/auth/user')).toEqual([]);
  });

  it('gives a signed-in account the store at once, even on a page no remote owns, without asking for the account again', async () => {
    window.history.pushState({}, '', '/no-such-page');
    const api = respondWith(user());
    render(<App manifest={manifest} session={user()} load={loadPages} reset={jest.fn()} />);
    expect(await screen.findByTestId('account-name')).toBeTruthy();
    expect(screen.getByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
    await waitFor(() => expect(api.callsTo('GET', '/api/metrics/latest').length).toBeGreaterThan(0));
    expect(api.callsTo('GET', '/api/auth/user')).toEqual([]);
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
    ['signed-out visitor', null, { domains: false, users: false, coreLogic: false, notifications: false }],
    ['viewer', user(), { domains: false, users: false, coreLogic: false, notifications: false }],
    [
      'holder of user_management',
      user({ role: 'operator', permissions: ['user_management'] }),
      { domains: false, users: true, coreLogic: false, notifications: false },
    ],
    [
      'admin',
      user({ role: 'admin', permissions: ['domain_management'] }),
      { domains: true, users: false, coreLogic: false, notifications: false },
    ],
    [
      'holder of circuit_breaker_admin',
      user({ role: 'admin', permissions: ['circuit_breaker_admin'] }),
      { domains: false, users: false, coreLogic: false, notifications: true },
    ],
    ['super_admin', user({ role: 'super_admin', permissions: [] }), { domains: true, users: true, coreLogic: true, notifications: true }],
  ])('shows Domains, User Management, Core Logic and Notifications links per role: %s', async (_label, account, expected) => {
    await renderAt('/dashboard', account);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    // the lesser pages wait under More, which a signed-in person has
    const more = within(nav).queryByRole('button', { name: 'More' });
    if (more) fireEvent.click(more);
    expect(within(nav).queryByRole('link', { name: 'Domains' })?.getAttribute('href') ?? null).toBe(expected.domains ? '/domains' : null);
    expect(within(nav).queryByRole('link', { name: 'User Management' }) !== null).toBe(expected.users);
    expect(within(nav).queryByRole('link', { name: 'Core Logic' }) !== null).toBe(expected.coreLogic);
    expect(within(nav).queryByRole('link', { name: 'Notifications' })?.getAttribute('href') ?? null).toBe(
      expected.notifications ? '/notifications' : null,
    );
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

describe('circuit breakers in the top bar', () => {
  const transition = (configId: number, from: BreakerTransition['from'], to: BreakerTransition['to']): BreakerTransition => ({
    configId,
    from,
    to,
    reason: '5 consecutive failures',
    at: new Date().toISOString(),
    instanceId: 'api-1',
  });

  it('links the wall and counts the open breakers live for holders of circuit_breaker_view', async () => {
    const stats = [
      breakerStats({ configId: 1, state: 'OPEN' }),
      breakerStats({ configId: 2, state: 'OPEN' }),
      breakerStats({ configId: 3 }),
    ];
    await renderAt('/dashboard', user(), loadPages, jest.fn(), stats);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Circuit Breakers' }).getAttribute('href')).toBe('/circuit-breakers');
    const count = await screen.findByTestId('open-breakers');
    expect(count.textContent).toBe('2 open');
    expect(count.getAttribute('aria-label')).toBe('2 open breakers');
    expect(count.getAttribute('href')).toBe('/circuit-breakers');

    act(() => live.emit({ type: 'stateChange', data: transition(1, 'OPEN', 'HALF_OPEN') }));
    expect(screen.getByRole('link', { name: '1 open breaker' }).textContent).toBe('1 open');
    act(() => live.emit({ type: 'stateChange', data: transition(2, 'OPEN', 'CLOSED') }));
    expect(screen.getByRole('link', { name: '0 open breakers' }).textContent).toBe('0 open');
  });

  it('shows neither the link nor the count, and reads no metrics, without circuit_breaker_view', async () => {
    const api = await renderAt('/dashboard', user({ permissions: ['dashboard_view'] }));
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(within(screen.getByRole('navigation', { name: 'Main' })).queryByRole('link', { name: 'Circuit Breakers' })).toBeNull();
    expect(screen.queryByTestId('open-breakers')).toBeNull();
    expect(api.callsTo('GET', '/api/metrics/latest')).toEqual([]);
  });

  describe('a breaker that opens', () => {
    const operator = user({ role: 'operator', permissions: ['circuit_breaker_view', 'circuit_breaker_operate'] });
    afterEach(() => {
      jest.useRealTimers();
      // the toast store outlives the page: close what a test left open, so the next starts with none
      screen.queryAllByRole('button', { name: 'Close' }).forEach((button) => fireEvent.click(button));
    });

    async function renderForOperator() {
      const api = await renderAt('/dashboard', operator);
      await waitFor(() => expect(api.callsTo('GET', '/api/circuit-breakers')).toHaveLength(1));
      // the list was asked for: let its answer reach the cache, where the toasts find the names
      await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    }
    const opened = (configId: number) => act(() => live.emit({ type: 'stateChange', data: transition(configId, 'CLOSED', 'OPEN') }));

    it('is told to an operator in a toast whose link opens its page', async () => {
      await renderForOperator();
      opened(3);
      // the first toast of the visit: the toast region arrives with it
      expect(await screen.findByText('Circuit breaker opened: payments')).toBeTruthy();
      expect(screen.getByText('Calls through it are refused (5 consecutive failures).')).toBeTruthy();
      const link = screen.getByRole('link', { name: 'View breaker' });
      expect(link.getAttribute('href')).toBe('/circuit-breakers/3');
      fireEvent.click(link);
      expect(window.location.pathname).toBe('/circuit-breakers/3');
      expect(screen.queryByText('Circuit breaker opened: payments')).toBeNull();
    });

    it('is told at most once per breaker per 30 s, and by number when the name is unknown', async () => {
      await renderForOperator();
      jest.useFakeTimers();
      const toastNow = () => screen.queryByText(/^Circuit breaker opened/);
      opened(3);
      expect(toastNow()?.textContent).toContain('payments');
      act(() => void jest.advanceTimersByTime(6_000));
      expect(toastNow()).toBeNull();

      // another replica reports the same opening, then the breaker reopens within the window: no toast
      opened(3);
      act(() => void jest.advanceTimersByTime(20_000));
      opened(3);
      expect(toastNow()).toBeNull();
      // another breaker has its own window
      opened(9);
      expect(toastNow()?.textContent).toBe('Circuit breaker opened: #9');
      act(() => void jest.advanceTimersByTime(6_000));
      // 32 s after the first toast
      opened(3);
      expect(toastNow()?.textContent).toContain('payments');
    });

    it('is not told to an account without circuit_breaker_operate, which reads no breaker list', async () => {
      const api = await renderAt('/dashboard', user());
      opened(3);
      expect(screen.queryByText(/Circuit breaker opened/)).toBeNull();
      expect(api.callsTo('GET', '/api/circuit-breakers')).toEqual([]);
    });

    it('is not told to the operator who forced it open, but to the others, even one of the same name', async () => {
      await renderForOperator();
      const forced = (actorId: string) => ({ ...transition(3, 'CLOSED', 'OPEN'), reason: 'forced open by Ada Lovelace', actorId });
      act(() => live.emit({ type: 'stateChange', data: forced(operator.id) }));
      expect(screen.queryByText(/Circuit breaker opened/)).toBeNull();
      act(() => live.emit({ type: 'stateChange', data: forced('u2') }));
      expect(screen.getByText('Calls through it are refused (forced open by Ada Lovelace).')).toBeTruthy();
    });

    it('is not told when a breaker moves to another state than OPEN', async () => {
      await renderForOperator();
      act(() => live.emit({ type: 'stateChange', data: transition(3, 'OPEN', 'HALF_OPEN') }));
      expect(screen.queryByText(/Circuit breaker opened/)).toBeNull();
    });
  });
});

describe('route table', () => {
  it('renders the remote that owns the path', async () => {
    await renderAt('/domains', null);
    expect(await screen.findByRole('heading', { name: 'mfe_domains page' })).toBeTruthy();
  });

  it('loads a remote on each visit to its routes (where a redeploy is picked up), not on moves between them', async () => {
    const load = jest.fn(loadPages);
    await renderAt('/dashboard', user({ permissions: ['dashboard_view', 'circuit_breaker_view', 'domain_management'] }), load);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(await screen.findByRole('heading', { name: 'mfe_dashboard page' })).toBeTruthy();

    fireEvent.click(within(nav).getByRole('link', { name: 'Circuit Breakers' }));
    await waitFor(() => expect(window.location.pathname).toBe('/circuit-breakers'));
    expect(screen.getByRole('heading', { name: 'mfe_dashboard page' })).toBeTruthy();
    fireEvent.click(within(nav).getByRole('link', { name: 'Domains' }));
    expect(await screen.findByRole('heading', { name: 'mfe_domains page' })).toBeTruthy();
    fireEvent.click(within(nav).getByRole('link', { name: 'Dashboard' }));
    expect(await screen.findByRole('heading', { name: 'mfe_dashboard page' })).toBeTruthy();

    expect(load.mock.calls.map(([remote]) => remote.name)).toEqual(['mfe_dashboard', 'mfe_domains', 'mfe_dashboard']);
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
    await renderAt('/dashboard', user({ role: 'admin', permissions: ['domain_management'] }), load);
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
