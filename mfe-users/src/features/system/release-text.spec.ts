import { activeText, agoText, canaryPercentOf, errorsAfterRenderText, loadsText, refusalText, sizeText, timingText } from './release-text';

const NOW = Date.parse('2026-03-05T12:00:00.000Z');
const before = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

it('says how long ago in the largest whole unit, and a moment ahead of this clock as just now', () => {
  expect(
    [5, 42, 120, 3 * 3600, 26 * 3600, 3 * 86400, 15 * 86400, 90 * 86400, 400 * 86400, -30].map((s) => agoText(before(s), NOW)),
  ).toEqual([
    'just now',
    '42 seconds ago',
    '2 minutes ago',
    '3 hours ago',
    'yesterday',
    '3 days ago',
    '2 weeks ago',
    '3 months ago',
    'last year',
    'just now',
  ]);
});

it('takes a canary share of a whole 1 to 99 only', () => {
  expect(['1', '99', ' 42 ', '0', '100', '2.5', '', 'ten'].map(canaryPercentOf)).toEqual([1, 99, 42, null, null, null, null, null]);
});

it('writes sizes, loads and timings', () => {
  expect([0, 600, 831_488, 5_000_000].map(sizeText)).toEqual(['0 KB', '1 KB', '812 KB', '4,883 KB']);
  expect(loadsText({ count: 1, failed: 0, activeVisitors: 1, p50Ms: 12, p95Ms: 12, errorsAfterRender: 0 })).toBe('1 load, 0 % failed');
  expect(loadsText({ count: 3, failed: 1, activeVisitors: 0, p50Ms: null, p95Ms: null, errorsAfterRender: 0 })).toBe(
    '3 loads, 33.3 % failed',
  );
  expect(
    [0, 1, 1200].map((activeVisitors) =>
      activeText({ count: 3, failed: 0, activeVisitors, p50Ms: null, p95Ms: null, errorsAfterRender: 0 }),
    ),
  ).toEqual(['0 people in the last half hour', '1 person in the last half hour', '1,200 people in the last half hour']);
  expect(
    [1, 3, 1500].map((errorsAfterRender) =>
      errorsAfterRenderText({ count: 3, failed: 0, activeVisitors: 1, p50Ms: null, p95Ms: null, errorsAfterRender }),
    ),
  ).toEqual(['1 error after render', '3 errors after render', '1,500 errors after render']);
  expect(timingText({ count: 3, failed: 1, activeVisitors: 2, p50Ms: 1234.6, p95Ms: null, errorsAfterRender: 0 })).toBe(
    'p50 1,235 ms · p95 —',
  );
});

it('puts the server’s reason after what did not happen, each a sentence', () => {
  const refusal = { status: 400, data: { statusCode: 400, error: 'Bad Request', message: 'mfe_users has no canary running' } };
  expect(refusalText('The canary was not aborted', refusal)).toBe('The canary was not aborted. mfe_users has no canary running.');
  expect(refusalText('Not done.', { status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toBe(
    'Not done. The hub could not be reached; try again.',
  );
});
