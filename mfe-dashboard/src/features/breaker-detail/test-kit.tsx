/**
 * Test-only helpers for the breaker console specs: accounts of each role, a sample breaker, the fake API and a
 * renderer with the providers and routes the shell gives a remote. Imported by *.spec.tsx files only.
 */
import { render } from '@testing-library/react';
import { Provider, useDispatch } from 'react-redux';
import { createAppStore, useLiveConnection } from '@cbh/api-client';
import {
  HISTORY_RANGES,
  type AuthUser,
  type BreakerConfigView,
  type BreakerDependenciesView,
  type BreakerHistory,
  type BreakerInstanceView,
  type HistoryRange,
  type JournalEntry,
  type ServiceView,
  type TestSessionView,
} from '@cbh/contracts';
import { MemoryRouter, Route, Routes } from '@cbh/router';
import { authUser, breakerConfig, breakerStats, fakeApi } from '@cbh/test-support';
import { Toaster } from '@cbh/ui';
import { BreakerDetailPage } from './BreakerDetailPage';

export const viewer = authUser({ email: 'vera@example.com', role: 'viewer', permissions: ['dashboard_view', 'circuit_breaker_view'] });
export const operator = authUser({
  email: 'otto@example.com',
  role: 'operator',
  permissions: ['dashboard_view', 'circuit_breaker_view', 'circuit_breaker_operate', 'metrics_view'],
});
export const admin = authUser({
  email: 'ada@example.com',
  role: 'admin',
  permissions: ['dashboard_view', 'circuit_breaker_view', 'circuit_breaker_operate', 'circuit_breaker_admin', 'metrics_view'],
});
/** Signed in, but may not look at breakers. */
export const outsider = authUser({ email: 'dora@example.com', role: 'viewer', permissions: ['dashboard_view'] });

export const BREAKER: BreakerConfigView = breakerConfig({ id: 5, name: 'Payments' });
const OTHER: BreakerConfigView = { ...BREAKER, id: 6, name: 'Inventory' };

export const SERVICES: ServiceView[] = [
  {
    id: 1,
    name: 'Card processor',
    endpoint: 'https://pay.example.test/charge',
    failureRate: 5,
    averageResponseTime: 120,
    circuitBreakerConfigId: 5,
  },
  { id: 2, name: 'Stock', endpoint: 'https://stock.example.test', failureRate: 1, averageResponseTime: 40, circuitBreakerConfigId: 6 },
];

export const SESSIONS: TestSessionView[] = [
  {
    id: 41,
    configId: 5,
    failureRate: 60,
    requestRate: 20,
    duration: 5,
    status: 'stopped',
    startedAt: '2026-03-02T09:00:00.000Z',
    endsAt: '2026-03-02T09:05:00.000Z',
    stoppedAt: '2026-03-02T09:01:20.000Z',
  },
];

export const JOURNAL: JournalEntry[] = [
  {
    id: 3,
    configId: 5,
    from: 'CLOSED',
    to: 'OPEN',
    reason: '5 consecutive failures',
    at: '2026-03-02T09:00:40.000Z',
    instanceId: '3f2a9c1e-0000-4000-8000-000000000001',
  },
];

/**
 * GET /api/circuit-breakers/{id}/history as the API answers it, in 12 steps rather than up to 300 (the store's checks
 * in development slow every action down with a big answer): calls in the middle step only, and one move (OPEN) a
 * minute before the end.
 */
export function historyOf(url: URL, configId = 5): BreakerHistory {
  const range = (url.searchParams.get('range') ?? '1h') as HistoryRange;
  const { seconds } = HISTORY_RANGES[range];
  const stepSeconds = seconds / 12;
  const to = Math.floor(Date.now() / 1000) * 1000;
  const from = to - seconds * 1000;
  const count = seconds / stepSeconds;
  const points = Array.from({ length: count }, (_unused, step) => {
    const calls = step === Math.floor(count / 2) ? 10 * stepSeconds : 0;
    return {
      at: new Date(from + step * stepSeconds * 1000).toISOString(),
      calls,
      callsPerSecond: calls / stepSeconds,
      errorPercentage: calls ? 20 : null,
    };
  });
  const move = { ...JOURNAL[0]!, configId, at: new Date(to - 60_000).toISOString() };
  return {
    range,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    stepSeconds,
    points,
    transitions: [move],
    transitionsCapped: false,
    stateBefore: 'CLOSED',
  };
}

