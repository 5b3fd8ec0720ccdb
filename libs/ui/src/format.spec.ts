import { formatClockTime, formatDate, formatDateTime, formatExactTime, formatRelativeTime } from './format';

const NOW = Date.parse('2026-11-28T18:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

it.each([
  [10, 'just now'],
  [-10, 'just now'],
  [90, '1 minute ago'],
  [8 * 60, '8 minutes ago'],
  [3 * 3600, '3 hours ago'],
  [26 * 3600, 'yesterday'],
  [10 * 86400, 'last week'],
  [-3 * 86400, 'in 3 days'],
  [400 * 86400, 'last year'],
])('writes a moment %i s before now as "%s"', (seconds, text) => {
  expect(formatRelativeTime(ago(seconds), NOW)).toBe(text);
});

it('writes the exact time with seconds, on a 24-hour clock, naming its time zone', () => {
  expect(formatExactTime('2026-11-28T18:53:26Z')).toMatch(/^Nov 28, 2026, \d{2}:53:26 \S+/);
});

it('writes a date, a date and time, and a clock time as the browser writes them for each style', () => {
  const at = '2026-11-28T03:04:05Z';
  const date = new Date(at);
  expect(formatDate(at)).toBe(date.toLocaleDateString('en', { year: 'numeric', month: 'short', day: 'numeric' }));
  expect(formatDate(at)).toMatch(/^Nov 2[78], 2026$/);
  expect(formatDateTime(at)).toBe(date.toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' }));
  expect(formatClockTime(at)).toBe(date.toLocaleTimeString('en-GB'));
  expect(formatClockTime(Date.parse(at))).toMatch(/^\d{2}:04:05$/);
  expect(formatExactTime(at)).toBe(date.toLocaleString('en', { dateStyle: 'medium', timeStyle: 'long', hourCycle: 'h23' }));
});
