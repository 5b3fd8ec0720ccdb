/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { AlertGroupSummary, AuthUser } from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { authUser, fakeApi, fakeLive } from '@cbh/test-support';
import ConnectedShell from '../ConnectedShell';
import type { RoutesModule } from '../federation/remotes';

const SUMMARY = '/api/alert-groups/summary';
const operator = authUser({
  email: 'otto@example.com',
  role: 'operator',
  permissions: ['dashboard_view', 'circuit_breaker_view', 'circuit_breaker_operate', 'metrics_view'],
});
const viewer = authUser({ email: 'vera@example.com', role: 'viewer', permissions: ['dashboard_view', 'circuit_breaker_view'] });

/** The dashboard remote, as far as On Call goes: its page is a heading. */
const manifest = { remotes: [{ name: 'mfe_dashboard', entry: '/remotes/mfe-dashboard/mf-manifest.json', routes: ['/on-call'] }] };
const load = jest.fn(async (): Promise<RoutesModule> => ({ default: () => <h1>On Call page</h1> }));

/** The shell as a signed-in person sees it on a page of no remote, the alert groups' summary answering `firing`. */
function renderShell(user: AuthUser, firing: () => number) {
  const api = fakeApi({
    'GET /api/metrics/latest': { stats: [] },
    'GET /api/circuit-breakers': [],
    [`GET ${SUMMARY}`]: (): AlertGroupSummary => ({ firing: firing(), acknowledged: 1, silenced: 0 }),
  });
  render(
    <MemoryRouter initialEntries={['/somewhere']}>
      <ConnectedShell manifest={manifest} load={load} reset={jest.fn()} session={user} />
    </MemoryRouter>,
  );
  return api;
}

// the shell of a signed-in person runs the live connection: over a fake socket
let live: ReturnType<typeof fakeLive>;
beforeEach(async () => {
  await act(async () => void (live = fakeLive()));
});
afterEach(() => act(() => live.stop()));

it('shows an operator how many alert groups fire, linking to On Call, and follows them live', async () => {
  let firing = 2;
  const api = renderShell(operator, () => firing);
  const count = await screen.findByRole('link', { name: '2 firing alert groups' });
  expect(count.textContent).toBe('2 firing');
  expect(count.getAttribute('href')).toBe('/on-call');

  // an alert group changes elsewhere: the count is asked for again, not polled
  firing = 1;
  act(() => live.emit({ type: 'alertGroupChanged', data: { id: 7, subjectKind: 'breaker', state: 'firing' } }));
  expect((await screen.findByRole('link', { name: '1 firing alert group' })).textContent).toBe('1 firing');
  expect(api.callsTo('GET', SUMMARY)).toHaveLength(2);

  // the last one acknowledged: nothing fires, the count goes
  firing = 0;
  act(() => live.emit({ type: 'alertGroupChanged', data: { id: 7, subjectKind: 'breaker', state: 'acknowledged' } }));
  await waitFor(() => expect(api.callsTo('GET', SUMMARY)).toHaveLength(3));
  await waitFor(() => expect(screen.queryByTestId('firing-alert-groups')).toBeNull());
});

it('opens On Call from the count', async () => {
  renderShell(operator, () => 3);
  expect(screen.getByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
  fireEvent.click(await screen.findByRole('link', { name: '3 firing alert groups' }));
  expect(await screen.findByRole('heading', { name: 'On Call page' })).toBeTruthy();
});

it('shows nothing while no alert group fires', async () => {
  const api = renderShell(operator, () => 0);
  await waitFor(() => expect(api.callsTo('GET', SUMMARY)).toHaveLength(1));
  await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
  expect(screen.queryByTestId('firing-alert-groups')).toBeNull();
  expect(screen.queryByRole('link', { name: /firing/ })).toBeNull();
});

it('is not shown to a viewer without circuit_breaker_operate, who asks nothing of the alert groups', async () => {
  const api = renderShell(viewer, () => 2);
  // the open-breakers count's figures arrive: the chrome has made its requests
  await waitFor(() => expect(api.callsTo('GET', '/api/metrics/latest').length).toBeGreaterThan(0));
  await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
  act(() => live.emit({ type: 'alertGroupChanged', data: { id: 7, subjectKind: 'breaker', state: 'firing' } }));
  await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
  expect(screen.queryByTestId('firing-alert-groups')).toBeNull();
  expect(api.callsTo('GET', SUMMARY)).toEqual([]);
});
