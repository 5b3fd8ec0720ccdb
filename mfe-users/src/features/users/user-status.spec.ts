import { displayName, initialOf, userCounts, userStatus } from './user-status';
import { userView } from './test-kit';

describe('user status', () => {
  it('is Active when enabled and activated, Pending when enabled but never activated, Inactive when disabled', () => {
    expect(userStatus({ isActive: true, activatedAt: '2026-01-01T00:00:00.000Z' })).toBe('Active');
    expect(userStatus({ isActive: true, activatedAt: null })).toBe('Pending');
    expect(userStatus({ isActive: false, activatedAt: '2026-01-01T00:00:00.000Z' })).toBe('Inactive');
    expect(userStatus({ isActive: false, activatedAt: null })).toBe('Inactive');
  });
});

describe('user counts', () => {
  const now = Date.parse('2026-05-20T12:00:00.000Z');
  const users = [
    userView({ id: 'a', email: 'a@x.io', createdAt: '2026-05-13T12:00:00.000Z' }), // exactly 7 days: recent
    userView({ id: 'b', email: 'b@x.io', createdAt: '2026-05-13T11:59:59.000Z', activatedAt: null }), // just older
    userView({ id: 'c', email: 'c@x.io', createdAt: '2026-05-20T08:00:00.000Z', isActive: false, activatedAt: null }),
    userView({ id: 'd', email: 'd@x.io', createdAt: '2025-01-01T00:00:00.000Z', isActive: false }),
  ];

  it('counts all, the enabled, those without activation and those created in the last 7 days', () => {
    expect(userCounts(users, now)).toEqual({ total: 4, active: 2, pendingInvites: 2, recent: 2 });
    expect(userCounts([], now)).toEqual({ total: 0, active: 0, pendingInvites: 0, recent: 0 });
  });
});

describe('display name', () => {
  it('joins first and last name, falls back to the e-mail, and takes the initial from what is shown', () => {
    expect(displayName({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@x.io' })).toBe('Ada Lovelace');
    expect(displayName({ firstName: 'Ada', lastName: null, email: 'ada@x.io' })).toBe('Ada');
    expect(displayName({ firstName: ' ', lastName: null, email: 'ada@x.io' })).toBe('ada@x.io');
    expect(initialOf({ firstName: null, lastName: null, email: 'zed@x.io' })).toBe('Z');
  });
});
