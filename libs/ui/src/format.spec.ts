import { formatExactTime, formatRelativeTime } from './format';

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
