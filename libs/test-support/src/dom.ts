import { act, fireEvent, screen, within } from '@testing-library/react';

/** Radix tabs switch on mouse down (not click). */
export function openTab(name: string) {
  fireEvent.mouseDown(screen.getByRole('tab', { name }));
}

export async function clickAndSettle(element: Element) {
  await act(async () => void fireEvent.click(element));
}

/** A fake API route whose answer waits until `release` is called, to observe the pending state. */
export function heldRoute(answer: () => Response) {
  let release: () => void = () => undefined;
  const route = () =>
    new Promise<Response>((resolve) => {
      release = () => resolve(answer());
    });
  return { route, release: () => release() };
}

/** What Radix's pointer and layout code calls and jsdom does not provide. */
export function polyfillRadix() {
  const proto = window.HTMLElement.prototype as unknown as Record<string, unknown>;
  proto.hasPointerCapture ??= () => false;
  proto.setPointerCapture ??= () => undefined;
  proto.releasePointerCapture ??= () => undefined;
  proto.scrollIntoView ??= () => undefined;
  (globalThis as { ResizeObserver?: unknown }).ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

/** Each body row of a table (its first, header row left out) as its cells' text. */
export function rowsOf(table: HTMLElement) {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
}

/** The text of each button in `container`, in order. */
export function buttonTexts(container: HTMLElement) {
  return within(container)
    .getAllByRole('button')
    .map((button) => button.textContent);
}
