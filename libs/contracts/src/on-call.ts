import { z } from 'zod';
import {
  ALERT_GROUP_STATES,
  CONTACT_METHOD_TYPES,
  DEPENDENCIES_PER_BREAKER,
  DEPENDENCY_KINDS,
  ON_CALL_LIMITS as L,
  SERVICE_NAME_PATTERN,
  SHIFT_LENGTHS,
  type AlertGroupState,
  type AlertGroupSubject,
  type ContactMethodType,
  type DependencyKind,
} from './on-call-vocabulary';

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

/** GET /api/schedules/{id}/shifts?from=&to=: at most SHIFTS_SPAN_DAYS apart. */
export const SHIFTS_SPAN_DAYS = 62;
export const shiftsQuerySchema = z
  .strictObject({
    from: z.iso.datetime({ offset: true, message: 'must be an ISO time such as 2026-11-29T09:00:00Z' }),
    to: z.iso.datetime({ offset: true, message: 'must be an ISO time such as 2026-12-13T09:00:00Z' }),
  })
  .refine((query) => Date.parse(query.to) > Date.parse(query.from), { message: 'to must be after from', path: ['to'] })
  .refine((query) => Date.parse(query.to) - Date.parse(query.from) <= SHIFTS_SPAN_DAYS * 86_400_000, {
    message: `must span at most ${SHIFTS_SPAN_DAYS} days`,
    path: ['to'],
  });

/** GET /api/on-call/people answers at most this many active persons (by e-mail), for the pickers of schedules and policies. */
export const ON_CALL_PEOPLE_LIMIT = 500;

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

/* Alert groups: GET /api/alert-groups, GET /api/alert-groups/{id}, and the actions on one. */

export const ALERT_GROUP_PAGE_LIMITS = { default: 50, max: 200 } as const;

/** GET /api/alert-groups: newest first, filtered; `before` is the id the page starts below (the last page's `nextBefore`). */
export const alertGroupQuerySchema = z.strictObject({
  state: z.enum(ALERT_GROUP_STATES, { message: `must be one of ${ALERT_GROUP_STATES.join(', ')}` }).optional(),
  /** `breaker:12`, `domain:3`: one subject's groups */
  subject: z
    .string()
    .regex(/^(breaker|domain|slo|remote):\d{1,9}$/, 'must be a subject such as breaker:12 or domain:3')
    .optional(),
  service: z.string().trim().min(1).max(64).optional(),
  before: z.coerce.number({ message: 'must be a group id' }).int().positive().max(2_147_483_647).optional(),
  limit: z.coerce
    .number({ message: 'must be a number' })
    .int()
    .min(1)
    .max(ALERT_GROUP_PAGE_LIMITS.max)
    .default(ALERT_GROUP_PAGE_LIMITS.default),
});
export type AlertGroupQuery = z.infer<typeof alertGroupQuerySchema>;

export interface AlertGroupView {
  id: number;
  state: AlertGroupState;
  /** what it is about; `service` is the breaker's service (null for the hub's own breakers and for other subjects) */
  subject: { kind: AlertGroupSubject; id: number; name: string };
  service: string | null;
  title: string;
  escalationPolicy: { id: string; name: string } | null;
  openedAt: string;
  acknowledgedAt: string | null;
  acknowledgedBy: string | null;
  resolvedAt: string | null;
  resolvedBy: string | null;
  silencedUntil: string | null;
  /** the step the escalation fires next (from 1) and when; null once acknowledged, resolved or every step fired */
  nextStep: { step: number; at: string } | null;
  /** events of its own subject, and events of subjects depending on it that joined it */
  eventCount: number;
  causedCount: number;
}

export const ALERT_GROUP_ENTRY_KINDS = [
  'opened',
  'event',
  'caused',
  'step',
  'acknowledged',
  'unacknowledged',
  'silenced',
  'unsilenced',
  'resolved',
  'escalation_ended',
] as const;
export type AlertGroupEntryKind = (typeof ALERT_GROUP_ENTRY_KINDS)[number];

