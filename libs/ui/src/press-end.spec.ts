/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { whenPressEnds } from './press-end';

afterEach(() => jest.useRealTimers());

it('ends a press in the task after its click, or after a cancellation, a drag, a context menu or leaving the window', () => {
  jest.useFakeTimers();
  for (const ending of ['click', 'pointercancel', 'dragstart', 'contextmenu', 'blur']) {
    const ended = jest.fn();
    whenPressEnds(ended);
    window.dispatchEvent(new Event('pointerup'));
    window.dispatchEvent(new Event(ending));
    // not within the event that ends it: a click's own listeners run first
    expect([ending, ended.mock.calls.length]).toEqual([ending, 0]);
    jest.advanceTimersByTime(0);
    expect([ending, ended.mock.calls.length]).toEqual([ending, 1]);
    // once only, and nothing is left listening
    window.dispatchEvent(new Event('click'));
    jest.advanceTimersByTime(1000);
    expect([ending, ended.mock.calls.length]).toEqual([ending, 1]);
  }
});

it('ends a lifted press whose click never comes (a touch) after a while, and a cancelled one never', () => {
  jest.useFakeTimers();
  const lifted = jest.fn();
  whenPressEnds(lifted);
  window.dispatchEvent(new Event('pointerup'));
  jest.advanceTimersByTime(400);
  expect(lifted).not.toHaveBeenCalled();
  jest.advanceTimersByTime(200);
  expect(lifted).toHaveBeenCalledTimes(1);

  const unmounted = jest.fn();
  const removed = jest.spyOn(window, 'removeEventListener');
  const cancel = whenPressEnds(unmounted);
  window.dispatchEvent(new Event('pointerup'));
  cancel();
  window.dispatchEvent(new Event('click'));
  jest.advanceTimersByTime(1000);
  expect(unmounted).not.toHaveBeenCalled();
  expect(removed.mock.calls.map(([type]) => type).sort()).toEqual([
    'blur',
    'click',
    'contextmenu',
    'dragstart',
    'pointercancel',
    'pointerup',
  ]);
});
