/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '@cbh/router';
import { Simulation } from '@cbh/simulations';
import { openTab, polyfillRadix } from '@cbh/test-support';
import { MicroservicesPage } from './MicroservicesPage';

beforeAll(polyfillRadix);
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const renderPage = () =>
  render(
    <MemoryRouter>
      <MicroservicesPage />
    </MemoryRouter>,
  );

it('draws the service map and counts services, healthy ones, instances and the average response time', () => {
  renderPage();
  expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
    'Overview',
    'Services',
    'Communication',
    'Circuit Breakers',
    'Monitoring',
  ]);
  expect(screen.getByRole('img', { name: 'Service map of 6 services and their dependencies' })).toBeTruthy();
  expect(screen.getByRole('region', { name: 'Total services' }).textContent).toMatch(/^Total services6/);
  expect(screen.getByRole('region', { name: 'Healthy services' }).textContent).toMatch(/^Healthy services5/);
  expect(screen.getByRole('region', { name: 'Total instances' }).textContent).toMatch(/^Total instances17/);
});

it('scales a service down to one instance and no further, and flags slow and failing figures', () => {
  renderPage();
  openTab('Services');
  const payment = within(screen.getByRole('region', { name: 'Payment Service' }));
  expect(payment.getByTestId('response-time').textContent).toBe('340 ms');
  expect(getComputedStyle(payment.getByTestId('error-rate')).fontWeight).toBe('600');
  const down = payment.getByRole('button', { name: 'Scale Down Payment Service' }) as HTMLButtonElement;
  fireEvent.click(down);
  expect(payment.getByTestId('instances').textContent).toBe('1');
  expect(down.disabled).toBe(true);
  fireEvent.click(payment.getByRole('button', { name: 'Scale Up Payment Service' }));
  expect(payment.getByTestId('instances').textContent).toBe('2');
  fireEvent.click(payment.getByRole('button', { name: 'Restart Payment Service' }));
  expect(payment.getByText('healthy')).toBeTruthy();
});

it('cycles a breaker closed → open → half-open → closed and links to the breaker lesson', () => {
  renderPage();
  openTab('Circuit Breakers');
  expect(screen.getByRole('link', { name: 'breaker lesson on the learning page' }).getAttribute('href')).toBe('/#learn');
  const state = () => screen.getByTestId('breaker-user').textContent;
  const toggle = screen.getByRole('button', { name: 'Toggle Circuit Breaker of User Service' });
  const seen = [state()];
  for (let i = 0; i < 3; i++) {
    fireEvent.click(toggle);
    seen.push(state());
  }
  expect(seen).toEqual(['CLOSED', 'OPEN', 'HALF_OPEN', 'CLOSED']);
  expect(screen.getByTestId('breaker-payment').textContent).toBe('OPEN');
});

it('shows a live call every 2 s, and alerts for unhealthy or erroring services', () => {
  renderPage();
  openTab('Communication');
  expect(screen.getByText(/No calls yet/)).toBeTruthy();
  act(() => jest.advanceTimersByTime(2000 * 25));
  expect(within(screen.getByRole('list', { name: 'Live calls' })).getAllByRole('listitem')).toHaveLength(20);
  openTab('Monitoring');
  expect(
    within(screen.getByRole('list', { name: 'Recent alerts' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent),
  ).toEqual(['Payment Service is degraded', 'Payment Service error rate is 4.8%']);
});

it('stops its engine, and so its call timer, when the page is left', () => {
  const stop = jest.spyOn(Simulation.prototype, 'stop');
  const page = renderPage();
  expect(stop).not.toHaveBeenCalled();
  page.unmount();
  expect(stop).toHaveBeenCalledTimes(1);
  stop.mockRestore();
});
