import { fireEvent } from '@testing-library/react';

/**
 * What Radix's tooltip needs of a browser and jsdom lacks: ResizeObserver, PointerEvent (Radix reads the pointer's
 * type and position from one) and layout. Every box is 100 × 20 at the top left, so a pointer leaving below and
 * moving on far away closes an open tooltip (Radix works out the way to it from the boxes).
 */
export function simulateTooltipBrowser() {
  (globalThis as { ResizeObserver?: unknown }).ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  window.PointerEvent ??= class extends MouseEvent {
    readonly pointerType: string;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerType = init.pointerType ?? 'mouse';
    }
  } as typeof PointerEvent;
  const box = { x: 0, y: 0, top: 0, left: 0, right: 100, bottom: 20, width: 100, height: 20, toJSON: () => ({}) };
  jest.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(box as DOMRect);
}

/** The mouse leaves the element downwards and moves far away. */
export function pointerLeaves(element: Element) {
  fireEvent.pointerLeave(element, { pointerType: 'mouse', clientX: 50, clientY: 30 });
  fireEvent.pointerMove(document, { pointerType: 'mouse', clientX: 500, clientY: 500 });
}
