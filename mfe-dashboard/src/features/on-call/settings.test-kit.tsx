/**
 * Test-only helpers for the escalation policies and schedules tabs: accounts, people, channels, a schedule and a
 * policy, a fake API answering as the hub does, and a renderer with the providers the shell gives a remote.
 */
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore, type ShiftView } from '@cbh/api-client';
import type { AuthUser, ChannelView, EscalationPolicyView, OnCallPerson, ScheduleView } from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { authUser, fakeApi } from '@cbh/test-support';
import { Toaster } from '@cbh/ui';

/** Keeps policies and schedules, and manages users. */
export const admin = authUser({
  email: 'ada@example.com',
  role: 'admin',
  permissions: ['circuit_breaker_view', 'circuit_breaker_operate', 'circuit_breaker_admin', 'user_management'],
});
/** Keeps policies and schedules, without user_management: picks people all the same. */
export const breakerAdmin = authUser({
  email: 'bea@example.com',
  role: 'admin',
  permissions: ['circuit_breaker_view', 'circuit_breaker_operate', 'circuit_breaker_admin'],
});
/** Reads policies and schedules, and may list people. */
export const operator = authUser({
  email: 'otto@example.com',
  role: 'operator',
  permissions: ['circuit_breaker_view', 'circuit_breaker_operate'],
});

export const ID = {
  ana: '0a1b2c3d-0000-4000-8000-00000000a0a0',
  bob: '0a1b2c3d-0000-4000-8000-00000000b0b0',
  cy: '0a1b2c3d-0000-4000-8000-00000000c0c0',
  webhook: '1a4e6c2e-0f3b-4c55-9a51-0d1e2f3a4b5c',
  email: '2b5f7d3f-1a4c-4d66-8b62-1e2f3a4b5c6d',
  schedule: '3c6a8e4a-2b5d-4e77-9c73-2f3a4b5c6d7e',
  policy: '4d7b9f5b-3c6e-4f88-8d84-3a4b5c6d7e8f',
  created: '5e8c0a6c-4d7f-4a99-9e95-4b5c6d7e8f9a',
};

/** Ana and Bob, as GET /api/on-call/people lists them; Cy (ID.cy) was deactivated, so is not listed. */
export const ANA: OnCallPerson = { id: ID.ana, email: 'ana@example.com', name: 'Ana Lima' };
export const BOB: OnCallPerson = { id: ID.bob, email: 'bob@example.com', name: null };
export const PEOPLE: OnCallPerson[] = [ANA, BOB];

const channel = (id: string, name: string, type: ChannelView['type']): ChannelView => ({
  id,
  name,
  type,
  recipients: type === 'email' ? ['ops@example.com'] : [],
  urlSet: type !== 'email',
  urlHost: type === 'email' ? null : 'hooks.example.com',
  secretSet: false,
  createdAt: '2026-05-01T10:00:00.000Z',
  updatedAt: '2026-05-01T10:00:00.000Z',
  lastDelivery: null,
});
export const CHANNELS = [channel(ID.webhook, 'ops-hook', 'webhook'), channel(ID.email, 'Ops mail', 'email')];

export const SCHEDULE: ScheduleView = {
  id: ID.schedule,
  name: 'Payments primary',
  timeZone: 'Europe/Berlin',
  rotations: [{ users: [ID.ana, ID.bob], start: '2026-11-02T09:00', lengthHours: 'weekly', handoffTime: '09:00' }],
  overrides: [],
  onCallNow: ANA,
  createdAt: '2026-05-01T10:00:00.000Z',
  updatedAt: '2026-05-01T10:00:00.000Z',
};

export const POLICY: EscalationPolicyView = {
  id: ID.policy,
  name: 'Payments paging',
  steps: [
    { notify: { users: [ID.ana], schedule: ID.schedule }, waitMinutes: 5 },
    { notify: { channels: [ID.webhook] }, waitMinutes: 10 },
  ],
  repeat: 1,
  createdAt: '2026-05-01T10:00:00.000Z',
  updatedAt: '2026-05-01T10:00:00.000Z',
};

const HOUR_MS = 3_600_000;

/**
 * Who is on call from the calendar's first moment (the reader's midnight today): Ana until 09:00 tomorrow, Bob for a
 * week from then, nobody after.
 */
export function shiftsFrom(from: string, to: string): ShiftView[] {
  const at = (hours: number) => new Date(Date.parse(from) + hours * HOUR_MS).toISOString();
  return [
    { start: from, end: at(33), user: ANA },
    { start: at(33), end: at(33 + 7 * 24), user: BOB },
    { start: at(33 + 7 * 24), end: to, user: null },
  ];
}

/** The on-call settings API as the tabs read it; `routes` replace or add answers. */
export function onCallSettingsApi(me: AuthUser | null, routes: Record<string, unknown> = {}) {
  return fakeApi({
    'GET /api/auth/user': me,
    'GET /api/on-call/people': PEOPLE,
    'GET /api/notification-channels': CHANNELS,
    'GET /api/schedules': [SCHEDULE],
    'GET /api/escalation-policies': [POLICY],
    [`GET /api/schedules/${ID.schedule}/shifts`]: (_body: unknown, url: URL) =>
      shiftsFrom(url.searchParams.get('from')!, url.searchParams.get('to')!),
    ...routes,
  });
}

export function renderPanel(panel: ReactElement) {
  return render(
    <Provider store={createAppStore()}>
      <MemoryRouter initialEntries={['/on-call']}>{panel}</MemoryRouter>
      <Toaster />
    </Provider>,
  );
}
