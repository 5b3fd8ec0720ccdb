/** How the screens write dates, times and counts (English, the reader's time zone). */

export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en', { year: 'numeric', month: 'short', day: 'numeric' });
}

export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
}

/** A moment (ms since the epoch, or ISO 8601) as a 24-hour clock time, e.g. 14:05:09. */
export function formatClockTime(at: number | string): string {
  return new Date(at).toLocaleTimeString('en-GB');
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
