/**
 * Test-only helpers for the SLO specs: accounts, sample SLOs and one's detail, a fake API, and a renderer with the
 * routes the shell gives the remote.
 */
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import { BURN_RATE_WINDOWS, type AuthUser, type BurnRateWindow, type SloDetailView, type SloView } from '@cbh/contracts';
import { MemoryRouter, Route, Routes } from '@cbh/router';
import { authUser, breakerConfig, fakeApi } from '@cbh/test-support';
import { Toaster } from '@cbh/ui';
import { SloPage } from './SloPage';
import { SlosPage } from './SlosPage';

export const viewer = authUser({ email: 'vera@example.com', role: 'viewer', permissions: ['dashboard_view', 'circuit_breaker_view'] });
export const admin = authUser({
  email: 'ada@example.com',
  role: 'admin',
  permissions: ['dashboard_view', 'circuit_breaker_view', 'circuit_breaker_admin'],
});
/** May also keep SLOs over domains. */
export const domainAdmin = authUser({ ...admin, permissions: [...admin.permissions, 'domain_management'] });
export const outsider = authUser({ email: 'dora@example.com', role: 'viewer', permissions: ['dashboard_view'] });

/** Every window burning at `rate`, unless `rates` says otherwise. */
export function burnRates(rate: number | null, rates: Partial<Record<BurnRateWindow, number | null>> = {}) {
  return { ...Object.fromEntries(BURN_RATE_WINDOWS.map((window) => [window, rate])), ...rates } as Record<BurnRateWindow, number | null>;
}

export function slo(id: number, fields: Partial<SloView> = {}): SloView {
  return {
    id,
    name: `SLO ${id}`,
    description: null,
    target: 99.9,
    window: '30d',
    indicator: { kind: 'breaker-calls', breakers: [5] },
    service: null,
    sli: 99.95,
    errorBudgetRemaining: 0.5,
    burnRates: burnRates(0.5),
    status: 'ok',
    good: 99_950,
    total: 100_000,
    createdAt: '2026-05-01T10:00:00.000Z',
    updatedAt: '2026-05-01T10:00:00.000Z',
    ...fields,
  };
}

/** Checkout: a service's calls, burning at a page's pace. */
export const CHECKOUT = slo(1, {
  name: 'Checkout availability',
  indicator: { kind: 'breaker-calls', service: 'checkout' },
  service: 'checkout',
  sli: 99.2,
  target: 99.5,
  window: '28d',
  errorBudgetRemaining: 0.125,
  burnRates: burnRates(2, { '5m': 20, '1h': 16, '30m': 4, '6h': 3 }),
  status: 'breaching',
  good: 99_200,
  total: 100_000,
});
/** Payments latency: untouched, no events yet. */
export const LATENCY = slo(2, {
  name: 'Payments latency',
  indicator: { kind: 'breaker-latency', breakers: [5, 6], thresholdMs: 300 },
  sli: null,
  target: 99,
  window: '7d',
  errorBudgetRemaining: 1,
  burnRates: burnRates(null),
  good: 0,
  total: 0,
});
/** Search: a service's calls, its budget overspent. */
export const SEARCH = slo(3, {
  name: 'Search availability',
  indicator: { kind: 'breaker-calls', service: 'search' },
  service: 'search',
  sli: 99.8,
  errorBudgetRemaining: -0.5,
  burnRates: burnRates(1.5),
  status: 'exhausted',
  good: 99_800,
  total: 100_000,
});

const hour = (hoursAgo: number) => new Date(Date.parse('2026-05-20T12:00:00.000Z') - hoursAgo * 3_600_000).toISOString();

export const CHECKOUT_DETAIL: SloDetailView = {
  ...CHECKOUT,
  description: 'Orders placed through checkout succeed.',
  burnDown: [
    { at: hour(2), errorBudgetRemaining: 0.4 },
    { at: hour(1), errorBudgetRemaining: 0.2 },
    { at: hour(0), errorBudgetRemaining: 0.125 },
  ],
  topContributors: [
    { kind: 'breaker', id: '5', name: 'Payments', bad: 600, total: 40_000 },
    { kind: 'instance', id: 'checkout-7f9c', name: 'checkout-7f9c', bad: 200, total: 10_000 },
  ],
};

export const BREAKERS = [breakerConfig({ id: 5, name: 'Payments' }), breakerConfig({ id: 6, name: 'Inventory' })];

/** The SLO API as the screens read it; `routes` replace or add answers. */
export function slosApi(me: AuthUser | null, routes: Record<string, unknown> = {}) {
  return fakeApi({
    'GET /api/auth/user': me,
    'GET /api/slos': [CHECKOUT, LATENCY, SEARCH],
    'GET /api/slos/1': CHECKOUT_DETAIL,
    'GET /api/circuit-breakers': BREAKERS,
    ...routes,
  });
}

export function renderSlos(path = '/slos') {
  return render(
    <Provider store={createAppStore()}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/slos" element={<SlosPage />} />
          <Route path="/slos/:id" element={<SloPage />} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </Provider>,
  );
}