export interface AlertGroupEntryView {
  id: string;
  at: string;
  kind: AlertGroupEntryKind;
  /** one line a person reads: "Breaker payments opened", "Step 2: webhook ops-hook", "Acknowledged by ana@example.com" */
  text: string;
  /** the event's type (event, caused), the step's number (step), who acted (acknowledged, resolved, silenced) */
  eventType: string | null;
  step: number | null;
  actor: string | null;
  /** caused: the subject whose event joined this group */
  subject: { kind: AlertGroupSubject; id: number; name: string } | null;
}

export interface AlertGroupDeliveryView {
  id: string;
  /** "ana@example.com", "ops-hook (webhook)", "Slack of ana@example.com" */
  to: string;
  step: number | null;
  status: 'pending' | 'delivering' | 'delivered' | 'failed' | 'muted' | 'suppressed';
  attempts: number;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

/** GET /api/alert-groups/{id}: the group, its timeline (oldest first, at most 500) and every message sent for it. */
export interface AlertGroupDetailView extends AlertGroupView {
  timeline: AlertGroupEntryView[];
  deliveries: AlertGroupDeliveryView[];
}

export interface AlertGroupPage {
  items: AlertGroupView[];
  nextBefore: number | null;
}

/** GET /api/alert-groups/summary: the groups the caller may act on, by state (the top bar's count is `firing`). */
export interface AlertGroupSummary {
  firing: number;
  acknowledged: number;
  silenced: number;
}

/** GET /api/alert-groups/response-times?days=30: mean time to acknowledge and to resolve, per service. */
export const responseTimesQuerySchema = z.strictObject({
  days: z.coerce.number({ message: 'must be a number' }).int().min(1).max(90).default(30),
});
export interface ResponseTimesView {
  days: number;
  services: {
    /** the breakers' service; null: the hub's own breakers, and domain, release and SLO groups */
    service: string | null;
    groups: number;
    acknowledged: number;
    resolved: number;
    mttaSeconds: number | null;
    mttrSeconds: number | null;
  }[];
}

/* Each person's contact methods: GET/POST /api/account/contact-methods, DELETE /api/account/contact-methods/{id}. */

export const createContactMethodSchema = z.strictObject({
  type: z.enum(CONTACT_METHOD_TYPES, { message: `must be one of ${CONTACT_METHOD_TYPES.join(', ')}` }),
  url: z
    .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
    .max(L.contactUrlLength, `must be at most ${L.contactUrlLength} characters`),
  label: z.string().trim().max(L.nameLength, `must be at most ${L.nameLength} characters`).optional(),
});
export type CreateContactMethod = z.infer<typeof createContactMethodSchema>;

/** A contact method: the person's verified e-mail (id `email`, always first) or a personal channel; never its URL. */
export interface ContactMethodView {
  id: string;
  type: 'email' | ContactMethodType;
  label: string;
  /** the e-mail address, or the URL's host (the path holds the credentials) */
  target: string;
  createdAt: string | null;
}

/* What a breaker depends on: GET/PUT /api/circuit-breakers/{id}/dependencies. */

/** A parent: a domain or another breaker by id, or a service (the agents' and scrapes' `service`) by name. */
export const dependencySchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('domain'), id: z.number({ message: 'must be an id' }).int().positive().max(2_147_483_647) }),
    z.strictObject({ kind: z.literal('breaker'), id: z.number({ message: 'must be an id' }).int().positive().max(2_147_483_647) }),
    z.strictObject({
      kind: z.literal('service'),
      name: z.string().trim().regex(SERVICE_NAME_PATTERN, 'must be a service name'),
    }),
  ],
  { message: `must name a kind: ${DEPENDENCY_KINDS.join(', ')}` },
);
export type Dependency = z.infer<typeof dependencySchema>;

export const breakerDependenciesSchema = z.strictObject({
  dependsOn: z.array(dependencySchema).max(DEPENDENCIES_PER_BREAKER, `must hold at most ${DEPENDENCIES_PER_BREAKER}`),
});
export type BreakerDependencies = z.infer<typeof breakerDependenciesSchema>;

export interface BreakerDependenciesView {
  breakerId: number;
  /** services by name (id null) */
  dependsOn: { kind: DependencyKind; id: number | null; name: string }[];
  /** the open alert group of a parent this breaker's events join now, if any */
  quietedBy: { groupId: number; title: string } | null;
}
