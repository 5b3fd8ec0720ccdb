import { ON_CALL_LIMITS as L, type ScheduleView, type UpdateSchedule } from '@cbh/contracts';
import type { NewSchedule } from '@cbh/api-client';
import { compact, type Problems } from '../../shared/form-checks';
import type { RecordForm } from '../../shared/use-record-form';
import { nameProblem } from '../on-call-checks';
import type { ListItemProps } from '../list-controls';
import type { PeopleDirectory } from '../people/use-people';
import { timeZoneProblem, viewerTimeZone } from './time-zones';

/*
 * The schedule dialog's form. The screens carry no schema library, so these checks repeat what createScheduleSchema
 * checks, in its words and at its paths ('rotations.0.start'); schedule-form.spec.ts holds them to the schema. The
 * API judges again (and whether each person exists).
 */

/** A rotation's shift: a day or a week of the schedule's wall clock, or a number of real hours. */
export type ShiftKind = 'daily' | 'weekly' | 'hours';

export interface RotationDraft {
  /** account ids, in the order the rotation goes round them */
  users: string[];
  /** the first shift's start, YYYY-MM-DDTHH:MM (a datetime-local value) in the schedule's time zone */
  start: string;
  kind: ShiftKind;
  /** the shift's length when `kind` is hours */
  hours: string;
  /** HH:MM, daily and weekly shifts only; '' hands over at the start's time of day */
  handoffTime: string;
}

export interface OverrideDraft {
  /** an account id, '' until someone is chosen */
  user: string;
  start: string;
  end: string;
}

export interface ScheduleDraft {
  name: string;
  timeZone: string;
  rotations: RotationDraft[];
  overrides: OverrideDraft[];
}

export type ScheduleField =
  | 'name'
  | 'timeZone'
  | 'rotations'
  | 'overrides'
  | `rotations.${number}.${'users' | 'start' | 'lengthHours' | 'handoffTime'}`
  | `overrides.${number}.${'user' | 'start' | 'end'}`;

const WALL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;
const wallTimeProblem = (text: string) => (WALL_TIME.test(text) ? undefined : 'must be a wall-clock time YYYY-MM-DDTHH:MM');

const pad = (value: number) => String(value).padStart(2, '0');
/** Today at 09:00 on the reader's wall clock: where a new rotation starts unless changed. */
function todayAtNine(now = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T09:00`;
}

/** What the dialog gives each rotation's and override's fields. */
export interface ScheduleItemProps<Draft, Part> extends ListItemProps<Draft, Part, ScheduleField> {
  timeZone: string;
  people: PeopleDirectory;
}

export const emptyRotation = (): RotationDraft => ({ users: [], start: todayAtNine(), kind: 'weekly', hours: '12', handoffTime: '09:00' });
export const emptyOverride = (): OverrideDraft => ({ user: '', start: '', end: '' });

function hoursProblem(text: string): string | undefined {
  const hours = Number(text);
  if (text.trim() === '' || !Number.isInteger(hours) || hours < 1 || hours > L.shiftHours) return `must be from 1 to ${L.shiftHours} hours`;
  return undefined;
}

function rotationProblems(rotation: RotationDraft, index: number): Partial<Record<ScheduleField, string>> {
  const path = `rotations.${index}` as const;
  return {
    [`${path}.users`]:
      rotation.users.length === 0
        ? 'must name someone'
        : rotation.users.length > L.usersPerRotation
          ? `must name at most ${L.usersPerRotation} people`
          : undefined,
    [`${path}.start`]: wallTimeProblem(rotation.start),
    [`${path}.lengthHours`]: rotation.kind === 'hours' ? hoursProblem(rotation.hours) : undefined,
    [`${path}.handoffTime`]:
      rotation.kind !== 'hours' && rotation.handoffTime && !CLOCK.test(rotation.handoffTime) ? 'must be a time of day HH:MM' : undefined,
  };
}

function overrideProblems(override: OverrideDraft, index: number): Partial<Record<ScheduleField, string>> {
  const path = `overrides.${index}` as const;
  const start = wallTimeProblem(override.start);
  const end = wallTimeProblem(override.end);
  return {
    [`${path}.user`]: override.user ? undefined : 'must be a user id',
    [`${path}.start`]: start,
    // the schema compares them as text, which orders YYYY-MM-DDTHH:MM as time does
    [`${path}.end`]: end ?? (!start && override.end <= override.start ? 'must be after the start' : undefined),
  };
}

function problems(draft: ScheduleDraft): Problems<ScheduleField> {
  return compact<ScheduleField>({
    name: nameProblem(draft.name),
    timeZone: timeZoneProblem(draft.timeZone),
    rotations: draft.rotations.length > L.rotationsPerSchedule ? `must hold at most ${L.rotationsPerSchedule} rotations` : undefined,
    overrides: draft.overrides.length > L.overridesPerSchedule ? `must hold at most ${L.overridesPerSchedule} overrides` : undefined,
    ...Object.assign({}, ...draft.rotations.map(rotationProblems), ...draft.overrides.map(overrideProblems)),
  });
}

function toBody(draft: ScheduleDraft): NewSchedule & { rotations: NonNullable<NewSchedule['rotations']> } {
  return {
    name: draft.name.trim(),
    timeZone: draft.timeZone,
    rotations: draft.rotations.map((rotation) => ({
      users: rotation.users,
      start: rotation.start,
      lengthHours: rotation.kind === 'hours' ? Number(rotation.hours) : rotation.kind,
      // only daily and weekly shifts hand over on the wall clock; left out, they hand over at the start's time
      ...(rotation.kind !== 'hours' && rotation.handoffTime ? { handoffTime: rotation.handoffTime } : {}),
    })),
    overrides: draft.overrides.map((override) => ({ ...override })),
  };
}

const draftOf = (schedule: ScheduleView): ScheduleDraft => ({
  name: schedule.name,
  timeZone: schedule.timeZone,
  rotations: schedule.rotations.map((rotation) => ({
    users: [...rotation.users],
    start: rotation.start,
    kind: typeof rotation.lengthHours === 'number' ? 'hours' : rotation.lengthHours,
    hours: typeof rotation.lengthHours === 'number' ? String(rotation.lengthHours) : '12',
    handoffTime: rotation.handoffTime ?? '',
  })),
  overrides: schedule.overrides.map((override) => ({ ...override })),
});

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The schedule dialog's form: its empty draft, its checks, and what it sends (see useRecordForm). */
export const SCHEDULE_FORM: RecordForm<ScheduleDraft, ScheduleField, ScheduleView, NewSchedule, UpdateSchedule> = {
  // the fields a refusal may name ('rotations.0: …' goes under the rotations)
  fields: ['name', 'timeZone', 'rotations', 'overrides'],
  // a new schedule keeps the reader's own time zone until they pick another
  empty: () => ({ name: '', timeZone: viewerTimeZone(), rotations: [emptyRotation()], overrides: [] }),
  draftOf,
  problems,
  toCreate: toBody,

  /** What the edit changes: a list is sent whole when any of it changed (PATCH replaces the lists). */
  toUpdate(draft, schedule) {
    const after = toBody(draft);
    const before = toBody(draftOf(schedule));
    const patch: UpdateSchedule = {};
    if (after.name !== before.name) patch.name = after.name;
    if (after.timeZone !== before.timeZone) patch.timeZone = after.timeZone;
    if (!same(after.rotations, before.rotations)) patch.rotations = after.rotations;
    if (!same(after.overrides, before.overrides)) patch.overrides = after.overrides;
    return patch;
  },
};
