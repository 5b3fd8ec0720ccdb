/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { TOOLTIP } from '@cbh/contracts';
import { Tooltip } from './Tooltip';

// A file of its own: the tooltip code must not have been fetched yet when the pointer arrives.
beforeAll(() => {
  (globalThis as { ResizeObserver?: unknown }).ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  // jsdom has no PointerEvent; Radix reads the pointer's type and position from one
  window.PointerEvent ??= class extends MouseEvent {
    readonly pointerType: string;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerType = init.pointerType ?? 'mouse';
    }
  } as typeof PointerEvent;
  layOutBoxes();
});

/**
 * jsdom has no layout; Radix works out, as the pointer leaves a trigger, the way to its open tooltip from their
 * boxes. Every box is 100 × 20 at the top left, so a pointer leaving below and moving on far away closes it.
 */
function layOutBoxes() {
  const box = { x: 0, y: 0, top: 0, left: 0, right: 100, bottom: 20, width: 100, height: 20, toJSON: () => ({}) };
  jest.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(box as DOMRect);
}

function pointerLeaves(element: Element) {
  fireEvent.pointerLeave(element, { pointerType: 'mouse', clientX: 50, clientY: 30 });
  fireEvent.pointerMove(document, { pointerType: 'mouse', clientX: 500, clientY: 500 });
}

it('opens for the first pointer once the delay since it arrived is over, the download included', async () => {
  jest.useFakeTimers();
  render(
    <Tooltip content="Notifications: monitoring">
      <a href="/services/notifications">Notifications</a>
    </Tooltip>,
  );
  fireEvent.pointerEnter(screen.getByRole('link'), { pointerType: 'mouse' });
  await act(async () => void jest.advanceTimersByTime(TOOLTIP.delayMs - 100));
  expect(screen.queryByRole('tooltip')).toBeNull();
  await act(async () => void jest.advanceTimersByTime(150));
  expect(screen.getByRole('tooltip').textContent).toBe('Notifications: monitoring');
  // Radix closes it as usual from here on
  pointerLeaves(screen.getByRole('link'));
  await act(async () => void jest.advanceTimersByTime(50));
  expect(screen.queryByRole('tooltip')).toBeNull();
  jest.useRealTimers();
});
