import type { ScheduleView } from '@cbh/contracts';
import { plural } from '@cbh/ui';

type Rotation = ScheduleView['rotations'][number];

const people = (count: number) => `${count} ${count === 1 ? 'person' : 'people'}`;

/** 'Weekly from 2026-11-02 09:00, hand-over 09:00: 3 people in turn', '12-hour shifts from …: 2 people in turn'. */
export function rotationText(rotation: Rotation): string {
  const start = rotation.start.replace('T', ' ');
  const length =
    typeof rotation.lengthHours === 'number'
      ? `${rotation.lengthHours}-hour shifts from ${start}`
      : `${rotation.lengthHours === 'daily' ? 'Daily' : 'Weekly'} from ${start}, hand-over ${rotation.handoffTime ?? start.slice(11)}`;
  return `${length}: ${people(rotation.users.length)} in turn`;
}

/** '2 overrides, 1 ahead': overrides that have not ended yet matter; those past are history. */
export function overridesText(schedule: Pick<ScheduleView, 'overrides'>, nowWallTime: string): string {
  if (schedule.overrides.length === 0) return 'None';
  const ahead = schedule.overrides.filter((override) => override.end > nowWallTime).length;
  return `${plural(schedule.overrides.length, 'override')}, ${ahead} ahead`;
}

/** The wall-clock time now in `timeZone`, as YYYY-MM-DDTHH:MM, to compare with a schedule's times. */
export function wallTimeNow(timeZone: string, now = new Date()): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}
