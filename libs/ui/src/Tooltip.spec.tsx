/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { TOOLTIP } from '@cbh/contracts';
import { Tooltip } from './Tooltip';
import { pointerLeaves, simulateTooltipBrowser } from './tooltip.test-kit';

beforeAll(simulateTooltipBrowser);
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

function renderTriggers() {
  render(
    <>
      <Tooltip content="Notifications: monitoring">
        <a href="/services/notifications">Notifications</a>
      </Tooltip>
      <Tooltip content="Cache: active">
        <a href="/services/cache">Cache</a>
      </Tooltip>
    </>,
  );
  return { first: screen.getByRole('link', { name: 'Notifications' }), second: screen.getByRole('link', { name: 'Cache' }) };
}

/** Lets time pass, and the tooltip code arrive when it is being fetched. */
async function wait(ms: number) {
  await act(async () => void jest.advanceTimersByTime(ms));
}

const shown = () => screen.queryByRole('tooltip')?.textContent ?? null;

describe('tooltip', () => {
  // first in this file: the tooltip code is fetched by this focus, and the trigger it renders must keep the focus
  it('opens at once on keyboard focus, on a trigger that keeps the focus', async () => {
    const { first } = renderTriggers();
    act(() => first.focus());
    await wait(0);
    expect(shown()).toBe('Notifications: monitoring');
    expect(document.activeElement?.textContent).toBe('Notifications');
    act(() => (document.activeElement as HTMLElement).blur());
    await wait(0);
    expect(shown()).toBeNull();
    // past the skip delay, so the next test starts from a delayed open
    await wait(TOOLTIP.skipDelayMs + 50);
  });

  it('opens for a pointer after the delay, and not when it leaves within it', async () => {
    const { first, second } = renderTriggers();
    fireEvent.pointerMove(first, { pointerType: 'mouse' });
    await wait(TOOLTIP.delayMs - 100);
    expect(shown()).toBeNull();
    await wait(200);
    expect(shown()).toBe('Notifications: monitoring');
    pointerLeaves(first);
    await wait(TOOLTIP.skipDelayMs + 50);

    fireEvent.pointerMove(second, { pointerType: 'mouse' });
    await wait(TOOLTIP.delayMs - 100);
    pointerLeaves(second);
    await wait(1000);
    expect(shown()).toBeNull();
  });

  it('skips the delay for a tooltip shown within the skip delay of another', async () => {
    const { first, second } = renderTriggers();
    fireEvent.pointerMove(first, { pointerType: 'mouse' });
    await wait(TOOLTIP.delayMs + 50);
    pointerLeaves(first);
    await wait(TOOLTIP.skipDelayMs - 100);
    fireEvent.pointerMove(second, { pointerType: 'mouse' });
    await wait(10);
    expect(shown()).toBe('Cache: active');
  });
});
