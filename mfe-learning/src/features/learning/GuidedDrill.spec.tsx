/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { Provider, useDispatch } from 'react-redux';
import { createAppStore, useLiveConnection } from '@cbh/api-client';
import type { AuthUser, BreakerStats, DrillView, TestSessionView } from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { apiError, authUser, breakerConfig, breakerStats, clickAndSettle, fakeApi, fakeLive } from '@cbh/test-support';
import { GuidedDrill } from './GuidedDrill';
import { LearningContent } from './LearningContent';

const admin = authUser({
  email: 'ada@example.com',
  role: 'admin',
  permissions: ['dashboard_view', 'circuit_breaker_view', 'circuit_breaker_operate', 'circuit_breaker_admin'],
});
const viewer = authUser({ email: 'vera@example.com', role: 'viewer', permissions: ['dashboard_view', 'circuit_breaker_view'] });

const INVENTORY = breakerConfig({ id: 2, name: 'Inventory Service', type: 'adaptive', minimumCalls: 10, slowCallDuration: 1000 });
const BREAKERS = [breakerConfig({ id: 1, name: 'Payment Gateway' }), INVENTORY];
const SIGN_IN_AGAIN = 'Sign in again to start a drill: it hurts real traffic, so it needs a sign-in within the last 10 minutes';

const START = Date.parse('2026-05-01T10:00:00.000Z');
const at = (seconds: number) => new Date(START + seconds * 1000).toISOString();
const INVENTORY_REF = { id: 2, name: 'Inventory Service', service: null };

function guidedDrill(fields: Partial<DrillView> = {}): DrillView {
  return {
    id: 7,
    name: 'Guided drill: slow inventory',
    state: 'running',
    startedAt: at(0),
    endsAt: at(45),
    endedAt: null,
    startedBy: 'Ada',
    stoppedBy: null,
    steps: [
      {
        index: 0,
        breaker: INVENTORY_REF,
        fault: { kind: 'latency', rate: 1, latencyMs: 1500 },
        instances: 'all',
        durationSeconds: 45,
        startsAt: at(0),
        endsAt: at(45),
      },
    ],
    expectations: [{ breaker: INVENTORY_REF, state: 'OPEN', withinSeconds: 30, after: 'start', result: 'pending', tookSeconds: null }],
    verdict: 'pending',
    ...fields,
  };
}

/** A load test of Inventory Service still running: it ends two minutes from now. */
const traffic = (): TestSessionView => ({
  id: 11,
  configId: 2,
  failureRate: 0,
  requestRate: 20,
  duration: 2,
  status: 'running',
  startedAt: new Date().toISOString(),
  endsAt: new Date(Date.now() + 120_000).toISOString(),
  stoppedAt: null,
});

const inventoryStats = (fields: Partial<BreakerStats>) => ({
  stats: [breakerStats({ configId: 1 }), breakerStats({ configId: 2, ...fields })],
});

/** The hub as the section reads it; sessions and drills change as the steps' calls are answered. */
function hub(routes: Record<string, unknown> = {}, state: { sessions?: TestSessionView[]; drills?: DrillView[] } = {}) {
  const data = { sessions: state.sessions ?? [], drills: state.drills ?? [] };
  const api = fakeApi({
    'GET /api/circuit-breakers': BREAKERS,
    'GET /api/metrics/latest': inventoryStats({ requestsPerSecond: 0 }),
    'GET /api/test-sessions': () => data.sessions,
    'GET /api/drills': () => data.drills,
    'POST /api/test-sessions': () => {
      data.sessions = [traffic()];
      return Response.json(data.sessions[0], { status: 201 });
    },
    'POST /api/drills': () => {
      data.drills = [guidedDrill()];
      return Response.json(data.drills[0], { status: 201 });
    },
    'POST /api/drills/7/stop': () => {
      data.drills = [guidedDrill({ state: 'stopped', endedAt: at(20), stoppedBy: 'Ada', expectations: data.drills[0]!.expectations })];
      return data.drills[0];
    },
    ...routes,
  });
  return { api, data };
}

/** What the shell does for a signed-in visitor: runs the live connection, whose messages write the store. */
function LiveBridge() {
  useLiveConnection(true, useDispatch());
  return null;
}

function renderGuidedDrill(user: AuthUser | null) {
  render(
    <Provider store={createAppStore()}>
      {user ? <LiveBridge /> : null}
      <MemoryRouter>
        <GuidedDrill user={user} />
      </MemoryRouter>
    </Provider>,
  );
}

