/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { openTab, polyfillRadix } from '@cbh/test-support';
import { HexagonalPage } from './HexagonalPage';

beforeAll(polyfillRadix);
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

it('has its five tabs and draws the core with its ports', () => {
  render(<HexagonalPage />);
  expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Overview', 'Architecture', 'Ports', 'Adapters', 'Operations']);
  openTab('Architecture');
  expect(screen.getByRole('img', { name: 'The core with 2 primary and 3 secondary ports' })).toBeTruthy();
});

it('adds a port once it has a name, inbound for primary and outbound for secondary', () => {
  render(<HexagonalPage />);
  openTab('Ports');
  const add = screen.getByRole('button', { name: 'Add Port' }) as HTMLButtonElement;
  expect(add.disabled).toBe(true);
  expect(screen.getByRole('status').textContent).toBe('Enter a port name');
  fireEvent.change(screen.getByLabelText('Port name'), { target: { value: 'Billing' } });
  fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'secondary' } });
  fireEvent.click(add);
  const outbound = within(screen.getByRole('region', { name: 'Secondary ports (outbound)' }));
  expect(outbound.getByText('Billing').parentElement!.textContent).toMatch(/Billingoutboundexecute, query/);
  expect((screen.getByLabelText('Port name') as HTMLInputElement).value).toBe('');
});

it('toggles an adapter and logs an operation every 3 s', () => {
  render(<HexagonalPage />);
  openTab('Adapters');
  const rest = within(screen.getByRole('region', { name: 'REST API adapter' }));
  expect(rest.getByTestId('adapter-status').textContent).toBe('active');
  fireEvent.click(rest.getByRole('button', { name: 'Toggle REST API' }));
  expect(rest.getByTestId('adapter-status').textContent).toBe('inactive');
  openTab('Operations');
  expect(screen.getByText(/No operations yet/)).toBeTruthy();
  act(() => jest.advanceTimersByTime(3000));
  expect(within(screen.getByRole('list', { name: 'Operations' })).getAllByRole('listitem')).toHaveLength(1);
});
