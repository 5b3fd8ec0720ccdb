/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { openTab, polyfillRadix } from '@cbh/test-support';
import { Simulation } from '@cbh/simulations';
import { CqrsPage } from './CqrsPage';

beforeAll(polyfillRadix);
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

it('has the four tabs and opens with when to use CQRS and what it costs', () => {
  render(<CqrsPage />);
  expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
    'Overview',
    'Commands (Write)',
    'Queries (Read)',
    'Event Store',
  ]);
  expect(screen.getByText(/Use it when reads far outnumber writes/)).toBeTruthy();
});

it('sends a command that is pending, then executed or failed after 1 s, with an executed one in the event store', () => {
  render(<CqrsPage />);
  openTab('Commands (Write)');
  const field = screen.getByLabelText('Order ID');
  fireEvent.change(field, { target: { value: ' ' } });
  const create = screen.getByRole('button', { name: 'Create Order' }) as HTMLButtonElement;
  expect(create.disabled).toBe(true);
  expect(screen.getByRole('status').textContent).toBe('Enter an order ID');
  fireEvent.change(field, { target: { value: 'order-7' } });
  expect(create.disabled).toBe(false);
  fireEvent.click(create);
  expect(screen.getByTestId('command-status').textContent).toBe('pending');
  act(() => jest.advanceTimersByTime(999));
  expect(screen.getByTestId('command-status').textContent).toBe('pending');
  act(() => jest.advanceTimersByTime(1));
  const status = screen.getByTestId('command-status').textContent;
  expect(['executed', 'failed']).toContain(status);
  openTab('Event Store');
  if (status === 'executed') {
    const store = within(screen.getByRole('list', { name: 'Event store' }));
    expect(store.getByText('OrderCreated')).toBeTruthy();
    expect(store.getByText('order-7')).toBeTruthy();
    expect(store.getByText('v1')).toBeTruthy();
  } else {
    expect(within(screen.getByRole('list', { name: 'Event store' })).getByText('CommandFailed')).toBeTruthy();
  }
});

it('answers a query in 100–600 ms and shows the time it took', () => {
  render(<CqrsPage />);
  openTab('Queries (Read)');
  fireEvent.click(screen.getByRole('button', { name: 'Get Orders' }));
  expect(screen.getByText(/No query results yet/)).toBeTruthy();
  act(() => jest.advanceTimersByTime(600));
  const ms = Number(screen.getByTestId('execution-time').textContent!.replace(' ms', ''));
  expect(ms).toBeGreaterThanOrEqual(100);
  expect(ms).toBeLessThanOrEqual(600);
});

it('stops its engine, and so its timers, when the page is left; a new visit starts afresh', () => {
  const stop = jest.spyOn(Simulation.prototype, 'stop');
  const page = render(<CqrsPage />);
  openTab('Commands (Write)');
  fireEvent.click(screen.getByRole('button', { name: 'Process Payment' }));
  expect(stop).not.toHaveBeenCalled();
  page.unmount();
  expect(stop).toHaveBeenCalledTimes(1);
  stop.mockRestore();
  render(<CqrsPage />);
  openTab('Commands (Write)');
  expect(screen.getByText(/No commands yet/)).toBeTruthy();
});
