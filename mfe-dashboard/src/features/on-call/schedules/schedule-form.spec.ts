import { createScheduleSchema, timeZoneSchema, type ScheduleView } from '@cbh/contracts';
import { emptyOverride, emptyRotation, SCHEDULE_FORM, type OverrideDraft, type RotationDraft, type ScheduleDraft } from './schedule-form';
import { COMMON_TIME_ZONES, timeZoneProblem } from './time-zones';

const ANA = '0a1b2c3d-0000-4000-8000-00000000a0a0';
const BOB = '0a1b2c3d-0000-4000-8000-00000000b0b0';

/** The schema's first message at each path ('rotations.0.start'), as the form keys its own. */
function schemaProblems(draft: ScheduleDraft): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const issue of createScheduleSchema.safeParse(SCHEDULE_FORM.toCreate(draft)).error?.issues ?? [])
    problems[issue.path.join('.')] ??= issue.message;
  return problems;
}

const rotation = (fields: Partial<RotationDraft>): RotationDraft => ({
  ...emptyRotation(),
  users: [ANA, BOB],
  start: '2026-11-02T09:00',
  ...fields,
});
const override = (fields: Partial<OverrideDraft>): OverrideDraft => ({
  ...emptyOverride(),
  user: BOB,
  start: '2026-11-10T00:00',
  end: '2026-11-11T00:00',
  ...fields,
});
const schedule = (fields: Partial<ScheduleDraft>): ScheduleDraft => ({
  name: 'Payments primary',
  timeZone: 'Europe/Berlin',
  rotations: [rotation({})],
  overrides: [],
  ...fields,
});

describe('the schedule form judges as createScheduleSchema does, in its words', () => {
  it.each<[string, ScheduleDraft]>([
    ['a weekly rotation', schedule({})],
    [
      'daily, hours and an override',
      schedule({ rotations: [rotation({ kind: 'daily' }), rotation({ kind: 'hours', hours: '12' })], overrides: [override({})] }),
    ],
    ['no rotation at all', schedule({ rotations: [] })],
    ['no name', schedule({ name: '' })],
    ['a name too long', schedule({ name: 'n'.repeat(121) })],
    ['an unknown zone', schedule({ timeZone: 'Mars/Olympus_Mons' })],
    ['an empty zone', schedule({ timeZone: '' })],
    ['a rotation of no one', schedule({ rotations: [rotation({ users: [] })] })],
    ['a start without a time', schedule({ rotations: [rotation({ start: '2026-11-02' })] })],
    ['a hand-over without minutes', schedule({ rotations: [rotation({ handoffTime: '9' })] })],
    ['an override of no one', schedule({ overrides: [override({ user: '' })] })],
    ['an override ending before it starts', schedule({ overrides: [override({ end: '2026-11-09T23:00' })] })],
    ['an override ending as it starts', schedule({ overrides: [override({ end: '2026-11-10T00:00' })] })],
    ['an override without an end', schedule({ overrides: [override({ end: '' })] })],
  ])('%s', (_case, draft) => {
    expect(SCHEDULE_FORM.problems(draft, true)).toEqual(schemaProblems(draft));
  });

  // the schema words these with zod's own defaults ("Too small: expected number to be >=1")
  it.each<[string, string]>([
    ['no hours', '0'],
    ['more than four weeks', '673'],
    ['part of an hour', '1.5'],
    ['nothing typed', ''],
  ])('a shift of %s: the same field, in plainer words', (_case, hours) => {
    const draft = schedule({ rotations: [rotation({ kind: 'hours', hours })] });
    expect(SCHEDULE_FORM.problems(draft, true)).toEqual({ 'rotations.0.lengthHours': 'must be from 1 to 672 hours' });
    if (hours !== '') expect(Object.keys(schemaProblems(draft))).toEqual(['rotations.0.lengthHours']);
  });

  it('knows the time zones timeZoneSchema knows, common ones and typed ones alike', () => {
    for (const zone of [...COMMON_TIME_ZONES, 'America/Argentina/Buenos_Aires', 'utc', 'Europe/Berln', ' UTC', ''])
      expect([zone, timeZoneProblem(zone)]).toEqual([zone, timeZoneSchema.safeParse(zone).error?.issues[0]?.message]);
  });
});

describe('what the schedule form sends', () => {
  it('sends a day or a week as words, hours as a number, and the hand-over with days and weeks only', () => {
    const draft = schedule({
      rotations: [
        rotation({ kind: 'daily', handoffTime: '08:30' }),
        rotation({ kind: 'hours', hours: '12', handoffTime: '08:30' }),
        rotation({ handoffTime: '' }),
      ],
      overrides: [override({})],
    });
    expect(SCHEDULE_FORM.toCreate(draft)).toEqual({
      name: 'Payments primary',
      timeZone: 'Europe/Berlin',
      rotations: [
        { users: [ANA, BOB], start: '2026-11-02T09:00', lengthHours: 'daily', handoffTime: '08:30' },
        { users: [ANA, BOB], start: '2026-11-02T09:00', lengthHours: 12 },
        { users: [ANA, BOB], start: '2026-11-02T09:00', lengthHours: 'weekly' },
      ],
      overrides: [{ user: BOB, start: '2026-11-10T00:00', end: '2026-11-11T00:00' }],
    });
  });

  it('sends nothing for an edit that changes nothing, and a list whole when any of it changed', () => {
    const saved: ScheduleView = {
      id: '3c6a8e4a-2b5d-4e77-9c73-2f3a4b5c6d7e',
      name: 'Payments primary',
      timeZone: 'Europe/Berlin',
      rotations: [{ users: [ANA, BOB], start: '2026-11-02T09:00', lengthHours: 24 }],
      overrides: [{ user: BOB, start: '2026-11-10T00:00', end: '2026-11-11T00:00' }],
      onCallNow: null,
      createdAt: '',
      updatedAt: '',
    };
    const draft = SCHEDULE_FORM.draftOf(saved);
    expect(SCHEDULE_FORM.toUpdate(draft, saved)).toEqual({});
    expect(SCHEDULE_FORM.toUpdate({ ...draft, timeZone: 'UTC', overrides: [] }, saved)).toEqual({ timeZone: 'UTC', overrides: [] });
    const swapped = { ...draft, rotations: [{ ...draft.rotations[0]!, users: [BOB, ANA] }] };
    expect(SCHEDULE_FORM.toUpdate(swapped, saved)).toEqual({
      rotations: [{ users: [BOB, ANA], start: '2026-11-02T09:00', lengthHours: 24 }],
    });
  });
});
