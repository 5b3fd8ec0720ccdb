/**
 * Test-only helpers for the breaker wall's specs: sample breakers and their figures, the fake API answering them, the
 * wall rendered with what the shell gives it (its live connection over a fake socket) and queries into its tiles.
 * Imported by *.spec.tsx files only.
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider, useDispatch } from 'react-redux';
import { createAppStore, useLiveConnection } from '@cbh/api-client';
import type { AuthUser, BreakerConfigView, ServerMessage } from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { authUser, breakerConfig, breakerStats, fakeApi, fakeLive } from '@cbh/test-support';
import { Toaster } from '@cbh/ui';
import { BreakerWallPage } from './BreakerWallPage';

export const viewer = authUser({ email: 'vera@example.com', role: 'viewer', permissions: ['dashboard_view', 'circuit_breaker_view'] });
export const admin = authUser({ email: 'ada@example.com', role: 'admin', permissions: ['circuit_breaker_view', 'circuit_breaker_admin'] });

const breaker = (id: number, name: string, type: BreakerConfigView['type']) => breakerConfig({ id, name, type });
export const BREAKERS = [breaker(1, 'payments', 'simple'), breaker(2, 'accounts', 'adaptive'), breaker(3, 'search', 'bulkhead')];
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
export const STATS = [
  breakerStats({
    configId: 1,
    successCount: 120,
    failureCount: 5,
    requestsPerSecond: 12.5,
    errorPercentage: 4,
    latency: { mean: 40, p50: 31, p90: 80, p99: 120.4, max: 200 },
  }),
  breakerStats({ configId: 2, state: 'OPEN', override: 'forced-open', errorPercentage: 60, lastTransitionAt: minutesAgo(2) }),
  breakerStats({ configId: 3, state: 'HALF_OPEN', errorPercentage: 20 }),
];

export function wallApi(me: AuthUser | null, routes: Record<string, unknown> = {}) {
  return fakeApi({
    'GET /api/auth/user': me,
    'GET /api/circuit-breakers': BREAKERS,
    'GET /api/metrics/latest': { stats: STATS },
    ...routes,
  });
}

/**
 * The live connection over a fake socket around each test of the calling file, as the shell runs it for a signed-in
 * visitor; `emit` delivers a server message to the wall.
 */
export function liveConnectionForThisFile() {
  let live: ReturnType<typeof fakeLive>;
  beforeEach(async () => {
    await act(async () => void (live = fakeLive()));
  });
  // inside act: the page is still mounted, and its connection status changes
  afterEach(() => act(() => live.stop()));
  return { emit: (message: ServerMessage) => live.emit(message) };
}

/** What the shell does for a signed-in visitor: runs the live connection, which writes live data into the cache. */
function LiveBridge() {
  useLiveConnection(true, useDispatch());
  return null;
}

export function renderWall() {
  render(
    <Provider store={createAppStore()}>
      <LiveBridge />
      <MemoryRouter initialEntries={['/circuit-breakers']}>
        <BreakerWallPage />
      </MemoryRouter>
      <Toaster />
    </Provider>,
  );
}

export const tile = (name: string) => screen.getByRole('article', { name });
export const tileNames = () => screen.getAllByTestId('breaker-tile').map((element) => element.getAttribute('aria-label'));
export const choose = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