const step = (n: number) => within(screen.getByTestId(`guided-step-${n}`));
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const liveState = () => screen.getByRole('status', { name: 'Live state' }).textContent;
/** A metricsUpdate over /ws, written into the store's latest metrics (which takes a few ticks). */
const emitStats = (fields: Partial<BreakerStats>) => act(() => live.emit({ type: 'metricsUpdate', data: inventoryStats(fields) }));
const OPENED = 'Opened after 6 s: the breaker stopped calling the slow service.';

let live: ReturnType<typeof fakeLive>;
beforeEach(async () => {
  await act(async () => void (live = fakeLive()));
});
afterEach(() => act(() => live.stop()));

it('sends exactly the traffic and the drill, says the breaker opened from the live metrics, stops the drill and follows the recovery', async () => {
  const { api, data } = hub();
  renderGuidedDrill(admin);
  await screen.findByRole('button', { name: 'Send traffic' });
  // nothing to judge without calls
  expect(button('Inject latency').disabled).toBe(true);
  expect(screen.queryByRole('button', { name: 'Stop the drill' })).toBeNull();

  await clickAndSettle(button('Send traffic'));
  expect(api.callsTo('POST', '/api/test-sessions').map((call) => call.body)).toEqual([
    { configId: 2, failureRate: 0, requestRate: 20, duration: 2 },
  ]);
  expect(await step(1).findByText(/^Traffic running: 20 calls a second until/)).toBeTruthy();
  expect(button('Send traffic').disabled).toBe(true);

  await clickAndSettle(button('Inject latency'));
  expect(api.callsTo('POST', '/api/drills').map((call) => call.body)).toEqual([
    {
      name: 'Guided drill: slow inventory',
      steps: [{ breaker: 2, fault: { kind: 'latency', rate: 1, latencyMs: 1500 }, instances: 'all', durationSeconds: 45 }],
      expectations: [{ breaker: 2, state: 'OPEN', withinSeconds: 30, after: 'start' }],
    },
  ]);
  expect(await step(2).findByText(/^Drill running: latency 1500 ms on 100 % of calls/)).toBeTruthy();
  expect(step(2).getByRole('link', { name: 'Follow it on its page' }).getAttribute('href')).toBe('/drills/7');
  expect(button('Inject latency').disabled).toBe(true);
  expect(step(3).getByTestId('guided-drill-expectation').textContent).toBe('Expected: OPEN within 30 s of the start Pending');

  // the breaker opens 6 s after the start, as the store's latest metrics say
  emitStats({ state: 'CLOSED', latency: { mean: 1580, p50: 0, p90: 0, p99: 0, max: 0 } });
  await waitFor(() =>
    expect(step(3).getByTestId('guided-drill-opening').textContent).toBe(
      'Still closed: slow calls are adding up (average response 1580 ms).',
    ),
  );
  emitStats({ state: 'OPEN', lastTransitionAt: at(6), shortCircuitedCount: 40 });
  await waitFor(() => expect(liveState()).toBe('Open: calls are refused at once, without waiting on the slow service.'));
  expect(step(3).getByTestId('guided-drill-opening').textContent).toBe(OPENED);
  expect(within(screen.getByRole('region', { name: 'Refused while open' })).getByText('40')).toBeTruthy();

  // the drill judges its expectation, and says so over /ws
  data.drills = [guidedDrill({ expectations: [{ ...guidedDrill().expectations[0]!, result: 'met', tookSeconds: 6.2 }] })];
  await act(async () => live.emit({ type: 'drillChanged', data: { id: 7, state: 'running' } }));
  await waitFor(() =>
    expect(step(3).getByTestId('guided-drill-expectation').textContent).toBe('Expected: OPEN within 30 s of the start Met'),
  );

  await clickAndSettle(button('Stop the drill'));
  expect(api.callsTo('POST', '/api/drills/7/stop')).toHaveLength(1);
  expect(await step(4).findByText('Still open: it waits out its open period before it lets trial calls through.')).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Stop the drill' })).toBeNull();
  expect(step(3).getByTestId('guided-drill-opening').textContent).toBe(OPENED);

  emitStats({ state: 'HALF_OPEN', lastTransitionAt: at(35) });
  await waitFor(() =>
    expect(step(4).getByTestId('guided-drill-recovery').textContent).toBe(
      'Half-open: trial calls are testing the service; 3 good ones close the breaker.',
    ),
  );
  emitStats({ state: 'CLOSED', lastTransitionAt: at(36) });
  await waitFor(() =>
    expect(step(4).getByTestId('guided-drill-recovery').textContent).toBe(
      'Closed again 16 s after the stop: good calls came back, and every call goes through.',
    ),
  );
  expect(liveState()).toBe('Closed: every call goes through, and the breaker judges how they fare.');
  expect(step(4).getByRole('heading', { name: '4. Stop the drill, watch it recover Done' })).toBeTruthy();
});

