/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import type { BreakerConfigView } from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { breakerConfig, breakerStats } from '@cbh/test-support';
import { BreakerTile } from './BreakerTile';
import { NowProvider } from '../shared/now-clock';

const BREAKER = { id: 7, name: 'search', type: 'bulkhead', state: 'HALF_OPEN', override: 'disabled' } as BreakerConfigView;

function renderTile(stats: Parameters<typeof BreakerTile>[0]['stats'], callRates: number[] = [], breaker = BREAKER) {
  return render(
    <MemoryRouter>
      <NowProvider>
        <BreakerTile breaker={breaker} stats={stats} callRates={callRates} />
      </NowProvider>
    </MemoryRouter>,
  );
}

beforeEach(() => jest.useFakeTimers({ now: Date.parse('2026-05-01T12:00:00Z') }));
afterEach(() => jest.useRealTimers());

it('says when the state last changed, relative, counting on by itself, the exact time on hover', () => {
  renderTile(breakerStats({ configId: 7, lastTransitionAt: '2026-05-01T11:59:30Z' }));
  const tile = screen.getByRole('article', { name: 'search' });
  expect(tile.textContent).toContain('changed just now');
  act(() => void jest.advanceTimersByTime(30_000));
  expect(tile.textContent).toContain('changed 1 minute ago');
  const time = tile.querySelector('time')!;
  expect(time.getAttribute('datetime')).toBe('2026-05-01T11:59:30.000Z');
  fireEvent.pointerEnter(time);
  expect(time.getAttribute('title')).toMatch(/2026/);
});

it('shows no error % and no latency, and says so, when the breaker took no call in the window', () => {
  renderTile(breakerStats({ configId: 7, successCount: 0, failureCount: 0, timeoutCount: 0, requestsPerSecond: 0, errorPercentage: 0 }));
  const tile = screen.getByRole('article', { name: 'search' });
  expect(Array.from(tile.querySelectorAll('dd')).map((dd) => dd.textContent)).toEqual(['0', '—', '—', '—']);
  expect(screen.getByTestId('no-traffic').textContent).toBe('no traffic');
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

describe("a service's breaker", () => {
  const agent = breakerConfig({ id: 8, name: 'charge', type: 'adaptive', source: 'agent', service: 'checkout', library: 'opossum' });
  const scraped = breakerConfig({ id: 9, name: 'stock', type: 'adaptive', source: 'scrape', service: 'orders', library: 'resilience4j' });

  it('names its service, library and source instead of the type, and counts its live and stale instances', () => {
    renderTile(breakerStats({ configId: 8, instances: { open: 0, total: 2, stale: 1, bad: null } }), [], agent);
    const tile = within(screen.getByRole('article', { name: 'charge' }));
    expect(tile.getByText('checkout · opossum (agent)')).toBeTruthy();
    expect(tile.queryByText('adaptive')).toBeNull();
    expect(tile.getByTestId('tile-instances').textContent).toBe('2 instances, 1 stale');
    expect(tile.queryByText(/Bad instance/)).toBeNull();
  });

  it('says a scraped one is read-only, and names a bad instance in words', () => {
    renderTile(breakerStats({ configId: 9, instances: { open: 1, total: 1, stale: 0, bad: 'orders-2' } }), [], scraped);
    const tile = within(screen.getByRole('article', { name: 'stock' }));
    expect(tile.getByText('orders · resilience4j (scrape, read-only)')).toBeTruthy();
    expect(tile.getByTestId('tile-instances').textContent).toBe('1 instance');
    // the warning is a line of text, not a colour alone
    expect(tile.getByText(/Bad instance: orders-2/).textContent).toBe('⚠ Bad instance: orders-2');
  });

  it('shows no instance count before the first figures', () => {
    renderTile(undefined, [], agent);
    expect(screen.queryByTestId('tile-instances')).toBeNull();
  });
});
