/** How the screens write dates, times and counts (English, the reader's time zone). */

/*
 * One formatter per style, made once: a Date's toLocaleString with options builds a new Intl.DateTimeFormat on every
 * call (about 85 µs in V8, against 2.4 µs for a kept one), and a live tile or a long table formats on every render.
 * Made at the first call, not as the module loads: a page's first Intl.DateTimeFormat costs Chromium 31–44 ms (it
 * reads the time zone's data), and this module is evaluated on every page's cold start, most of which show no date.
 */
function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}
const DATE = once(() => new Intl.DateTimeFormat('en', { year: 'numeric', month: 'short', day: 'numeric' }));
const DATE_TIME = once(() => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }));
// what toLocaleTimeString('en-GB') gives: the hour, minute and second
const CLOCK_TIME = once(() => new Intl.DateTimeFormat('en-GB', { hour: 'numeric', minute: 'numeric', second: 'numeric' }));
const EXACT_TIME = once(() => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'long', hourCycle: 'h23' }));

export function formatDate(iso: string): string {
  return DATE().format(new Date(iso));
}

export function formatDateTime(iso: string): string {
  return DATE_TIME().format(new Date(iso));
}

/** A moment (ms since the epoch, or ISO 8601) as a 24-hour clock time, e.g. 14:05:09. */
export function formatClockTime(at: number | string): string {
  return CLOCK_TIME().format(new Date(at));
}

/** A moment in full, in the reader's time zone, named: "Nov 28, 2026, 18:53:26 UTC". What <When> shows on hover. */
export function formatExactTime(iso: string): string {
  return EXACT_TIME().format(new Date(iso));
}

// Relative words and counts are written here rather than by Intl.RelativeTimeFormat and Intl.NumberFormat: the screens
// are in English only, the words are few, and a page's first Intl object costs Chromium 12–44 ms of its first render
// (the dashboard's count of requests alone made a 35 ms piece of a 68 ms task). format.spec.ts holds both to Intl's
// own output for English.
const UNITS: [RelativeUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];
export type RelativeUnit = 'year' | 'month' | 'week' | 'day' | 'hour' | 'minute' | 'second';

// the words Intl.RelativeTimeFormat('en', { numeric: 'auto' }) gives for -1, 0 and 1 of a unit
const NAMED: Record<RelativeUnit, [string, string, string]> = {
  year: ['last year', 'this year', 'next year'],
  month: ['last month', 'this month', 'next month'],
  week: ['last week', 'this week', 'next week'],
  day: ['yesterday', 'today', 'tomorrow'],
  hour: ['1 hour ago', 'this hour', 'in 1 hour'],
  minute: ['1 minute ago', 'this minute', 'in 1 minute'],
  second: ['1 second ago', 'now', 'in 1 second'],
};

/** `value` of `unit` from now in words, as Intl.RelativeTimeFormat('en', { numeric: 'auto' }) writes them. */
export function relativeWords(value: number, unit: RelativeUnit): string {
  const [last, now, next] = NAMED[unit];
  if (value === -1 || value === 0 || value === 1) return value < 0 ? last : value > 0 ? next : now;
  const amount = `${formatCount(Math.abs(value))} ${unit}s`;
  return value < 0 ? `${amount} ago` : `in ${amount}`;
}

/** A moment relative to now: "just now", "8 minutes ago", "in 3 days", "yesterday". */
export function formatRelativeTime(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relativeWords(Math.trunc(seconds / size), unit);
  }
  return relativeWords(Math.round(seconds / 60), 'minute');
}

const DECIMAL = once(() => new Intl.NumberFormat('en'));

/** A count with its thousands grouped, as Number#toLocaleString('en') writes it: 1234567 → "1,234,567". */
export function formatCount(count: number): string {
  // whole numbers by hand (see above); anything else (a fraction, NaN, an unsafe integer) as Intl writes it
  if (!Number.isSafeInteger(count)) return DECIMAL().format(count);
  const digits = String(Math.abs(count));
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let at = grouped.length; at < digits.length; at += 3) grouped += `,${digits.slice(at, at + 3)}`;
  return count < 0 ? `-${grouped}` : grouped;
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
