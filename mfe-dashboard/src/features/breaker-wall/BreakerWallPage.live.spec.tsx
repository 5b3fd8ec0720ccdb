/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, screen, waitFor, within } from '@testing-library/react';
import type { BreakerStats } from '@cbh/contracts';
import { liveConnectionForThisFile, renderWall, STATS, tile, viewer, wallApi } from './BreakerWallPage.test-kit';

// The wall kept current by the live connection alone: each metricsUpdate and stateChange, on screen and off.
const live = liveConnectionForThisFile();

it('follows each metricsUpdate and turns a tile red on a stateChange, with no further request', async () => {
  const api = wallApi(viewer);
  renderWall();
  await waitFor(() => expect(screen.getAllByTestId('breaker-tile')).toHaveLength(3));
  const update = (requestsPerSecond: number): BreakerStats[] =>
    STATS.map((entry) => (entry.configId === 1 ? { ...entry, requestsPerSecond } : entry));

  // upserting the cache entry takes a few ticks
  act(() => live.emit({ type: 'metricsUpdate', data: { stats: update(30) } }));
  await waitFor(() => expect(within(tile('payments')).getByText('30')).toBeTruthy());
  // one sample is a point, two are a line
  expect(tile('payments').querySelector('polyline')).toBeNull();
  act(() => live.emit({ type: 'metricsUpdate', data: { stats: update(40) } }));
  await waitFor(() => expect(within(tile('payments')).getByText('40')).toBeTruthy());
  expect(tile('payments').querySelector('polyline')).not.toBeNull();

  // the tile's top edge has its state badge's colour: green, then red
  const edge = () => getComputedStyle(tile('payments')).borderTopColor;
  const badge = () => getComputedStyle(within(tile('payments')).getByTestId('state-badge')).backgroundColor;
  const closedEdge = edge();
  expect(closedEdge).toBe(badge());
  const at = new Date().toISOString();
  act(() =>
    live.emit({
      type: 'stateChange',
      data: { configId: 1, from: 'CLOSED', to: 'OPEN', reason: '5 consecutive failures', at, instanceId: 'api-1' },
    }),
  );
  expect(tile('payments').dataset.state).toBe('OPEN');
  expect(within(tile('payments')).getByTestId('state-badge').textContent).toBe('OPEN');
  expect(tile('payments').textContent).toContain('changed just now');
  expect(edge()).toBe(badge());
  expect(edge()).not.toBe(closedEdge);

  expect(api.callsTo('GET', '/api/metrics/latest')).toHaveLength(1);
  expect(api.callsTo('GET', '/api/circuit-breakers')).toHaveLength(1);
});

it('keeps a tile off screen as it was, and brings it up to date when it scrolls into view', async () => {
  // a stand-in IntersectionObserver: the test says which tiles are on screen
  const observers: { callback: IntersectionObserverCallback; targets: Element[] }[] = [];
  class FakeIntersectionObserver {
    targets: Element[] = [];
    constructor(callback: IntersectionObserverCallback) {
      observers.push({ callback, targets: this.targets });
    }
    observe(target: Element) {
      this.targets.push(target);
    }
    disconnect() {}
  }
  (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = FakeIntersectionObserver;
  const scrollTo = (onScreen: string[]) =>
    act(() => {
      const { callback, targets } = observers.at(-1)!;
      const entries = targets.map((target) => ({ target, isIntersecting: onScreen.includes(target.getAttribute('aria-label')!) }));
      callback(entries as unknown as IntersectionObserverEntry[], {} as IntersectionObserver);
    });
  try {
    wallApi(viewer);
    renderWall();
    await waitFor(() => expect(screen.getAllByTestId('breaker-tile')).toHaveLength(3));
    scrollTo(['payments']);
    const stats = (rate: number) => STATS.map((entry) => ({ ...entry, requestsPerSecond: rate }));
    act(() => live.emit({ type: 'metricsUpdate', data: { stats: stats(30) } }));
    await waitFor(() => expect(within(tile('payments')).getByText('30')).toBeTruthy());
    // the off-screen tile was not re-rendered: it still shows its first figures
    expect(within(tile('search')).queryByText('30')).toBeNull();
    scrollTo(['search']);
    expect(within(tile('search')).getByText('30')).toBeTruthy();
  } finally {
    delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
  }
});
