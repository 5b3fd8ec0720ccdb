/**
 * Test-only helpers for the notifications page specs: accounts, sample channels, rules, windows and deliveries, a
 * fake API that keeps what is created, and a renderer with the providers the shell gives a remote.
 */
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import {
  RULE_DEFAULTS,
  type AuthUser,
  type ChannelView,
  type DeliveryView,
  type EscalationPolicyView,
  type MaintenanceWindowView,
  type RuleView,
} from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { authUser, fakeApi } from '@cbh/test-support';
import { Toaster } from '@cbh/ui';
import { NotificationsPage } from './NotificationsPage';

export const admin = authUser({
  email: 'ada@example.com',
  role: 'admin',
  permissions: ['dashboard_view', 'circuit_breaker_view', 'circuit_breaker_operate', 'circuit_breaker_admin', 'domain_management'],
});
/** May manage notifications, but not domains: domain alert events are not offered. */
export const breakerAdmin = authUser({ email: 'bea@example.com', role: 'operator', permissions: ['circuit_breaker_admin'] });
export const operator = authUser({
  email: 'otto@example.com',
  role: 'operator',
  permissions: ['dashboard_view', 'circuit_breaker_view', 'circuit_breaker_operate'],
});

export const ID = {
  webhook: '1a4e6c2e-0f3b-4c55-9a51-0d1e2f3a4b5c',
  email: '2b5f7d3f-1a4c-4d66-8b62-1e2f3a4b5c6d',
  rule: '3c6a8e4a-2b5d-4e77-9c73-2f3a4b5c6d7e',
  window: '4d7b9f5b-3c6e-4f88-8d84-3a4b5c6d7e8f',
  created: '5e8c0a6c-4d7f-4a99-9e95-4b5c6d7e8f9a',
  policy: '6f9d1b7d-5e8a-4b0a-8f06-5c6d7e8f9a0b',
};

export const WEBHOOK: ChannelView = {
  id: ID.webhook,
  name: 'On-call webhook',
  type: 'webhook',
  recipients: [],
  urlSet: true,
  urlHost: 'hooks.example.com',
  secretSet: true,
  createdAt: '2026-05-01T10:00:00.000Z',
  updatedAt: '2026-05-01T10:00:00.000Z',
  lastDelivery: { status: 'delivered', at: '2026-05-02T09:30:00.000Z', statusCode: 200 },
};

export const EMAIL: ChannelView = {
  ...WEBHOOK,
  id: ID.email,
  name: 'Ops mail',
  type: 'email',
  recipients: ['ops@example.com', 'lead@example.com'],
  urlSet: false,
  urlHost: null,
  secretSet: false,
  lastDelivery: null,
};

export const RULE: RuleView = {
  id: ID.rule,
  name: 'Page on-call',
  enabled: true,
  escalationPolicyId: null,
  events: ['breaker.opened', 'breaker.flapping'],
  channelIds: [ID.webhook],
  breakers: ['payments'],
  breakerTypes: [],
  domains: [],
  severities: [],
  ...RULE_DEFAULTS,
  createdAt: '2026-05-01T10:00:00.000Z',
};

export const WINDOW: MaintenanceWindowView = {
  id: ID.window,
  name: 'Database upgrade',
  startsAt: '2026-05-03T22:00:00.000Z',
  endsAt: '2026-05-03T23:00:00.000Z',
  repeatWeekly: true,
  breakers: ['payments'],
  domains: [],
  active: false,
  createdAt: '2026-05-01T10:00:00.000Z',
};

/** An escalation policy a rule may page through. */
export const POLICY: EscalationPolicyView = {
  id: ID.policy,
  name: 'Payments escalation',
  steps: [{ notify: { channels: [ID.webhook] }, waitMinutes: 5 }],
  repeat: 0,
  createdAt: '2026-05-01T10:00:00.000Z',
  updatedAt: '2026-05-01T10:00:00.000Z',
};

/** A delivery of breaker.opened for `payments` to the webhook, as the log lists it. */
export function delivery(id: string, fields: Partial<DeliveryView> = {}): DeliveryView {
  return {
    id,
    event: 'breaker.opened',
    subject: 'payments',
    breakerId: 7,
    channelId: ID.webhook,
    channelName: WEBHOOK.name,
    ruleId: ID.rule,
    ruleName: RULE.name,
    status: 'delivered',
    attempts: 1,
    statusCode: 200,
    durationMs: 41,
    lastError: null,
    occurredAt: '2026-05-02T09:30:00.000Z',
    createdAt: '2026-05-02T09:30:00.000Z',
    nextAttemptAt: null,
    deliveredAt: '2026-05-02T09:30:00.100Z',
    ...fields,
  };
}

/** The hub's breakers, as the forms list them. */
export const BREAKER_NAMES = ['inventory', 'payments'];

/** The notifications API as the page reads it; `routes` replace or add answers. */
export function notificationsApi(me: AuthUser | null, routes: Record<string, unknown> = {}) {
  return fakeApi({
    'GET /api/auth/user': me,
    'GET /api/notification-channels': [WEBHOOK, EMAIL],
    'GET /api/notification-rules': [RULE],
    'GET /api/maintenance-windows': [WINDOW],
    'GET /api/escalation-policies': [POLICY],
    'GET /api/notification-deliveries': { items: [delivery('d1')], nextBefore: null },
    // what the rule and window forms offer to pick from
    'GET /api/circuit-breakers': BREAKER_NAMES.map((name, index) => ({ id: index + 1, name, source: 'hub', service: null })),
    'GET /api/domains': [{ id: 1, domain: 'example.com' }],
    ...routes,
  });
}

export function renderPage() {
  return render(
    <Provider store={createAppStore()}>
      <MemoryRouter initialEntries={['/notifications']}>
        <NotificationsPage />
      </MemoryRouter>
      <Toaster />
    </Provider>,
  );
}
