/**
 * Test-only helpers for the status pages specs: accounts, a sample page with its components, incidents and
 * subscribers, a fake API, and a renderer with the providers and routes the shell gives a remote.
 */
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import type { AuthUser, IncidentView, StatusPageView, SubscriberView } from '@cbh/contracts';
import { MemoryRouter, Route, Routes } from '@cbh/router';
import { authUser, breakerConfig, fakeApi } from '@cbh/test-support';
import { Toaster } from '@cbh/ui';
import { StatusPageDetailPage } from './StatusPageDetailPage';
import { StatusPagesPage } from './StatusPagesPage';

export const admin = authUser({
  email: 'ada@example.com',
  role: 'admin',
  permissions: ['circuit_breaker_view', 'circuit_breaker_admin', 'domain_management'],
});
/** May manage status pages, but not domains. */
export const breakerAdmin = authUser({ email: 'bea@example.com', role: 'operator', permissions: ['circuit_breaker_admin'] });
export const operator = authUser({
  email: 'otto@example.com',
  role: 'operator',
  permissions: ['circuit_breaker_view', 'circuit_breaker_operate'],
});

export const PAGE: StatusPageView = {
  id: 1,
  slug: 'payments',
  title: 'Payments',
  description: 'Card payments and refunds.',
  public: true,
  accentColor: null,
  state: 'partial_outage',
  components: [
    {
      id: 11,
      name: 'Card payments',
      description: 'Charging cards',
      group: 'Checkout',
      breakers: [5],
      domains: [],
      state: 'partial_outage',
    },
    { id: 12, name: 'Refunds', description: null, group: null, breakers: [6], domains: [1], state: 'operational' },
  ],
  createdAt: '2026-05-01T10:00:00.000Z',
  updatedAt: '2026-05-01T10:00:00.000Z',
};

export const PRIVATE_PAGE: StatusPageView = {
  ...PAGE,
  id: 2,
  slug: 'internal',
  title: 'Internal tools',
  public: false,
  state: 'operational',
  components: [],
};

export function incident(id: number, fields: Partial<IncidentView> = {}): IncidentView {
  return {
    id,
    pageId: 1,
    title: `Incident ${id}`,
    impact: 'major',
    status: 'resolved',
    components: [],
    createdAt: '2026-05-02T09:00:00.000Z',
    resolvedAt: '2026-05-02T10:00:00.000Z',
    updates: [
      { id: id * 10, status: 'investigating', message: 'Looking', messageHtml: '<p>Looking</p>', createdAt: '2026-05-02T09:00:00.000Z' },
    ],
    ...fields,
  };
}

export const OPEN_INCIDENT = incident(40, {
  title: 'Card payments failing',
  status: 'identified',
  resolvedAt: null,
  components: [{ id: 11, name: 'Card payments', state: 'major_outage' }],
  updates: [
    {
      id: 401,
      status: 'investigating',
      message: 'We **see** it',
      messageHtml: '<p>We <strong>see</strong> it</p>',
      createdAt: '2026-05-02T09:00:00.000Z',
      author: 'ada@example.com',
    },
    {
      id: 402,
      status: 'identified',
      message: 'Found',
      messageHtml: '<p>The card processor is down.</p>',
      createdAt: '2026-05-02T09:10:00.000Z',
    },
  ],
});

export const SUBSCRIBERS: SubscriberView[] = [
  { id: 7, email: 'carol@example.com', components: [], confirmed: true, createdAt: '2026-05-01T11:00:00.000Z' },
  { id: 8, email: 'dan@example.com', components: [12], confirmed: false, createdAt: '2026-05-01T12:00:00.000Z' },
];

/** The API as the pages read it; `routes` replace or add answers. */
export function statusApi(me: AuthUser | null, routes: Record<string, unknown> = {}) {
  return fakeApi({
    'GET /api/auth/user': me,
    'GET /api/status-pages': [PAGE, PRIVATE_PAGE],
    'GET /api/status-pages/1': PAGE,
    'GET /api/status-pages/1/incidents': (_body: unknown, url: URL) => (url.searchParams.get('state') === 'open' ? [OPEN_INCIDENT] : []),
    'GET /api/status-pages/1/subscribers': SUBSCRIBERS,
    'GET /api/circuit-breakers': [breakerConfig({ id: 5, name: 'payments' }), breakerConfig({ id: 6, name: 'refunds', state: 'OPEN' })],
    'GET /api/domains': [{ id: 1, domain: 'pay.example.test', status: 'active' }],
    ...routes,
  });
}

export function renderAt(path: string) {
  return render(
    <Provider store={createAppStore()}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/status-pages" element={<StatusPagesPage />} />
          <Route path="/status-pages/:id" element={<StatusPageDetailPage />} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </Provider>,
  );
}
