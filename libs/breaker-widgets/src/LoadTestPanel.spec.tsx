/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import type { TestSessionView } from '@cbh/contracts';
import { Toaster } from '@cbh/ui';
import { fakeApi } from '@cbh/test-support';
import { LoadTestPanel } from './LoadTestPanel';

const session = (body: { configId: number; failureRate: number; requestRate: number; duration: number }): TestSessionView => {
  const startedAt = new Date();
  return {
    id: 41,
    ...body,
    status: 'running',
    startedAt: startedAt.toISOString(),
    endsAt: new Date(startedAt.getTime() + body.duration * 60_000).toISOString(),
    stoppedAt: null,
  };
};

function renderPanel(props: { configId: number | undefined; canOperate: boolean }) {
  render(
    <Provider store={createAppStore()}>
      <LoadTestPanel {...props} />
      <Toaster />
    </Provider>,
  );
}

/** An API holding at most one running session, as the real one does per breaker. */
function sessionsApi(startStatus = 201) {
  let running: TestSessionView[] = [];
  const api = fakeApi({
    'GET /api/test-sessions': () => running,
    'POST /api/test-sessions': (body: unknown) => {
      if (startStatus !== 201)
        return Response.json({ statusCode: 409, error: 'Conflict', message: 'a session is running' }, { status: 409 });
      running = [session(body as Parameters<typeof session>[0])];
      return Response.json(running[0], { status: 201 });
    },
    'POST /api/test-sessions/41/stop': () => {
      const stopped = { ...running[0]!, status: 'stopped' };
      running = [];
      return stopped;
    },
  });
  return api;
}

/** Start waits until the running sessions are known. */
const startEnabled = () =>
  waitFor(() => expect((screen.getByRole('button', { name: 'Start Test' }) as HTMLButtonElement).disabled).toBe(false));
const slider = (name: RegExp) => screen.getByRole('slider', { name }) as HTMLInputElement;

it('offers the load-test ranges and defaults, starts with them, shows Running and progress, and Pause Test stops', async () => {
  const api = sessionsApi();
  renderPanel({ configId: 3, canOperate: true });

  expect(slider(/Failure rate/)).toMatchObject({ min: '0', max: '100', step: '5', value: '15' });
  expect(slider(/Request rate/)).toMatchObject({ min: '1', max: '100', value: '20' });
  expect(slider(/Duration/)).toMatchObject({ min: '1', max: '60', value: '5' });
  expect(screen.getByTestId('load-test-status').textContent).toBe('Ready');
  expect((screen.getByRole('button', { name: 'Pause Test' }) as HTMLButtonElement).disabled).toBe(true);

  fireEvent.change(slider(/Failure rate/), { target: { value: '100' } });
  await startEnabled();
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Start Test' })));
  expect(api.callsTo('POST', '/api/test-sessions')[0]?.body).toEqual({ configId: 3, failureRate: 100, requestRate: 20, duration: 5 });
  expect(await screen.findByText('Test Started')).toBeTruthy();
  expect(screen.getByText('Load test session has been initiated.')).toBeTruthy();
  expect((await screen.findByTestId('load-test-status')).textContent).toBe('Running');
  await screen.findByText(/of 300 s at 20 req\/s with 100% failures/);
  expect(screen.getByRole('progressbar', { name: 'Load test progress' }).getAttribute('aria-valuemax')).toBe('300000');
  expect((screen.getByRole('button', { name: 'Start Test' }) as HTMLButtonElement).disabled).toBe(true);
  expect(slider(/Failure rate/).matches(':disabled')).toBe(true); // disabled by its fieldset, as a browser applies it

  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Pause Test' })));
  expect(api.callsTo('POST', '/api/test-sessions/41/stop')).toHaveLength(1);
  expect(await screen.findByText('Test Stopped')).toBeTruthy();
  expect(screen.getByText('Load test session has been stopped.')).toBeTruthy();
  await screen.findByText('Ready');
  expect(screen.queryByRole('progressbar')).toBeNull();
  expect((screen.getByRole('button', { name: 'Start Test' }) as HTMLButtonElement).disabled).toBe(false);
});

it('says so in a destructive toast when the session cannot start', async () => {
  sessionsApi(409);
  renderPanel({ configId: 3, canOperate: true });
  await startEnabled();
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Start Test' })));
  expect(await screen.findByText('Failed to start test session.')).toBeTruthy();
  expect(screen.getByText('Error')).toBeTruthy();
  expect(screen.getByTestId('load-test-status').textContent).toBe('Ready');
});

it('keeps Start disabled without the operate permission or without a breaker', () => {
  sessionsApi();
  renderPanel({ configId: 3, canOperate: false });
  expect((screen.getByRole('button', { name: 'Start Test' }) as HTMLButtonElement).disabled).toBe(true);
  expect(screen.getByText(/needs the circuit_breaker_operate permission/)).toBeTruthy();
});

it('shows a session started elsewhere as Running, with Start disabled', async () => {
  fakeApi({ 'GET /api/test-sessions': [session({ configId: 3, failureRate: 50, requestRate: 10, duration: 1 })] });
  renderPanel({ configId: 3, canOperate: true });
  // Before the running sessions are known the badge reads Ready and Start waits; then the session shows.
  expect(screen.getByTestId('load-test-status').textContent).toBe('Ready');
  expect((screen.getByRole('button', { name: 'Start Test' }) as HTMLButtonElement).disabled).toBe(true);
  await waitFor(() => expect(screen.getByTestId('load-test-status').textContent).toBe('Running'));
  await screen.findByText(/of 60 s at 10 req\/s/);
  expect((screen.getByRole('button', { name: 'Start Test' }) as HTMLButtonElement).disabled).toBe(true);
});
