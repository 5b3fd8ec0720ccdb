import { moved } from './components-list';
import { idFrom, idsFrom, slugOf } from './status-text';

it('reads ids only from plain positive whole numbers', () => {
  expect([idFrom('7'), idFrom('07'), idFrom('1e3'), idFrom('0x1f'), idFrom(''), idFrom(null)]).toEqual([7, null, null, null, null, null]);
  expect(idsFrom('1, 2,abc,2,,3')).toEqual([1, 2, 3]);
  expect(idsFrom(null)).toEqual([]);
});

it('suggests a slug from a title', () => {
  expect(slugOf('EU Checkout')).toBe('eu-checkout');
  expect(slugOf('  Payments & Refunds! ')).toBe('payments-refunds');
  expect(slugOf('Café')).toBe('cafe');
  expect(slugOf('a'.repeat(59) + ' b', 60)).toBe('a'.repeat(59));
});

it('moves an item up or down, and not past either end', () => {
  expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
  expect(moved(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
  expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
});
