import { z } from 'zod';
import { ON_CALL_LIMITS as L, SHIFT_LENGTHS } from './on-call-vocabulary';

/* The bodies of POST/PATCH /api/escalation-policies and /api/schedules, and of …/silence. Words in on-call-vocabulary.ts. */

const name = z
  .string({ message: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(L.nameLength, `must be at most ${L.nameLength} characters`);
const ids = (what: string) =>
  z
    .array(z.string({ message: `must be ${what} ids` }).uuid(`must be ${what} ids`), { message: `must be a list of ${what} ids` })
    .max(L.targetsPerStep, `must hold at most ${L.targetsPerStep}`)
    .transform((list) => [...new Set(list)]);

/** An IANA time zone this runtime knows (Europe/Berlin, America/New_York, UTC). */
export const timeZoneSchema = z.string({ message: 'must be a time zone' }).refine(
  (zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  },
  { message: 'must be an IANA time zone such as Europe/Berlin' },
);

/** A wall-clock date and time, without an offset: YYYY-MM-DDTHH:MM (in the schedule's time zone). */
const wallTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'must be a wall-clock time YYYY-MM-DDTHH:MM');
const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day HH:MM');

export const escalationStepSchema = z.strictObject({
  notify: z
    .strictObject({
      channels: ids('channel').optional(),
      users: ids('user').optional(),
      schedule: z.string().uuid('must be a schedule id').optional(),
    })
    .refine((notify) => (notify.channels?.length ?? 0) + (notify.users?.length ?? 0) + (notify.schedule ? 1 : 0) > 0, {
      message: 'must name channels, users or a schedule',
    }),
  waitMinutes: z
    .number({ message: 'must be a number' })
    .int('must be whole minutes')
    .min(0)
    .max(L.waitMinutes, `must be at most ${L.waitMinutes}`),
});

export const createEscalationPolicySchema = z.strictObject({
  name,
  steps: z
    .array(escalationStepSchema)
    .min(1, 'must hold at least one step')
    .max(L.stepsPerPolicy, `must hold at most ${L.stepsPerPolicy} steps`),
  repeat: z.number({ message: 'must be a number' }).int().min(0).max(L.repeat, `must be from 0 to ${L.repeat}`).default(0),
});
export const updateEscalationPolicySchema = createEscalationPolicySchema.partial();
export type CreateEscalationPolicy = z.infer<typeof createEscalationPolicySchema>;

export const scheduleRotationSchema = z.strictObject({
  users: z.array(z.string().uuid('must be user ids')).min(1, 'must name someone').max(L.usersPerRotation),
  start: wallTime,
  lengthHours: z.union([z.number().int().min(1).max(L.shiftHours), z.enum(SHIFT_LENGTHS)], { message: 'must be hours, daily or weekly' }),
  handoffTime: clock.optional(),
});

export const scheduleOverrideSchema = z.strictObject({ user: z.string().uuid('must be a user id'), start: wallTime, end: wallTime });

const scheduleFields = z.strictObject({
  name,
  timeZone: timeZoneSchema,
  rotations: z.array(scheduleRotationSchema).max(L.rotationsPerSchedule).default([]),
  overrides: z.array(scheduleOverrideSchema).max(L.overridesPerSchedule).default([]),
});

function overridesInOrder(schedule: { overrides?: { start: string; end: string }[] }, ctx: z.RefinementCtx) {
  schedule.overrides?.forEach((override, index) => {
    if (override.end <= override.start)
      ctx.addIssue({ code: 'custom', path: ['overrides', index, 'end'], message: 'must be after the start' });
  });
}

/** POST /api/schedules */
export const createScheduleSchema = scheduleFields.superRefine(overridesInOrder);
/** The fields of a schedule, without the refinement (what the configuration document builds on). */
export const scheduleFieldsSchema = scheduleFields;
/** PATCH /api/schedules/{id}: any field; rotations and overrides replace the lists */
export const updateScheduleSchema = z
  .strictObject({
    name: scheduleFields.shape.name,
    timeZone: scheduleFields.shape.timeZone,
    rotations: z.array(scheduleRotationSchema).max(L.rotationsPerSchedule),
    overrides: scheduleFields.shape.overrides.unwrap(),
  })
  .partial()
  .superRefine(overridesInOrder);
export type CreateSchedule = z.infer<typeof createScheduleSchema>;
export type UpdateSchedule = z.infer<typeof updateScheduleSchema>;

/** GET /api/schedules/{id}/on-call?at= (default now) */
export const onCallQuerySchema = z.strictObject({
  at: z.iso.datetime({ offset: true, message: 'must be an ISO time such as 2026-11-29T09:00:00Z' }).optional(),
});

/** A person as a schedule names them. */
export interface OnCallPerson {
  id: string;
  email: string;
  name: string | null;
}

export interface ScheduleView {
  id: string;
  name: string;
  timeZone: string;
  rotations: CreateSchedule['rotations'];
  overrides: CreateSchedule['overrides'];
  /** who is on call now */
  onCallNow: OnCallPerson | null;
  createdAt: string;
  updatedAt: string;
}

/** POST /api/alert-groups/{id}/silence */
export const silenceSchema = z.strictObject({
  minutes: z.number({ message: 'must be a number' }).int().min(1).max(L.silenceMinutes, `must be at most ${L.silenceMinutes}`),
});

export interface EscalationPolicyView {
  id: string;
  name: string;
  steps: CreateEscalationPolicy['steps'];
  repeat: number;
  createdAt: string;
  updatedAt: string;
}
