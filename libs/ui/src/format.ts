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

const RELATIVE = once(() => new Intl.RelativeTimeFormat('en', { numeric: 'auto' }));
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** A moment relative to now: "just now", "8 minutes ago", "in 3 days", "yesterday". */
export function formatRelativeTime(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return RELATIVE().format(Math.trunc(seconds / size), unit);
  }
  return RELATIVE().format(Math.round(seconds / 60), 'minute');
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
