/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { openTab, polyfillRadix } from '@cbh/test-support';
import { EventSourcingPage } from './EventSourcingPage';

beforeAll(polyfillRadix);

const figure = (label: string) => screen.getByRole('region', { name: label }).textContent;

it('opens on the three seeded events of order-123, with the counters of the overview', () => {
  render(<EventSourcingPage />);
  expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
    'Overview',
    'Event Stream',
    'Aggregates',
    'Snapshots',
    'Time Travel',
  ]);
  expect(figure('Total events')).toMatch(/^Total events3/);
  expect(figure('Active aggregates')).toMatch(/^Active aggregates1/);
  expect(figure('Snapshots')).toMatch(/^Snapshots0/);
  expect(figure('Timeline position')).toMatch(/^Timeline position3/);
});

it('adds an item to order-123, moving the timeline to 4, and travels back in time', () => {
  render(<EventSourcingPage />);
  openTab('Event Stream');
  expect((screen.getByLabelText('Aggregate ID') as HTMLInputElement).value).toBe('order-123');
  fireEvent.click(screen.getByRole('button', { name: 'Add Item' }));
  expect(within(screen.getByRole('region', { name: 'Event stream' })).getAllByRole('listitem')).toHaveLength(4);
  openTab('Time Travel');
  expect(screen.getByText('Viewing state at event 4 of 4')).toBeTruthy();
  expect(screen.getByRole('img', { name: 'Timeline of 4 events, viewing after event 4' })).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Beginning' }));
  expect(screen.getByText('Viewing state at event 0 of 4')).toBeTruthy();
  expect(screen.getByText('Before the first event there is no aggregate.')).toBeTruthy();
  fireEvent.change(screen.getByRole('slider'), { target: { value: '2' } });
  expect(screen.getByText('Viewing state at event 2 of 4')).toBeTruthy();
  // one item of 1 × 1299.99 after two events
  expect(screen.getByRole('region', { name: 'Aggregate order-123' }).textContent).toMatch(/1 item\(s\) · \$1,299\.99/);
  fireEvent.click(screen.getByRole('button', { name: 'Current' }));
  expect(screen.getByText('Viewing state at event 4 of 4')).toBeTruthy();
});

it('creates a snapshot from the aggregates tab, and says when there is none', () => {
  render(<EventSourcingPage />);
  openTab('Snapshots');
  expect(screen.getByText('No snapshots created yet. Use aggregate management to create snapshots.')).toBeTruthy();
  openTab('Aggregates');
  fireEvent.click(screen.getByRole('button', { name: 'Rebuild order-123' }));
  fireEvent.click(screen.getByRole('button', { name: 'Create Snapshot' }));
  openTab('Snapshots');
  const snapshot = within(screen.getByRole('list', { name: 'Snapshots' })).getByRole('listitem');
  expect(snapshot.textContent).toMatch(/order-123v3created · \$1,359\.97/);
});
