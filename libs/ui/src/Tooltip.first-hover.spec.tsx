/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { TOOLTIP } from '@cbh/contracts';
import { Tooltip } from './Tooltip';
import { pointerLeaves, simulateTooltipBrowser } from './tooltip.test-kit';

// A file of its own: the tooltip code must not have been fetched yet when the pointer arrives.
beforeAll(simulateTooltipBrowser);

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
