/*
 * On call: alert groups (what an escalation policy's events gather, per subject), escalation policies, and schedules
 * of who is on call. Zod-free, so that the screens can use the words without a schema library.
 */

/** An alert group's states: firing until someone acknowledges it or its subject recovers; silenced until a time. */
export const ALERT_GROUP_STATES = ['firing', 'acknowledged', 'silenced', 'resolved'] as const;
export type AlertGroupState = (typeof ALERT_GROUP_STATES)[number];

export const ALERT_GROUP_STATE_LABELS: Record<AlertGroupState, string> = {
  firing: 'Firing',
  acknowledged: 'Acknowledged',
  silenced: 'Silenced',
  resolved: 'Resolved',
};

/** What an alert group is about: the subject of the events it gathers. */
export const ALERT_GROUP_SUBJECTS = ['breaker', 'domain', 'slo', 'remote'] as const;
export type AlertGroupSubject = (typeof ALERT_GROUP_SUBJECTS)[number];

/** The events an alert group raises for notification rules. */
export const ALERT_GROUP_EVENTS = ['alert_group.acknowledged', 'alert_group.escalated', 'alert_group.resolved'] as const;
export type AlertGroupEventType = (typeof ALERT_GROUP_EVENTS)[number];

/**
 * What every message of an alert group carries (`data.alertGroup`): the group, the step that sent it, its page, and
 * the link that acknowledges it — signed, bound to the group and to the person or channel the message went to, good
 * until the group resolves. Opening the link shows a confirmation page; only its button (a POST) acknowledges.
 */
export interface AlertGroupMessageData {
  id: number;
  state: AlertGroupState;
  /** the escalation step that sent this message, from 1 (repeats count on: a policy of 2 steps repeated once has 4) */
  step: number | null;
  url: string;
  acknowledgeUrl: string | null;
}

/** The data of alert_group.acknowledged, .escalated and .resolved, as webhooks receive it. */
export interface AlertGroupEventData {
  alertGroup: { id: number; title: string; state: AlertGroupState; subject: { kind: AlertGroupSubject; id: number; name: string } };
  /** who acknowledged or resolved it ("recovery" when its subject recovered), or the step that escalated it */
  by?: string;
  step?: number;
  url: string;
}

/** How long a rotation's shift lasts: a number of hours, or a day or a week of the schedule's own wall clock. */
export const SHIFT_LENGTHS = ['daily', 'weekly'] as const;
export type ShiftLength = number | (typeof SHIFT_LENGTHS)[number];

export const ON_CALL_LIMITS = {
  policies: 200,
  stepsPerPolicy: 10,
  targetsPerStep: 20,
  /** a step waits this long at most before the next */
  waitMinutes: 1440,
  repeat: 5,
  schedules: 200,
  rotationsPerSchedule: 10,
  usersPerRotation: 50,
  overridesPerSchedule: 200,
  /** a rotation's shift in hours, at most four weeks */
  shiftHours: 672,
  nameLength: 120,
  silenceMinutes: 10_080,
  /** a contact method's URL */
  contactUrlLength: 2048,
} as const;

/** A person's own channels an escalation reaches them through, besides their e-mail; at most this many each. */
export const CONTACT_METHOD_TYPES = ['slack', 'discord', 'webhook'] as const;
export type ContactMethodType = (typeof CONTACT_METHOD_TYPES)[number];
export const CONTACT_METHODS_PER_PERSON = 5;

/** What a breaker may depend on, at most this many: a domain, another breaker, or a service by its name. */
export const DEPENDENCY_KINDS = ['domain', 'breaker', 'service'] as const;
export type DependencyKind = (typeof DEPENDENCY_KINDS)[number];
export const DEPENDENCIES_PER_BREAKER = 20;

/** A service's name as agents and scrape targets give it, and as a breaker's dependency or an SLO names it. */
export const SERVICE_NAME_PATTERN = /^[a-z0-9-]{1,64}$/;

/** A schedule as the on-call rule reads it: rotations in order (the first with someone on call wins), then overrides on top. */
export interface ScheduleRules {
  timeZone: string;
  rotations: readonly {
    users: readonly string[];
    /** the first shift's start, in the schedule's wall clock: YYYY-MM-DDTHH:MM */
    start: string;
    lengthHours: ShiftLength;
    /** daily and weekly shifts hand over at this wall-clock time (HH:MM) */
    handoffTime?: string;
  }[];
  overrides: readonly { user: string; start: string; end: string }[];
}
