/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import type { ServiceView, TestResultView } from '@cbh/contracts';
import { Toaster } from '@cbh/ui';
import { fakeApi, fakeLive } from '@cbh/test-support';
import { ServiceTesting } from './ServiceTesting';

const service = (id: number, circuitBreakerConfigId: number | null): ServiceView => ({
  id,
  name: `Service ${id}`,
  endpoint: `/api/chaos/${id}`,
  failureRate: 10,
  averageResponseTime: 50,
  circuitBreakerConfigId,
});
const SERVICES = [service(1, 2), service(2, null), service(3, 99), service(4, 1), service(5, 1), service(6, 1)];
const METRICS = {
  stats: [
    { configId: 1, state: 'HALF_OPEN' },
    { configId: 2, state: 'OPEN' },
  ],
};
const result = (serviceId: number, n: number): TestResultView => ({
  serviceId,
  success: n % 2 === 0,
  responseTime: n,
  circuitBreakerState: 'CLOSED',
  statusCode: 200,
  error: null,
  at: new Date(2026, 10, 22, 10, 0, n).toISOString(),
});

function renderSection(canOperate = true) {
  return render(
    <Provider store={createAppStore()}>
      <ServiceTesting canOperate={canOperate} />
      <Toaster />
    </Provider>,
  );
}

const settle = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  });
const tick = (ms: number) =>
  act(async () => {
    jest.advanceTimersByTime(ms);
    for (let i = 0; i < 5; i++) await Promise.resolve();
  });

afterEach(() => jest.useRealTimers());

it('shows the first 4 services with their endpoint and the state of their breaker, CLOSED without one', async () => {
  fakeApi({ 'GET /api/services': SERVICES, 'GET /api/metrics/latest': METRICS });
  renderSection();
  const cards = await screen.findAllByTestId('service-card');
  expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual(['Service 1', 'Service 2', 'Service 3', 'Service 4']);
  const stateOf = (name: string) => within(screen.getByRole('region', { name })).getByTestId('state-badge').textContent;
  await screen.findByText('OPEN');
  expect(stateOf('Service 1')).toBe('OPEN');
  expect(stateOf('Service 2')).toBe('CLOSED');
  expect(stateOf('Service 3')).toBe('CLOSED');
  expect(stateOf('Service 4')).toBe('HALF_OPEN');
  expect(within(cards[0]!).getByText('/api/chaos/1')).toBeTruthy();
});

it('disables Test while its call is pending, and says Test Failed when the call fails', async () => {
  let answer: (response: Response) => void = () => undefined;
  const api = fakeApi({
    'GET /api/services': SERVICES,
    'GET /api/metrics/latest': METRICS,
    'POST /api/services/1/test': () => new Promise<Response>((resolve) => (answer = resolve)),
  });
  renderSection();
  const card = within(await screen.findByRole('region', { name: 'Service 1' }));
  fireEvent.click(card.getByRole('button', { name: 'Test' }));
  const pending = await card.findByRole('button', { name: 'Testing…' });
  expect((pending as HTMLButtonElement).disabled).toBe(true);
  expect(api.callsTo('POST', '/api/services/1/test')).toHaveLength(1);
  await act(async () => answer(Response.json({ statusCode: 500, error: 'Internal Server Error', message: 'boom' }, { status: 500 })));
  expect(await screen.findByText('Test Failed')).toBeTruthy();
  expect(screen.getByText('Service test encountered an error.')).toBeTruthy();
  expect((card.getByRole('button', { name: 'Test' }) as HTMLButtonElement).disabled).toBe(false);
});

it('auto-tests each shown service every second until Stop, and stops when the section is left', async () => {
  jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick'] });
  const api = fakeApi({
    'GET /api/services': SERVICES,
    'GET /api/metrics/latest': METRICS,
    ...Object.fromEntries([1, 2, 3, 4, 5].map((id) => [`POST /api/services/${id}/test`, result(id, 0)])),
  });
  const testCalls = () => api.calls.filter((call) => call.method === 'POST').map((call) => call.path);
  const view = renderSection();
  await settle();
  await screen.findAllByTestId('service-card');

  fireEvent.click(screen.getByRole('button', { name: 'Auto Test' }));
  expect(screen.getByText('Continuous Testing Started')).toBeTruthy();
  expect(screen.getByText('Running')).toBeTruthy();
  expect(screen.getAllByRole('button', { name: 'Test' }).every((button) => (button as HTMLButtonElement).disabled)).toBe(true);
  await tick(999);
  expect(testCalls()).toEqual([]);
  await tick(1);
  expect(testCalls().sort()).toEqual(['/api/services/1/test', '/api/services/2/test', '/api/services/3/test', '/api/services/4/test']);
  await tick(1000);
  expect(testCalls()).toHaveLength(8);

  fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
  expect(screen.getByText('Continuous Testing Stopped')).toBeTruthy();
  expect(screen.queryByText('Running')).toBeNull();
  await tick(3000);
  expect(testCalls()).toHaveLength(8);

  fireEvent.click(screen.getByRole('button', { name: 'Auto Test' }));
  await tick(1000);
  expect(testCalls()).toHaveLength(12);
  view.unmount();
  await tick(3000);
  expect(testCalls()).toHaveLength(12);
});

it('refreshes the latest metrics every 2 s in this section', async () => {
  jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick'] });
  const api = fakeApi({ 'GET /api/services': SERVICES, 'GET /api/metrics/latest': METRICS });
  renderSection();
  await settle();
  const reads = () => api.callsTo('GET', '/api/metrics/latest').length;
  const first = reads();
  expect(first).toBe(1);
  await tick(2000);
  expect(reads()).toBe(2);
  await tick(2000);
  expect(reads()).toBe(3);
});

it('lists live results newest first, keeps 10, and Clear Results empties the list', async () => {
  fakeApi({ 'GET /api/services': SERVICES, 'GET /api/metrics/latest': METRICS });
  const live = fakeLive();
  try {
    renderSection();
    expect(screen.getByText('No test results yet. Click "Test" on any service to begin.')).toBeTruthy();
    await settle();
    act(() => {
      for (let n = 1; n <= 12; n++) live.emit({ type: 'testResult', data: result(1 + (n % 4), n) });
    });
    const rows = screen.getAllByTestId('test-result');
    expect(rows).toHaveLength(10);
    expect(rows[0]!.textContent).toContain('12 ms');
    expect(rows[9]!.textContent).toContain('3 ms');
    const list = screen.getByRole('list', { name: 'Latest test results' });
    expect(getComputedStyle(list).maxHeight).toBe('16rem');
    expect(getComputedStyle(list).overflowY).toBe('auto');

    fireEvent.click(screen.getByRole('button', { name: 'Clear Results' }));
    expect(screen.queryAllByTestId('test-result')).toHaveLength(0);
    expect(screen.getByText('No test results yet. Click "Test" on any service to begin.')).toBeTruthy();
  } finally {
    live.stop();
  }
});

it('keeps Test and Auto Test disabled without the operate permission', async () => {
  fakeApi({ 'GET /api/services': SERVICES, 'GET /api/metrics/latest': METRICS });
  renderSection(false);
  await screen.findAllByTestId('service-card');
  expect((screen.getByRole('button', { name: 'Auto Test' }) as HTMLButtonElement).disabled).toBe(true);
  expect(screen.getAllByRole('button', { name: 'Test' }).every((button) => (button as HTMLButtonElement).disabled)).toBe(true);
});
