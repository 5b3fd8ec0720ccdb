/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { openTab, polyfillRadix } from '@cbh/test-support';
import { SagaPage } from './SagaPage';

beforeAll(polyfillRadix);
beforeEach(() => jest.useFakeTimers());
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

it('has its four tabs, counters and start buttons, and says when nothing was compensated yet', () => {
  render(<SagaPage />);
  expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Overview', 'Saga Executions', 'Compensation', 'Monitoring']);
  expect(screen.getByRole('button', { name: 'Start Order Processing' })).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Start Account Creation' })).toBeTruthy();
  openTab('Compensation');
  expect(screen.getByText('No compensation actions recorded yet')).toBeTruthy();
});

it('runs a saga to completed when no step fails', () => {
  jest.spyOn(Math, 'random').mockReturnValue(0.5); // 2 s a step, no failure (0.5 ≥ 0.15)
  render(<SagaPage />);
  fireEvent.click(screen.getByRole('button', { name: 'Start Account Creation' }));
  openTab('Saga Executions');
  expect(screen.getByTestId('saga-status').textContent).toBe('running');
  act(() => jest.advanceTimersByTime(5 * 2000));
  expect(screen.getByTestId('saga-status').textContent).toBe('completed');
  expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('5');
  openTab('Monitoring');
  expect(screen.getByRole('region', { name: 'Account Creation Saga success rate' }).textContent).toMatch(/100%/);
});

it('compensates after a failed step, shows the log, and retries', () => {
  // the first two steps succeed, the third fails, then compensations succeed
  const rolls = [0.5, 0.9, 0.5, 0.9, 0.5, 0.01];
  jest.spyOn(Math, 'random').mockImplementation(() => rolls.shift() ?? 0.5);
  render(<SagaPage />);
  fireEvent.click(screen.getByRole('button', { name: 'Start Order Processing' }));
  openTab('Saga Executions');
  act(() => jest.advanceTimersByTime(20_000));
  expect(screen.getByTestId('saga-status').textContent).toBe('compensated');
  expect(screen.getByText(/Service unavailable/)).toBeTruthy();
  openTab('Compensation');
  // newest first: the reservation (the later step) was undone first, then the validation
  expect(screen.getAllByRole('listitem').map((item) => item.textContent!.split('compensated')[0])).toEqual([
    'cancelValidation',
    'releaseItems',
  ]);
  openTab('Monitoring');
  expect(screen.getByRole('list', { name: 'Recent failures' }).textContent).toMatch(
    /Order Processing Saga.*Process Payment.*Service unavailable/,
  );
  openTab('Saga Executions');
  fireEvent.click(screen.getByRole('button', { name: /^Retry/ }));
  expect(screen.getByTestId('saga-status').textContent).toBe('running');
});

it('shows a step executing while its compensation runs, then compensated or failed', () => {
  // two steps succeed and the third fails at 6 s; then the second step's compensation (1.4 s) succeeds and the first's fails
  const rolls = [0.5, 0.9, 0.5, 0.9, 0.5, 0.01, 0.5, 0.5, 0.5, 0.01];
  jest.spyOn(Math, 'random').mockImplementation(() => rolls.shift() ?? 0.5);
  render(<SagaPage />);
  fireEvent.click(screen.getByRole('button', { name: 'Start Order Processing' }));
  openTab('Saga Executions');
  const steps = () => screen.getAllByRole('listitem').map((item) => item.querySelector('[data-testid="step-status"]')!.textContent);
  const progress = () => screen.getByRole('progressbar').getAttribute('aria-valuenow');

  act(() => jest.advanceTimersByTime(6000));
  expect(screen.getByTestId('saga-status').textContent).toBe('compensating');
  expect(steps()).toEqual(['completed', 'executing', 'failed', 'pending', 'pending', 'pending']);
  // the step being undone keeps its place in the progress
  expect(progress()).toBe('3');

  act(() => jest.advanceTimersByTime(1400));
  expect(steps()).toEqual(['executing', 'compensated', 'failed', 'pending', 'pending', 'pending']);

  act(() => jest.advanceTimersByTime(1400));
  expect(steps()).toEqual(['failed', 'compensated', 'failed', 'pending', 'pending', 'pending']);
  expect(screen.getByText(/Compensation failed/)).toBeTruthy();
  expect(screen.getByTestId('saga-status').textContent).toBe('compensated');
  expect(progress()).toBe('3');
});
