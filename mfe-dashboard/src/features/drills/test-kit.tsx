/**
 * Test-only helpers for the drill specs: accounts, breakers, sample drills and one's detail, a fake API, and a
 * renderer with the routes the shell gives the remote and its live connection.
 */
import { render } from '@testing-library/react';
import { Provider, useDispatch } from 'react-redux';
import { createAppStore, useLiveConnection } from '@cbh/api-client';
import type { AuthUser, DrillDetailView, DrillStepView, DrillView } from '@cbh/contracts';
import { MemoryRouter, Route, Routes } from '@cbh/router';
import { authUser, breakerConfig, breakerStats, fakeApi } from '@cbh/test-support';
import { Toaster } from '@cbh/ui';
import { DrillPage } from './DrillPage';
import { DrillsPage } from './DrillsPage';

export const admin = authUser({
  email: 'ada@example.com',
  role: 'admin',
  permissions: ['dashboard_view', 'circuit_breaker_view', 'circuit_breaker_admin'],
});
export const viewer = authUser({ email: 'vera@example.com', role: 'viewer', permissions: ['dashboard_view', 'circuit_breaker_view'] });

export const BREAKERS = [
  breakerConfig({ id: 5, name: 'payments' }),
  breakerConfig({ id: 6, name: 'charge', source: 'agent', service: 'checkout', library: 'opossum' }),
  breakerConfig({ id: 7, name: 'stock', source: 'scrape', service: 'orders', library: 'resilience4j' }),
];
export const METRICS = { stats: [breakerStats({ configId: 5, state: 'OPEN', requestsPerSecond: 12 }), breakerStats({ configId: 6 })] };

const PAYMENTS = { id: 5, name: 'payments', service: null };
const CHARGE = { id: 6, name: 'charge', service: 'checkout' };
const at = (secondsFromNow: number) => new Date(Date.now() + secondsFromNow * 1000).toISOString();

/** A running drill of two steps: payments slowed for 60 s from 20 s ago, then checkout's charge failing for 30 s. */
export function runningDrill(id = 4): DrillDetailView {
  const steps: DrillStepView[] = [
    {
      index: 0,
      breaker: PAYMENTS,
      fault: { kind: 'latency', rate: 0.25, latencyMs: 800 },
      instances: 'all',
      durationSeconds: 60,
      startsAt: at(-20),
      endsAt: at(40),
    },
    {
      index: 1,
      breaker: CHARGE,
      fault: { kind: 'error', rate: 0.1 },
      instances: 50,
      durationSeconds: 30,
      startsAt: at(40),
      endsAt: at(70),
    },
  ];
  return {
    id,
    name: 'Payments slows down',
    state: 'running',
    startedAt: at(-20),
    endsAt: at(70),
    endedAt: null,
    startedBy: 'Ada',
    stoppedBy: null,
    steps,
    expectations: [
      { breaker: PAYMENTS, state: 'OPEN', withinSeconds: 30, after: 'start', result: 'met', tookSeconds: 12 },
      { breaker: PAYMENTS, state: 'CLOSED', withinSeconds: 120, after: 'end', result: 'pending', tookSeconds: null },
    ],
    verdict: 'pending',
    timeline: [
      { at: at(-20), kind: 'started', text: 'Ada started the drill' },
      { at: at(-19), kind: 'fault_applied', text: 'Latency 800 ms applied', instance: 'payments-1', breakerId: 5 },
      { at: at(-8), kind: 'transition', text: 'payments went CLOSED → OPEN', breakerId: 5 },
      { at: at(-8), kind: 'expectation_met', text: 'payments reached OPEN after 12 s', breakerId: 5 },
    ],
  };
}

/** The same drill, stopped by Bob 30 s in: its second step never ran, its second expectation missed. */
export function stoppedDrill(id = 4): DrillDetailView {
  const drill = runningDrill(id);
  return {
    ...drill,
    state: 'stopped',
    endedAt: new Date(Date.parse(drill.startedAt) + 30_000).toISOString(),
    stoppedBy: 'Bob',
    verdict: 'missed',
    expectations: [drill.expectations[0]!, { ...drill.expectations[1]!, result: 'missed' }],
    timeline: [...drill.timeline, { at: at(10), kind: 'stopped', text: 'Bob stopped the drill' }],
  };
}

/** An older drill that ran to its end and met its expectations. */
export const FINISHED: DrillView = {
  ...runningDrill(2),
  name: 'Search errors',
  state: 'finished',
  startedAt: '2026-05-01T10:00:00.000Z',
  endsAt: '2026-05-01T10:01:30.000Z',
  endedAt: '2026-05-01T10:01:30.000Z',
  startedBy: null,
  verdict: 'met',
};

const listed = ({ timeline: _timeline, ...drill }: DrillDetailView): DrillView => drill;

/** The drills API as the screens read it; `routes` replace or add answers. */
export function drillsApi(me: AuthUser | null, routes: Record<string, unknown> = {}) {
  return fakeApi({
    'GET /api/auth/user': me,
    'GET /api/drills': [listed(runningDrill()), FINISHED],
    'GET /api/drills/4': runningDrill(),
    'GET /api/circuit-breakers': BREAKERS,
    'GET /api/metrics/latest': METRICS,
    ...routes,
  });
}

/** What the shell does for a signed-in visitor: runs the live connection, whose messages refresh the cache. */
function LiveBridge() {
  useLiveConnection(true, useDispatch());
  return null;
}

export function renderDrills(path = '/drills') {
  return render(
    <Provider store={createAppStore()}>
      <LiveBridge />
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/drills" element={<DrillsPage />} />
          <Route path="/drills/:id" element={<DrillPage />} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </Provider>,
  );
}
