import type { OnCallPerson } from '@cbh/contracts';
import type { ShiftView } from '@cbh/api-client';

/** How many days ahead the calendar shows, today first. */
export const CALENDAR_DAYS = 14;

/** The span the calendar asks shifts for: from the reader's midnight today, CALENDAR_DAYS local days on. */
export function calendarSpan(now = new Date()): { from: string; to: string } {
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  // by the calendar, not by 24 h steps: a day of a daylight saving change is 23 or 25 hours long
  const to = new Date(now.getFullYear(), now.getMonth(), now.getDate() + CALENDAR_DAYS);
  return { from: from.toISOString(), to: to.toISOString() };
}

/** Who is on call for a stretch of one day, in the reader's time. */
export interface DayPiece {
  start: Date;
  end: Date;
  user: OnCallPerson | null;
  /** from the day's first moment to its last */
  wholeDay: boolean;
}

export interface CalendarDay {
  /** the day's local midnight */
  day: Date;
  pieces: DayPiece[];
}

/**
 * The shifts cut at the reader's midnights, one entry per local day from `from`: a weekly shift reads as seven whole
 * days, a hand-over at 09:00 as two pieces of that day.
 */
export function shiftDays(shifts: readonly ShiftView[], from: Date, days = CALENDAR_DAYS): CalendarDay[] {
  return Array.from({ length: days }, (_, index) => {
    const day = new Date(from.getFullYear(), from.getMonth(), from.getDate() + index);
    const next = new Date(from.getFullYear(), from.getMonth(), from.getDate() + index + 1);
    const pieces = shifts
      .map((shift) => ({ start: new Date(shift.start), end: new Date(shift.end), user: shift.user }))
      .filter((shift) => shift.start < next && shift.end > day)
      .sort((a, b) => a.start.getTime() - b.start.getTime())
      .map((shift) => {
        const start = shift.start > day ? shift.start : day;
        const end = shift.end < next ? shift.end : next;
        return { start, end, user: shift.user, wholeDay: start.getTime() === day.getTime() && end.getTime() === next.getTime() };
      });
    return { day, pieces };
  });
}

const DAY_FORMAT = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
const TIME_FORMAT = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** 'Mon, 30 Nov' in the reader's words. */
export const dayText = (day: Date) => DAY_FORMAT.format(day);

/** '09:00–17:30', ending '24:00' at the next midnight; 'All day'. */
export function pieceTimeText(piece: DayPiece): string {
  if (piece.wholeDay) return 'All day';
  const endsAtMidnight = piece.end.getHours() === 0 && piece.end.getMinutes() === 0 && piece.end > piece.start;
  return `${TIME_FORMAT.format(piece.start)}–${endsAtMidnight ? '24:00' : TIME_FORMAT.format(piece.end)}`;
}

/** How a person is named on the calendar: their e-mail, and their name where the hub has one. */
export const personText = (person: OnCallPerson | null) =>
  person ? (person.name ? `${person.name} (${person.email})` : person.email) : 'Nobody';
