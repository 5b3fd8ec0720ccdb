/**
 * Test-only helpers for the alert group specs: accounts, sample groups and their detail, a fake API that answers the
 * list by the state asked for, and a renderer with the providers and routes the shell gives a remote.
 */
import { render } from '@testing-library/react';
import { Provider, useDispatch } from 'react-redux';
import { createAppStore, useLiveConnection } from '@cbh/api-client';
import type { AlertGroupDetailView, AlertGroupPage as GroupsPage, AlertGroupState, AlertGroupView, AuthUser } from '@cbh/contracts';
import { MemoryRouter, Route, Routes } from '@cbh/router';
import { authUser, fakeApi } from '@cbh/test-support';
import { Toaster } from '@cbh/ui';
import { OnCallPage } from '../OnCallPage';
import { AlertGroupPage } from './AlertGroupPage';

/** May read alert groups, not act on them. */
export const viewer = authUser({ email: 'vera@example.com', role: 'viewer', permissions: ['dashboard_view', 'circuit_breaker_view'] });
export const operator = authUser({
  email: 'otto@example.com',
  role: 'operator',
  permissions: ['dashboard_view', 'circuit_breaker_view', 'circuit_breaker_operate'],
});
/** Signed in, but may not see breakers or their groups. */
export const outsider = authUser({ email: 'dora@example.com', role: 'viewer', permissions: ['dashboard_view'] });

const MINUTE = 60_000;
const ago = (minutes: number) => new Date(Date.now() - minutes * MINUTE).toISOString();
const later = (minutes: number) => new Date(Date.now() + minutes * MINUTE).toISOString();

/** A group about breaker 5 (payments of the checkout service), firing for ten minutes, step 2 due in five. */
export function alertGroup(id: number, fields: Partial<AlertGroupView> = {}): AlertGroupView {
  return {
    id,
    state: 'firing',
    subject: { kind: 'breaker', id: 5, name: 'payments' },
    service: 'checkout',
    title: 'Breaker payments opened',
    escalationPolicy: { id: 'b7c1e0d2-4f3a-4b5c-8d6e-7f8091a2b3c4', name: 'Payments primary' },
    openedAt: ago(10),
    acknowledgedAt: null,
    acknowledgedBy: null,
    resolvedAt: null,
    resolvedBy: null,
    silencedUntil: null,
    // half a minute's slack: the list writes whole minutes, and the test runs a moment after this is made
    nextStep: { step: 2, at: later(5.5) },
    eventCount: 3,
    causedCount: 0,
    ...fields,
  };
}

export const FIRING = alertGroup(7);
export const ACKNOWLEDGED = alertGroup(6, {
  state: 'acknowledged',
  subject: { kind: 'breaker', id: 8, name: 'search' },
  service: null,
  title: 'Breaker search opened',
  acknowledgedAt: ago(2),
  acknowledgedBy: 'otto@example.com',
  nextStep: null,
});
export const RESOLVED = alertGroup(4, {
  state: 'resolved',
  title: 'Breaker inventory opened',
  subject: { kind: 'breaker', id: 6, name: 'inventory' },
  resolvedAt: ago(30),
  resolvedBy: 'otto@example.com',
  nextStep: null,
});

/** The detail of FIRING: opened, step 1, and an event of orders (breaker 9, which depends on payments) that joined it. */
export const FIRING_DETAIL: AlertGroupDetailView = {
  ...FIRING,
  causedCount: 1,
  timeline: [
    {
      id: 'e1',
      at: ago(10),
      kind: 'opened',
      text: 'Breaker payments opened',
      eventType: 'breaker.opened',
      step: null,
      actor: null,
      subject: null,
    },
    {
      id: 'e2',
      at: ago(10),
      kind: 'step',
      text: 'Step 1: e-mail to vera@example.com',
      eventType: null,
      step: 1,
      actor: null,
      subject: null,
    },
    {
      id: 'e3',
      at: ago(8),
      kind: 'caused',
      text: 'Breaker orders opened',
      eventType: 'breaker.opened',
      step: null,
      actor: null,
      subject: { kind: 'breaker', id: 9, name: 'orders' },
    },
  ],
  deliveries: [
    {
      id: 'd1',
      to: 'vera@example.com',
      step: 1,
      status: 'delivered',
      attempts: 1,
      lastError: null,
      createdAt: ago(10),
      deliveredAt: ago(10),
    },
    {
      id: 'd2',
      to: 'ops-hook (webhook)',
      step: 1,
      status: 'failed',
      attempts: 8,
      lastError: 'HTTP 503 Service Unavailable',
      createdAt: ago(10),
      deliveredAt: null,
    },
  ],
};

/** Answers GET /api/alert-groups from `groups`, by the state asked for, newest (highest id) first, in pages of `limit`. */
export function listOf(groups: readonly AlertGroupView[]) {
  return (_body: unknown, url: URL): GroupsPage => {
    const state = url.searchParams.get('state') as AlertGroupState | null;
    const before = Number(url.searchParams.get('before') ?? Infinity);
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const matching = groups.filter((group) => (state ? group.state === state : true) && group.id < before).sort((a, b) => b.id - a.id);
    const items = matching.slice(0, limit);
    return { items, nextBefore: matching.length > limit ? items[items.length - 1]!.id : null };
  };
}

/** The on-call API as the screens read it; `routes` replace or add answers. */
export function onCallApi(me: AuthUser | null, routes: Record<string, unknown> = {}) {
  return fakeApi({
    'GET /api/auth/user': me,
    'GET /api/alert-groups': listOf([FIRING, ACKNOWLEDGED, RESOLVED]),
    'GET /api/alert-groups/7': FIRING_DETAIL,
    ...routes,
  });
}

/** What the shell does for a signed-in visitor: runs the live connection, which refreshes the groups it names. */
function LiveBridge() {
  useLiveConnection(true, useDispatch());
  return null;
}

export function renderOnCall(path = '/on-call', { live = false } = {}) {
  return render(
    <Provider store={createAppStore()}>
      {live ? <LiveBridge /> : null}
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/on-call" element={<OnCallPage />} />
          <Route path="/on-call/groups/:id" element={<AlertGroupPage />} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </Provider>,
  );
}
