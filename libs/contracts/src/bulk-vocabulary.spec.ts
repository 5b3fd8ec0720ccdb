import { bulkItemNames, bulkSummary } from './bulk-vocabulary';

const ok = (id: number) => ({ id, ok: true, status: 200 });
const failed = (id: number) => ({ id, ok: false, status: 404, message: `No circuit breaker with id ${id}` });

it('sums a bulk answer up in one line, naming the first failures and counting the rest', () => {
  expect(bulkSummary({ results: [ok(1), ok(2), ok(3)] }, 'forced open')).toBe('3 forced open');
  expect(bulkSummary({ results: [ok(1), failed(9), ok(3)] }, 'deleted')).toBe('2 deleted, 1 failed: No circuit breaker with id 9');
  expect(bulkSummary({ results: [failed(5), failed(6), failed(7), failed(8), failed(9)] }, 'reset')).toBe(
    '0 reset, 5 failed: No circuit breaker with id 5; No circuit breaker with id 6; No circuit breaker with id 7; and 2 more',
  );
  expect(bulkSummary({ results: [{ id: 4, ok: false, status: 409 }] }, 'deleted')).toBe('0 deleted, 1 failed: item 4 answered 409');
});

it('names the items a confirmation is about, the first three and how many more', () => {
  expect(bulkItemNames(['payments'])).toBe('payments');
  expect(bulkItemNames(['payments', 'search'])).toBe('payments and search');
  expect(bulkItemNames(['payments', 'search', 'orders'])).toBe('payments, search and orders');
  expect(bulkItemNames(['a', 'b', 'c', 'd', 'e'])).toBe('a, b, c and 2 more');
});
