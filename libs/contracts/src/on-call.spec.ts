import { createEscalationPolicySchema, createScheduleSchema, silenceSchema } from './on-call';

const user = '6f1c2d3e-4b5a-4c6d-8e7f-901234567890';

describe('on-call bodies', () => {
  it('takes a policy whose steps each notify someone, and bounds its waits and repeats', () => {
    const policy = { name: 'Payments', steps: [{ notify: { users: [user] }, waitMinutes: 5 }], repeat: 2 };
    expect(createEscalationPolicySchema.parse(policy)).toEqual(policy);
    const problems = (value: unknown) => {
      const parsed = createEscalationPolicySchema.safeParse(value);
      return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    };
    expect(problems({ name: 'x', steps: [{ notify: {}, waitMinutes: 5 }] })).toEqual([
      'steps.0.notify: must name channels, users or a schedule',
    ]);
    expect(problems({ name: 'x', steps: [{ notify: { users: [user] }, waitMinutes: 5 }], repeat: 6 })).toEqual([
      'repeat: must be from 0 to 5',
    ]);
    expect(problems({ name: 'x', steps: [] })).toEqual(['steps: must hold at least one step']);
  });

  it('takes a schedule in a real time zone with wall-clock times, refusing an override that ends before it starts', () => {
    const schedule = {
      name: 'Primary',
      timeZone: 'Europe/Berlin',
      rotations: [{ users: [user], start: '2026-11-02T09:00', lengthHours: 'weekly' as const, handoffTime: '09:00' }],
      overrides: [{ user, start: '2026-11-10T00:00', end: '2026-11-11T00:00' }],
    };
    expect(createScheduleSchema.parse(schedule)).toEqual(schedule);
    expect(createScheduleSchema.safeParse({ ...schedule, timeZone: 'Mars/Olympus' }).success).toBe(false);
    expect(
      createScheduleSchema.safeParse({ ...schedule, overrides: [{ user, start: '2026-11-11T00:00', end: '2026-11-10T00:00' }] }).success,
    ).toBe(false);
    expect(createScheduleSchema.safeParse({ ...schedule, rotations: [{ ...schedule.rotations[0], lengthHours: 'monthly' }] }).success).toBe(
      false,
    );
    expect(silenceSchema.safeParse({ minutes: 0 }).success).toBe(false);
  });
});
