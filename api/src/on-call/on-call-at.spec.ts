import type { ScheduleRules } from '@cbh/contracts';
import { onCallAt, shiftsBetween } from './on-call-at';

const at = (iso: string) => new Date(iso);
const daily = (timeZone: string, overrides: ScheduleRules['overrides'] = []): ScheduleRules => ({
  timeZone,
  rotations: [{ users: ['ana', 'ben', 'cat'], start: '2026-10-20T09:00', lengthHours: 'daily', handoffTime: '09:00' }],
  overrides,
});

describe('who is on call', () => {
  it('hands a daily shift over at 09:00 on the schedule’s wall clock, through the autumn DST change (Berlin, 25 October 2026)', () => {
    const rules = daily('Europe/Berlin');
    // 24 October, 09:00 CEST (07:00 UTC): the fifth shift since the 20th → ben
    expect(onCallAt(rules, at('2026-10-24T07:00:00Z'))).toBe('ben');
    // the night of the change has 25 hours: at 08:59 CET on the 25th (07:59 UTC) ben still holds it
    expect(onCallAt(rules, at('2026-10-25T07:59:00Z'))).toBe('ben');
    // and cat takes over at 09:00 CET (08:00 UTC), not at 07:00 UTC as 24-hour arithmetic would say
    expect(onCallAt(rules, at('2026-10-25T07:00:00Z'))).toBe('ben');
    expect(onCallAt(rules, at('2026-10-25T08:00:00Z'))).toBe('cat');
  });

  it('keeps the wall clock through the spring change too (New York, 8 March 2026), and counts hours-long shifts in real hours', () => {
    const rules: ScheduleRules = {
      timeZone: 'America/New_York',
      rotations: [{ users: ['ana', 'ben'], start: '2026-03-07T09:00', lengthHours: 'daily', handoffTime: '09:00' }],
      overrides: [],
    };
    // 8 March has 23 hours: the hand-over is at 09:00 EDT (13:00 UTC), an hour earlier in UTC than the day before
    expect(onCallAt(rules, at('2026-03-08T12:59:00Z'))).toBe('ana');
    expect(onCallAt(rules, at('2026-03-08T13:00:00Z'))).toBe('ben');
    const hourly: ScheduleRules = { ...rules, rotations: [{ users: ['ana', 'ben'], start: '2026-03-08T00:00', lengthHours: 12 }] };
    // 12 real hours after midnight EST (05:00 UTC) is 17:00 UTC, whatever the wall clock says
    expect(onCallAt(hourly, at('2026-03-08T16:59:00Z'))).toBe('ana');
    expect(onCallAt(hourly, at('2026-03-08T17:00:00Z'))).toBe('ben');
  });

  it('rotates weekly, lets the last override win, and answers nobody before the first start', () => {
    const weekly: ScheduleRules = {
      timeZone: 'UTC',
      rotations: [{ users: ['ana', 'ben'], start: '2026-11-02T10:00', lengthHours: 'weekly' }],
      overrides: [
        { user: 'dan', start: '2026-11-10T00:00', end: '2026-11-11T00:00' },
        { user: 'eve', start: '2026-11-10T12:00', end: '2026-11-10T13:00' },
      ],
    };
    expect(onCallAt(weekly, at('2026-11-01T00:00:00Z'))).toBeNull();
    expect(onCallAt(weekly, at('2026-11-09T09:59:00Z'))).toBe('ana');
    expect(onCallAt(weekly, at('2026-11-09T10:00:00Z'))).toBe('ben');
    expect(onCallAt(weekly, at('2026-11-10T11:00:00Z'))).toBe('dan');
    expect(onCallAt(weekly, at('2026-11-10T12:30:00Z'))).toBe('eve');
    expect(onCallAt(weekly, at('2026-11-16T10:00:00Z'))).toBe('ana');
  });
});

describe('shifts between two moments', () => {
  it('lists each person’s stretch, joined across shifts, with hand-overs at the wall clock’s 09:00 through the DST change', () => {
    const rules: ScheduleRules = {
      timeZone: 'Europe/Berlin',
      rotations: [{ users: ['ana', 'ben'], start: '2026-10-24T09:00', lengthHours: 'daily', handoffTime: '09:00' }],
      overrides: [{ user: 'ana', start: '2026-10-26T09:00', end: '2026-10-27T09:00' }],
    };
    const shifts = shiftsBetween(rules, at('2026-10-24T00:00:00Z'), at('2026-10-28T00:00:00Z'));
    expect(shifts.map(({ user, start, end }) => [user, start.toISOString(), end.toISOString()])).toEqual([
      [null, '2026-10-24T00:00:00.000Z', '2026-10-24T07:00:00.000Z'],
      ['ana', '2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z'],
      // ben's shift on the 25th; the override of the 26th names ana, whose shift it is anyway: one stretch
      ['ben', '2026-10-25T08:00:00.000Z', '2026-10-26T08:00:00.000Z'],
      ['ana', '2026-10-26T08:00:00.000Z', '2026-10-27T08:00:00.000Z'],
      ['ben', '2026-10-27T08:00:00.000Z', '2026-10-28T00:00:00.000Z'],
    ]);
  });
});
