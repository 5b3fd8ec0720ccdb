import { durationText } from './duration-text';

it('writes a span in one or two units, rounded to what a person reads', () => {
  expect(durationText(0)).toBe('0 s');
  expect(durationText(45)).toBe('45 s');
  expect(durationText(59.6)).toBe('1 min');
  expect(durationText(240)).toBe('4 min');
  expect(durationText(3599)).toBe('1 h');
  expect(durationText(4800)).toBe('1 h 20 min');
  expect(durationText(86_400)).toBe('1 d');
  expect(durationText(2 * 86_400 + 3 * 3600 + 600)).toBe('2 d 3 h');
});

it('writes a dash where there is no span', () => {
  expect(durationText(null)).toBe('—');
  expect(durationText(undefined)).toBe('—');
  expect(durationText(Number.NaN)).toBe('—');
});