it("says how long the recovery takes from the breaker's own settings", async () => {
  hub({ 'GET /api/circuit-breakers': [{ ...INVENTORY, timeout: 40_000, recoveryTime: 90_000, successThreshold: 2 }] });
  renderGuidedDrill(admin);
  expect(await screen.findByText(/^Stopping ends the fault at once/)).toBeTruthy();
  expect(step(4).getByText(/^Stopping ends the fault/).textContent).toBe(
    'Stopping ends the fault at once, but the breaker only finds out by trying: Inventory Service stays open for 20 s — half its 40 s ' +
      'timeout, and up to the whole 40 s when it trips again within 90 s of closing — then lets trial calls through: 2 good trial calls close it.',
  );
});

it("shows the API's words and a Sign in again link when the sign-in is too old to start a drill", async () => {
  const { api } = hub({ 'POST /api/drills': apiError(403, SIGN_IN_AGAIN) }, { sessions: [traffic()] });
  renderGuidedDrill(admin);
  await waitFor(() => expect(button('Inject latency').disabled).toBe(false));
  await clickAndSettle(button('Inject latency'));
  expect(api.callsTo('POST', '/api/drills')).toHaveLength(1);
  expect((await step(2).findByRole('alert')).textContent).toBe(SIGN_IN_AGAIN);
  expect(step(2).getByRole('link', { name: 'Sign in again' }).getAttribute('href')).toBe('/api/login');
  expect(screen.queryByRole('button', { name: 'Stop the drill' })).toBeNull();
});

it('follows a guided drill started before the page was opened, and stops it', async () => {
  const { api } = hub({}, { sessions: [traffic()], drills: [guidedDrill()] });
  renderGuidedDrill(admin);
  await clickAndSettle(await screen.findByRole('button', { name: 'Stop the drill' }));
  expect(api.callsTo('POST', '/api/drills/7/stop')).toHaveLength(1);
  expect(api.callsTo('POST', '/api/drills')).toHaveLength(0);
});

it('lets a viewer follow the live breaker and read the steps, with no button to press', async () => {
  const { api } = hub();
  renderGuidedDrill(viewer);
  expect(await screen.findByRole('heading', { name: /^Inventory Service, live/ })).toBeTruthy();
  await waitFor(() => expect(liveState()).toBe('Closed: every call goes through, and the breaker judges how they fare.'));
  emitStats({ state: 'OPEN', lastTransitionAt: at(6) });
  await waitFor(() => expect(liveState()).toBe('Open: calls are refused at once, without waiting on the slow service.'));
  expect(screen.queryAllByRole('button')).toEqual([]);
  // no step is marked done or next: a viewer cannot read the drill
  expect(screen.getByRole('list', { name: 'Guided drill steps' }).querySelector('[aria-current]')).toBeNull();
  expect(step(1).getByText('Sending traffic needs the circuit_breaker_operate permission.')).toBeTruthy();
  expect(step(2).getByText(/^Starting the drill needs the circuit_breaker_admin permission/)).toBeTruthy();
  expect(screen.getByRole('region', { name: 'Who may run it' }).textContent).toContain('circuit_breaker_operate');
  // the drills are for holders of circuit_breaker_admin: not even read
  expect(api.callsTo('GET', '/api/drills')).toHaveLength(0);
});

it('teaches the steps to a visitor with the demo numbers, and says who may run them', () => {
  const { api } = hub();
  renderGuidedDrill(null);
  const headings = screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
  expect(headings).toEqual(['1. Send traffic', '2. Inject latency', '3. Watch it open', '4. Stop the drill, watch it recover']);
  expect(step(2).getByText(/counts a call slower than 1000 ms as failed/)).toBeTruthy();
  const who = within(screen.getByRole('region', { name: 'Who may run it' }));
  expect(who.getByText(/circuit_breaker_admin/)).toBeTruthy();
  expect(who.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/api/login');
  expect(screen.queryAllByRole('button')).toEqual([]);
  expect(api.calls).toEqual([]);
});

it('is placed on the learning page, its steps loaded after the page', async () => {
  fakeApi({});
  render(
    <Provider store={createAppStore()}>
      <MemoryRouter>
        <LearningContent user={null} title="Circuit Breaker Patterns" description="d" />
      </MemoryRouter>
    </Provider>,
  );
  const section = within(screen.getByRole('region', { name: 'Guided drill' }));
  expect(await section.findByRole('heading', { name: '1. Send traffic', level: 3 })).toBeTruthy();
});
