/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Tooltip } from './Tooltip';
import { simulateTooltipBrowser } from './tooltip.test-kit';

// A file of its own: the tooltip code must not have been fetched yet when the pointer arrives.
beforeAll(simulateTooltipBrowser);

const arrives = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

it('keeps the pressed link while the tooltip code arrives, so the press still ends in a click on it', async () => {
  const followed: string[] = [];
  render(
    <Tooltip content="Rate Limiter: monitoring" side="right">
      <a href="/services/rate-limiter" onClick={(event) => (event.preventDefault(), followed.push('rate-limiter'))}>
        Rate Limiter
      </a>
    </Tooltip>,
  );
  const pressed = screen.getByRole('link');
  // the pointer arrives (the download starts) and presses at once; the code lands between press and release
  fireEvent.pointerEnter(pressed, { pointerType: 'mouse' });
  fireEvent.pointerDown(pressed, { pointerType: 'mouse' });
  await arrives();
  expect(screen.getByRole('link')).toBe(pressed);
  fireEvent.pointerUp(pressed, { pointerType: 'mouse' });
  fireEvent.click(pressed);
  expect(followed).toEqual(['rate-limiter']);
  // once the click is over, the popup's trigger takes the link's place (a new element, the same link)
  await arrives();
  expect(screen.getByRole('link')).not.toBe(pressed);
  expect(screen.getByRole('link').getAttribute('href')).toBe('/services/rate-limiter');
});
