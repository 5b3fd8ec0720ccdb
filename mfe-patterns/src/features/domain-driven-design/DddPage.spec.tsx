/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { openTab, polyfillRadix } from '@cbh/test-support';
import { DddPage } from './DddPage';

beforeAll(polyfillRadix);

it('shows a context map and models once a context is chosen, and each context’s language', () => {
  render(<DddPage />);
  expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
    'Overview',
    'Bounded Contexts',
    'Domain Models',
    'Ubiquitous Language',
    'Domain Events',
  ]);
  openTab('Bounded Contexts');
  expect(screen.getByText('Choose a bounded context to see its context map and models.')).toBeTruthy();
  fireEvent.change(screen.getByLabelText('Bounded context'), { target: { value: 'inventory-management' } });
  expect(within(screen.getByRole('list', { name: 'Context map' })).getByText(/Inventory Management → Order Management/)).toBeTruthy();
  expect(screen.getByRole('region', { name: 'StockItem summary' })).toBeTruthy();
  openTab('Ubiquitous Language');
  expect(screen.getByText('Reservation')).toBeTruthy();
});

it('adds a model only with a name and a chosen context, then publishes its event', () => {
  render(<DddPage />);
  openTab('Domain Models');
  const add = screen.getByRole('button', { name: 'Add Model' }) as HTMLButtonElement;
  expect(add.disabled).toBe(true);
  expect(screen.getByRole('status').textContent).toBe('Enter a model name');
  fireEvent.change(screen.getByLabelText('Model name'), { target: { value: 'Invoice' } });
  expect(screen.getByRole('status').textContent).toBe('Choose a bounded context');
  fireEvent.change(screen.getByLabelText('Bounded context'), { target: { value: 'order-management' } });
  fireEvent.change(screen.getByLabelText('Model type'), { target: { value: 'ValueObject' } });
  expect(add.disabled).toBe(false);
  fireEvent.click(add);
  const invoice = within(screen.getByRole('region', { name: 'Invoice model' }));
  expect(invoice.getByText('Value Object')).toBeTruthy();
  // each model card has its own sub-tabs (Radix switches tabs on mouse down)
  fireEvent.mouseDown(invoice.getByRole('tab', { name: 'Events' }));
  fireEvent.click(invoice.getByRole('button', { name: 'Publish InvoiceCreated' }));
  openTab('Domain Events');
  const published = within(screen.getByRole('list', { name: 'Published domain events' }));
  expect(published.getByText('InvoiceCreated')).toBeTruthy();
  expect(published.getByText('Invoice · v1')).toBeTruthy();
});

it('says so when no event has been published', () => {
  render(<DddPage />);
  openTab('Domain Events');
  expect(screen.getByText('No domain events published yet. Use the domain models to publish events.')).toBeTruthy();
});
