import { Temporal } from '@js-temporal/polyfill';
import type { ScheduleRules } from '@cbh/contracts';

/** A wall-clock time of the schedule's zone as an instant; a time a DST change skips or repeats is read as the zone's clocks did. */
const zoned = (wall: string, timeZone: string) =>
  Temporal.PlainDateTime.from(wall).toZonedDateTime(timeZone, { disambiguation: 'compatible' });

/**
 * The date of the last hand-over at or before a moment: shifts of a day or a week hand over at `handoff` on the
 * schedule's own wall clock, so a day of 23 or 25 hours (a DST change) is still one shift.
 */
function lastHandoverDate(moment: Temporal.ZonedDateTime, handoff: Temporal.PlainTime): Temporal.PlainDate {
  const date = moment.toPlainDate();
  const boundary = date.toZonedDateTime({ timeZone: moment.timeZoneId, plainTime: handoff });
  return Temporal.ZonedDateTime.compare(boundary, moment) > 0 ? date.subtract({ days: 1 }) : date;
}

/**
 * Who is on call at a moment: the last override covering it, else the first rotation that has begun, whose shifts
 * go round its people in order from its start. A shift of N hours lasts N hours of real time; a daily or weekly one
 * runs from hand-over to hand-over on the schedule's wall clock (handoffTime, or the start's time of day). Null
 * when nobody is.
 */
export function onCallAt(rules: ScheduleRules, at: Date): string | null {
  const moment = Temporal.Instant.fromEpochMilliseconds(at.getTime()).toZonedDateTimeISO(rules.timeZone);
  for (const override of [...rules.overrides].reverse()) {
    const start = zoned(override.start, rules.timeZone);
    const end = zoned(override.end, rules.timeZone);
    if (Temporal.ZonedDateTime.compare(start, moment) <= 0 && Temporal.ZonedDateTime.compare(moment, end) < 0) return override.user;
  }
  for (const rotation of rules.rotations) {
    if (rotation.users.length === 0) continue;
    const start = zoned(rotation.start, rules.timeZone);
    if (Temporal.ZonedDateTime.compare(moment, start) < 0) continue;
    let shift: number;
    if (typeof rotation.lengthHours === 'number') {
      shift = Math.floor((moment.epochMilliseconds - start.epochMilliseconds) / (rotation.lengthHours * 3_600_000));
    } else {
      const handoff = rotation.handoffTime ? Temporal.PlainTime.from(rotation.handoffTime) : start.toPlainTime();
      const days = lastHandoverDate(start, handoff).until(lastHandoverDate(moment, handoff), { largestUnit: 'days' }).days;
      shift = rotation.lengthHours === 'daily' ? days : Math.floor(days / 7);
    }
    return rotation.users[shift % rotation.users.length]!;
  }
  return null;
}

/** One stretch of a schedule with one person on call (or nobody). */
export interface Shift {
  user: string | null;
  start: Date;
  end: Date;
}

/** The moments someone may hand over between two instants: each rotation's shift boundaries and each override's edges. */
function handovers(rules: ScheduleRules, from: Temporal.ZonedDateTime, to: Temporal.ZonedDateTime): number[] {
  const moments = new Set<number>();
  const within = (ms: number) => ms > from.epochMilliseconds && ms < to.epochMilliseconds;
  for (const override of rules.overrides) {
    for (const edge of [override.start, override.end]) {
      const ms = zoned(edge, rules.timeZone).epochMilliseconds;
      if (within(ms)) moments.add(ms);
    }
  }
  for (const rotation of rules.rotations) {
    const start = zoned(rotation.start, rules.timeZone);
    if (within(start.epochMilliseconds)) moments.add(start.epochMilliseconds);
    if (typeof rotation.lengthHours === 'number') {
      const step = rotation.lengthHours * 3_600_000;
      const first = Math.max(0, Math.ceil((from.epochMilliseconds - start.epochMilliseconds) / step));
      for (let ms = start.epochMilliseconds + first * step; ms < to.epochMilliseconds; ms += step) if (within(ms)) moments.add(ms);
      continue;
    }
    const handoff = rotation.handoffTime ? Temporal.PlainTime.from(rotation.handoffTime) : start.toPlainTime();
    const anchor = lastHandoverDate(start, handoff);
    for (
      let date = from.toPlainDate().subtract({ days: 1 });
      Temporal.PlainDate.compare(date, to.toPlainDate()) <= 0;
      date = date.add({ days: 1 })
    ) {
      if (rotation.lengthHours === 'weekly' && anchor.until(date, { largestUnit: 'days' }).days % 7 !== 0) continue;
      const ms = date.toZonedDateTime({ timeZone: rules.timeZone, plainTime: handoff }).epochMilliseconds;
      if (within(ms)) moments.add(ms);
    }
  }
  return [...moments].sort((a, b) => a - b);
}

/**
 * Who is on call from one instant to another, as stretches of one person each (adjacent shifts of the same person
 * joined): what a person's calendar of their own shifts shows.
 */
export function shiftsBetween(rules: ScheduleRules, from: Date, to: Date): Shift[] {
  const start = Temporal.Instant.fromEpochMilliseconds(from.getTime()).toZonedDateTimeISO(rules.timeZone);
  const end = Temporal.Instant.fromEpochMilliseconds(to.getTime()).toZonedDateTimeISO(rules.timeZone);
  const edges = [from.getTime(), ...handovers(rules, start, end), to.getTime()];
  const shifts: Shift[] = [];
  for (let i = 0; i < edges.length - 1; i++) {
    const user = onCallAt(rules, new Date(edges[i]!));
    const last = shifts.at(-1);
    if (last && last.user === user) last.end = new Date(edges[i + 1]!);
    else shifts.push({ user, start: new Date(edges[i]!), end: new Date(edges[i + 1]!) });
  }
  return shifts;
}
