/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { formatExactTime } from './format';
import { When } from './When';

const AT = '2026-11-28T18:53:26.000Z';
const EXACT = formatExactTime(AT);

beforeEach(() => jest.useFakeTimers({ now: Date.parse('2026-11-28T19:01:30Z') }));
afterEach(() => jest.useRealTimers());

const moment = () => screen.getByText(/ago/);

it('says a moment in words, and writes its exact time only once it is asked for', () => {
  render(<When at={AT} />);
  expect(moment().textContent).toBe('8 minutes ago');
  expect(moment().getAttribute('datetime')).toBe(AT);
  // nothing asked yet: no exact time written (its first Intl.DateTimeFormat is the costly part of a first render)
  expect(moment().hasAttribute('title')).toBe(false);
  fireEvent.pointerEnter(moment());
  expect(moment().getAttribute('title')).toBe(EXACT);
});

it('writes the exact time as the title when focus lands on it, for a keyboard or a screen reader', () => {
  render(<When at={AT} />);
  act(() => moment().focus());
  expect(moment().getAttribute('title')).toBe(EXACT);
});

it('shows the exact time beside the words on a tap, and hides it on the next', () => {
  render(<When at={AT} />);
  fireEvent.click(moment());
  expect(moment().textContent).toBe(`8 minutes ago (${EXACT})`);
  fireEvent.keyDown(moment(), { key: 'Enter' });
  expect(moment().textContent).toBe('8 minutes ago');
});

it('reads as `never` when there is no moment', () => {
  render(<When at={null} never="Not yet" />);
  expect(screen.getByText('Not yet')).toBeTruthy();
});
