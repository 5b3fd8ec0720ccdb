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