/** A breaker an agent reports from every instance of the checkout service: opossum's, with its settings. */
export const AGENT_BREAKER: BreakerConfigView = breakerConfig({
  id: 7,
  name: 'charge-card',
  type: 'adaptive',
  source: 'agent',
  service: 'checkout',
  library: 'opossum',
  libraryType: 'error-percentage',
  librarySettings: { errorThresholdPercentage: 50, resetTimeout: 30_000, volumeThreshold: 10, allowWarmUp: false },
});

/** A breaker the hub scrapes from the orders service's Prometheus endpoint: read-only. */
export const SCRAPED_BREAKER: BreakerConfigView = breakerConfig({
  id: 8,
  name: 'inventory',
  type: 'adaptive',
  source: 'scrape',
  service: 'orders',
  library: 'resilience4j',
  libraryType: 'circuit-breaker',
  librarySettings: { failureRateThreshold: 50, slidingWindowSize: 100 },
});

/** One instance of a service's breaker as GET /api/circuit-breakers/{id}/instances lists it: live, CLOSED, healthy. */
export function breakerInstance(instance: string, fields: Partial<BreakerInstanceView> = {}): BreakerInstanceView {
  return {
    instance,
    state: 'CLOSED',
    override: 'none',
    lastReportAt: new Date(Date.now() - 3000).toISOString(),
    stale: false,
    bad: false,
    successCount: 100,
    failureCount: 2,
    timeoutCount: 0,
    shortCircuitedCount: 0,
    errorPercentage: 2,
    requestsPerSecond: 10,
    latency: { mean: 20, p50: 15, p90: 40, p99: 88.6, max: 120 },
    ...fields,
  };
}

/** A breaker that depends on nothing, as GET /api/circuit-breakers/{id}/dependencies answers. */
export function noDependencies(breakerId: number): BreakerDependenciesView {
  return { breakerId, dependsOn: [], quietedBy: null };
}

/** The fake API of the console: the signed-in account, the breakers, their metrics, services, load tests and journal. */
export function breakerApi(me: AuthUser | null, routes: Record<string, unknown> = {}) {
  return fakeApi({
    'GET /api/auth/user': me,
    'GET /api/circuit-breakers': [BREAKER, OTHER, AGENT_BREAKER, SCRAPED_BREAKER],
    'GET /api/metrics/latest': {
      stats: [
        breakerStats({
          configId: 5,
          successCount: 173,
          failureCount: 25,
          requestsPerSecond: 19.75,
          errorPercentage: 12.34,
          latency: { mean: 50, p50: 42, p90: 90, p99: 180.4, max: 300 },
          replicas: { open: 0, total: 2 },
        }),
      ],
    },
    'GET /api/services': SERVICES,
    'GET /api/test-sessions': SESSIONS,
    'GET /api/circuit-breakers/5/transitions': { transitions: JOURNAL, nextBefore: null },
    'GET /api/circuit-breakers/5/history': (_body: unknown, url: URL) => historyOf(url),
    'GET /api/circuit-breakers/7/history': (_body: unknown, url: URL) => historyOf(url, 7),
    'GET /api/circuit-breakers/8/history': (_body: unknown, url: URL) => historyOf(url, 8),
    // what each depends on: nothing, unless a spec says otherwise
    ...Object.fromEntries([5, 7, 8].map((id) => [`GET /api/circuit-breakers/${id}/dependencies`, noDependencies(id)])),
    ...routes,
  });
}

/** What the shell does for a signed-in visitor: runs the live connection, writing its metrics into the cache. */
function LiveBridge() {
  useLiveConnection(true, useDispatch());
  return null;
}

/**
 * Loads the console's lazily loaded parts into jest's module registry, so a test's wait for a card measures the page
 * and not the first compile of its code (more than a second on a cold cache with every suite running at once).
 * Call it in a beforeAll of a spec that waits for one of them.
 */
export const loadLazyParts = () => Promise.all([import('./IncidentOffer'), import('./BreakerSlosCard'), import('./BreakerInstances')]);

export function renderPage(path = '/circuit-breakers/5', { live = false } = {}) {
  return render(
    <Provider store={createAppStore()}>
      {live ? <LiveBridge /> : null}
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/circuit-breakers/:id" element={<BreakerDetailPage />} />
          <Route path="/circuit-breakers" element={<h1>All circuit breakers</h1>} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </Provider>,
  );
}
