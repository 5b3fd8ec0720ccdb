/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, render, screen } from '@testing-library/react';
import type { BreakerConfigView } from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { breakerStats } from '@cbh/test-support';
import { BreakerTile } from './BreakerTile';
import { NowProvider } from './now-clock';

const BREAKER = { id: 7, name: 'search', type: 'bulkhead', state: 'HALF_OPEN', override: 'disabled' } as BreakerConfigView;

function renderTile(stats: Parameters<typeof BreakerTile>[0]['stats'], callRates: number[] = []) {
  return render(
    <MemoryRouter>
      <NowProvider>
        <BreakerTile breaker={BREAKER} stats={stats} callRates={callRates} />
      </NowProvider>
    </MemoryRouter>,
  );
}

beforeEach(() => jest.useFakeTimers({ now: Date.parse('2026-05-01T12:00:00Z') }));
afterEach(() => jest.useRealTimers());

it('counts the time since the last change up on its own, every second', () => {
  renderTile(breakerStats({ configId: 7, lastTransitionAt: '2026-05-01T11:59:05Z' }));
  expect(screen.getByText('changed 55 s ago')).toBeTruthy();
  act(() => void jest.advanceTimersByTime(1000));
  expect(screen.getByText('changed 56 s ago')).toBeTruthy();
  act(() => void jest.advanceTimersByTime(10_000));
  expect(screen.getByText('changed 1 min ago').getAttribute('datetime')).toBe('2026-05-01T11:59:05Z');
});

it("shows the configuration's state and override, and dashes, until the API reports figures", () => {
  renderTile(undefined);
  const tile = screen.getByRole('article', { name: 'search' });
  expect(tile.dataset.state).toBe('HALF_OPEN');
  expect(screen.getByTestId('override-badge').textContent).toBe('Override: disabled');
  expect(Array.from(tile.querySelectorAll('dd')).map((dd) => dd.textContent)).toEqual(['—', '—', '—', '—']);
  expect(screen.getByText('no change since start')).toBeTruthy();
});

it('draws the calls/s of the last minute as a line ending at the right edge, scaled to its largest value', () => {
  renderTile(breakerStats({ configId: 7 }), [0, 5, 10]);
  const points = screen.getByTestId('sparkline').querySelector('polyline')!.getAttribute('points')!.split(' ');
  // 30 slots over 120 units: the three values take the last three, the largest at the top
  expect(points).toEqual(['111.7,27.0', '115.9,14.0', '120.0,1.0']);
});
