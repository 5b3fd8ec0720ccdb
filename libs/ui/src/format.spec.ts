import { formatClockTime, formatCount, formatDate, formatDateTime, formatExactTime, formatRelativeTime, relativeWords } from './format';

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

describe("the words written without Intl are Intl's own for English", () => {
  const intl = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  const units = ['year', 'month', 'week', 'day', 'hour', 'minute', 'second'] as const;
  const values = [...Array.from({ length: 241 }, (_, i) => i - 120), -1001, 1001, -12_345, 1_000_000];

  it.each(units)('relativeWords for every %s from -120 to 120 and a few large ones', (unit) => {
    for (const value of values) expect(relativeWords(value, unit)).toBe(intl.format(value, unit));
  });

  it('formatRelativeTime across two years either side of now, finer near now', () => {
    const relative = (seconds: number) => {
      // what formatRelativeTime wrote with Intl.RelativeTimeFormat before it wrote the words itself
      if (Math.abs(seconds) < 45) return 'just now';
      for (const [unit, size] of [
        ['year', 31_536_000],
        ['month', 2_592_000],
        ['week', 604_800],
        ['day', 86_400],
        ['hour', 3600],
        ['minute', 60],
      ] as const) {
        if (Math.abs(seconds) >= size) return intl.format(Math.trunc(seconds / size), unit);
      }
      return intl.format(Math.round(seconds / 60), 'minute');
    };
    // steps that are not a divisor of any unit, so every unit's boundaries are crossed at many offsets
    const step = (seconds: number) => (Math.abs(seconds) < 7200 ? 7 : Math.abs(seconds) < 60 * 86_400 ? 1_801 : 43_201);
    const wrong: string[] = [];
    for (let seconds = -2 * 31_536_000; seconds <= 2 * 31_536_000; seconds += step(seconds)) {
      const written = formatRelativeTime(new Date(NOW + seconds * 1000).toISOString(), NOW);
      if (written !== relative(seconds)) wrong.push(`${seconds} s: ${written}, Intl ${relative(seconds)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('formatCount groups as toLocaleString("en"), and hands what is not a safe whole number to Intl', () => {
    const counts = [0, 7, -7, 999, 1000, -1000, 12_345, 999_999, 1_000_000, -98_765_432, Number.MAX_SAFE_INTEGER];
    for (let n = 1; n < 1e15; n = n * 7 + 3) counts.push(n, -n);
    for (const count of [...counts, 1234.5678, -0.25, 2 ** 60, NaN, Infinity]) {
      expect(formatCount(count)).toBe(count.toLocaleString('en'));
    }
  });
});
