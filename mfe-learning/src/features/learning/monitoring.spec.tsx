/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, render, screen, within } from '@testing-library/react';
import { breakerStats } from '@cbh/test-support';
import { liveFigures, nextSimulatedFigures, SIMULATION_LIMITS, SIMULATION_START, worstState } from './monitoring';
import { MonitoringPanel, SAMPLE_NOTE, SAMPLE_NOTICE } from './MonitoringPanel';

describe('the signed-out simulation', () => {
  it('starts at 94.7 %, 142 ms, 1247 and 23', () => {
    expect(SIMULATION_START).toEqual({ successRate: 94.7, averageResponseTime: 142, requestsPerMinute: 1247, failedCalls: 23 });
  });

  it('never leaves its clamps, however the dice fall', () => {
    for (const dice of [() => 0, () => 0.999999, Math.random]) {
      let figures = SIMULATION_START;
      for (let step = 0; step < 500; step++) {
        figures = nextSimulatedFigures(figures, dice);
        for (const [name, [min, max]] of Object.entries(SIMULATION_LIMITS)) {
          const value = figures[name as keyof typeof figures];
          expect(value).toBeGreaterThanOrEqual(min);
          expect(value).toBeLessThanOrEqual(max);
        }
      }
    }
    let low = SIMULATION_START;
    for (let step = 0; step < 500; step++) low = nextSimulatedFigures(low, () => 0);
    expect(low).toEqual({ successRate: 90, averageResponseTime: 50, requestsPerMinute: 800, failedCalls: 0 });
  });

  it('shows the initial values, and new ones every 3 s and not before', () => {
    jest.useFakeTimers();
    try {
      const random = jest.spyOn(Math, 'random').mockReturnValue(0);
      render(<MonitoringPanel live={false} latest={undefined} />);
      const figure = (label: string) => within(screen.getByRole('region', { name: label })).getByText(/\d/).textContent;
      expect(figure('Success Rate')).toBe('94.7%');
      expect(figure('Avg Response Time')).toBe('142ms');
      expect(figure('Requests / Min')).toBe('1,247');
      expect(figure('Failed Calls')).toBe('23');
      act(() => jest.advanceTimersByTime(2999));
      expect(figure('Success Rate')).toBe('94.7%');
      act(() => jest.advanceTimersByTime(1));
      expect(figure('Success Rate')).toBe('92.7%');
      expect(figure('Avg Response Time')).toBe('112ms');
      expect(figure('Requests / Min')).toBe('1,097');
      expect(figure('Failed Calls')).toBe('13');
      random.mockRestore();
    } finally {
      jest.useRealTimers();
    }
  });

  it('says plainly that its figures are samples, above them and on each card', () => {
    render(<MonitoringPanel live={false} latest={undefined} />);
    const notice = screen.getByRole('note', { name: 'Sample figures' });
    expect(notice.textContent).toBe(`Sample${SAMPLE_NOTICE}`);
    expect(notice.textContent).toContain('no service is measured');
    for (const label of ['Success Rate', 'Avg Response Time', 'Requests / Min', 'Failed Calls'])
      expect(within(screen.getByRole('region', { name: label })).getByText(SAMPLE_NOTE)).toBeTruthy();
  });
});

describe('the signed-in figures', () => {
  it('adds every breaker up: success over all calls, mean latency weighted by calls that ran, per-minute rate', () => {
    const figures = liveFigures([
      breakerStats({
        successCount: 80,
        failureCount: 10,
        timeoutCount: 0,
        requestsPerSecond: 9,
        latency: { mean: 100, p50: 0, p90: 0, p99: 0, max: 0 },
      }),
      breakerStats({
        configId: 2,
        state: 'OPEN',
        successCount: 0,
        failureCount: 5,
        shortCircuitedCount: 5,
        requestsPerSecond: 1,
        latency: { mean: 10, p50: 0, p90: 0, p99: 0, max: 0 },
      }),
    ]);
    expect(figures).toEqual({
      successRate: 80,
      averageResponseTime: Math.round((100 * 90 + 10 * 5) / 95),
      requestsPerMinute: 600,
      failedCalls: 15,
    });
    expect(liveFigures([])).toEqual({ successRate: 100, averageResponseTime: 0, requestsPerMinute: 0, failedCalls: 0 });
  });

  it('reads the system state as its worst breaker', () => {
    expect(worstState([breakerStats({}), breakerStats({ state: 'HALF_OPEN' })])).toBe('HALF_OPEN');
    expect(worstState([breakerStats({ state: 'OPEN' }), breakerStats({ state: 'HALF_OPEN' })])).toBe('OPEN');
    expect(worstState([])).toBe('CLOSED');
  });
});
