import { OPEN_TOAST_WINDOW_MS, throttleOpenToast } from './open-toast-throttle';

it('lets one toast per breaker through per 30 s window', () => {
  const first = throttleOpenToast(new Map(), 3, 1_000);
  expect(first).toEqual(new Map([[3, 1_000]]));
  expect(throttleOpenToast(first!, 3, 1_000 + OPEN_TOAST_WINDOW_MS - 1)).toBeNull();
  expect(throttleOpenToast(first!, 3, 1_000 + OPEN_TOAST_WINDOW_MS)).toEqual(new Map([[3, 1_000 + OPEN_TOAST_WINDOW_MS]]));
});

it('keeps a window per breaker, and forgets breakers whose window has passed', () => {
  const shown = new Map([
    [3, 1_000],
    [4, 20_000],
  ]);
  expect(throttleOpenToast(shown, 5, 25_000)).toEqual(
    new Map([
      [3, 1_000],
      [4, 20_000],
      [5, 25_000],
    ]),
  );
  expect(throttleOpenToast(shown, 5, 40_000)).toEqual(
    new Map([
      [4, 20_000],
      [5, 40_000],
    ]),
  );
  // the record it was given is left as it was
  expect(shown.size).toBe(2);
});
