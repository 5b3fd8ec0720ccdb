import { clampProgress } from './ProgressBar';

it('holds a progress value between 0 and max, and refuses a max that is not above 0', () => {
  expect(clampProgress(30, 60)).toBe(30);
  expect(clampProgress(-5, 60)).toBe(0);
  expect(clampProgress(90, 60)).toBe(60);
  expect(() => clampProgress(1, 0)).toThrow(RangeError);
  expect(() => clampProgress(1, Number.NaN)).toThrow(RangeError);
});
