import { displayName, initialOf, userStatus } from './user-status';

describe('user status', () => {
  it('is Active when enabled and activated, Pending when enabled but never activated, Inactive when disabled', () => {
    expect(userStatus({ isActive: true, activatedAt: '2026-01-01T00:00:00.000Z' })).toBe('Active');
    expect(userStatus({ isActive: true, activatedAt: null })).toBe('Pending');
    expect(userStatus({ isActive: false, activatedAt: '2026-01-01T00:00:00.000Z' })).toBe('Inactive');
    expect(userStatus({ isActive: false, activatedAt: null })).toBe('Inactive');
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
