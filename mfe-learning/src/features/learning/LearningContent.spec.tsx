/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import type { AuthUser, BreakerConfigView, BreakerStateName } from '@cbh/contracts';
import { MemoryRouter } from '@cbh/router';
import { Toaster } from '@cbh/ui';
import { authUser, breakerConfig, breakerStats, fakeApi } from '@cbh/test-support';
import { BreakerDiagram } from './BreakerDiagram';
import { LearningContent } from './LearningContent';

const admin = authUser({
  email: 'ada@example.com',
  role: 'admin',
  permissions: ['dashboard_view', 'circuit_breaker_view', 'circuit_breaker_operate', 'circuit_breaker_admin', 'metrics_view'],
});
const breaker = (id: number, type: BreakerConfigView['type'], failureThreshold: number, timeout: number) =>
  breakerConfig({ id, name: `Breaker ${id}`, type, failureThreshold, timeout });

const stat = (configId: number, state: BreakerStateName) => breakerStats({ configId, state });

function renderContent(user: AuthUser | null) {
  render(
    <Provider store={createAppStore()}>
      <MemoryRouter>
        <LearningContent user={user} title="Circuit Breaker Patterns" description="d" />
      </MemoryRouter>
      <Toaster />
    </Provider>,
  );
}

const emptyReads = { 'GET /api/services': [], 'GET /api/test-sessions': [] };

it('counts Closed, Half-Open and Open breakers in the hero from the latest metrics', async () => {
  fakeApi({
    ...emptyReads,
    'GET /api/circuit-breakers': [],
    'GET /api/metrics/latest': { stats: [stat(1, 'OPEN'), stat(2, 'CLOSED'), stat(3, 'CLOSED')] },
  });
  renderContent(admin);
  // before the figures arrive: dashes and no sign-in hint, so the page keeps its layout when they come
  expect(screen.getByTestId('hero-OPEN').textContent).toBe('Open: –');
  expect(screen.queryByText('Sign in to see the live states of your breakers.')).toBeNull();
  await waitFor(() => expect(screen.getByTestId('hero-CLOSED').textContent).toBe('Closed: 2'));
  expect(screen.getByTestId('hero-OPEN').textContent).toBe('Open: 1');
  expect(screen.getByTestId('hero-HALF_OPEN').textContent).toBe('Half-Open: 0');
});

it("shows an adaptive breaker's threshold range t−2…t+3 and timeout range timeout/2000…timeout/1000 s", async () => {
  fakeApi({ ...emptyReads, 'GET /api/circuit-breakers': [breaker(4, 'adaptive', 7, 40_000)], 'GET /api/metrics/latest': { stats: [] } });
  renderContent(admin);
  const card = within(screen.getByTestId('type-card-adaptive'));
  await waitFor(() => expect(card.getByTestId('adaptive-ranges').textContent).toBe('Threshold range: 5 – 10Timeout range: 20s – 40s'));
  expect(screen.getAllByRole('button', { name: 'Configure & Test' })).toHaveLength(3);
});

it('shows the sample defaults (5, 30 s) to a visitor and asks them to sign in where an account is needed', () => {
  fakeApi({});
  renderContent(null);
  expect(within(screen.getByTestId('type-card-adaptive')).getByTestId('adaptive-ranges').textContent).toBe(
    'Threshold range: 3 – 8Timeout range: 15s – 30s',
  );
  expect(screen.getByText('Sign in to configure breakers and run load tests.')).toBeTruthy();
  expect(screen.getByText('Sign in to test services through their breakers.')).toBeTruthy();
  expect(screen.getByTestId('hero-OPEN').textContent).toContain('–');
  expect(screen.getByText('Sign in to see the live states of your breakers.')).toBeTruthy();
});

it("saves the four settings to the first config's id with the 'Configuration Updated' toast", async () => {
  const api = fakeApi({
    ...emptyReads,
    'GET /api/circuit-breakers': [breaker(7, 'simple', 5, 30_000), breaker(8, 'bulkhead', 5, 30_000)],
    'GET /api/metrics/latest': { stats: [] },
    'PATCH /api/circuit-breakers/7': (body: unknown) => ({ ...breaker(7, 'simple', 5, 30_000), ...(body as object) }),
  });
  renderContent(admin);
  const settings = within(await screen.findByRole('region', { name: 'Breaker settings' }));
  await screen.findByText('Tune Breaker 7 (simple) and put it under load.');
  const slider = (name: RegExp) => settings.getByRole('slider', { name }) as HTMLInputElement;
  expect(slider(/Failure threshold/)).toMatchObject({ min: '1', max: '20', step: '1' });
  expect(slider(/Timeout/)).toMatchObject({ min: '5', max: '120', step: '5' });
  expect(slider(/Recovery time/)).toMatchObject({ min: '10', max: '300', step: '10' });
  expect(slider(/Success threshold/)).toMatchObject({ min: '1', max: '10', step: '1' });
  fireEvent.change(slider(/Failure threshold/), { target: { value: '9' } });
  fireEvent.change(slider(/Timeout/), { target: { value: '45' } });
  await act(async () => fireEvent.click(settings.getByRole('button', { name: 'Apply Configuration' })));
  expect(api.callsTo('PATCH', '/api/circuit-breakers/7')[0]?.body).toEqual({
    failureThreshold: 9,
    timeout: 45_000,
    recoveryTime: 60_000,
    successThreshold: 3,
  });
  expect(await screen.findByText('Configuration Updated')).toBeTruthy();
  expect(screen.getByText('Circuit breaker settings have been applied successfully.')).toBeTruthy();
});

it("falls back to id 1 without any config, and says 'Failed to update configuration.' when the save fails", async () => {
  const api = fakeApi({ ...emptyReads, 'GET /api/circuit-breakers': [], 'GET /api/metrics/latest': { stats: [] } });
  renderContent(admin);
  const settings = within(await screen.findByRole('region', { name: 'Breaker settings' }));
  expect((settings.getByRole('slider', { name: /Failure threshold/ }) as HTMLInputElement).value).toBe('5');
  await act(async () => fireEvent.click(settings.getByRole('button', { name: 'Apply Configuration' })));
  expect(api.callsTo('PATCH', '/api/circuit-breakers/1')).toHaveLength(1);
  expect(await screen.findByText('Failed to update configuration.')).toBeTruthy();
  expect(screen.getByText('Error')).toBeTruthy();
});

it('lets a viewer look at the settings but not change them', async () => {
  fakeApi({ ...emptyReads, 'GET /api/circuit-breakers': [breaker(7, 'simple', 5, 30_000)], 'GET /api/metrics/latest': { stats: [] } });
  renderContent({ ...admin, role: 'viewer', permissions: ['dashboard_view', 'circuit_breaker_view'] });
  const settings = within(await screen.findByRole('region', { name: 'Breaker settings' }));
  expect((settings.getByRole('button', { name: 'Apply Configuration' }) as HTMLButtonElement).disabled).toBe(true);
  expect(settings.getByText('Changing settings needs the circuit_breaker_admin permission.')).toBeTruthy();
});

describe('the interactive diagram (a real libs/breaker breaker)', () => {
  /** The state the shared BreakerStateDiagram lights, and its caption (the reason of the last move). */
  const lit = () => screen.getByRole('listitem', { current: 'step' }).textContent;
  const caption = () => screen.queryByTestId('diagram-caption')?.textContent;

  it('opens after 5 failures, refuses calls with "Circuit breaker is OPEN", half-opens after 30 s and closes on a success', () => {
    render(<BreakerDiagram />);
    const status = () => screen.getByTestId('diagram-status').textContent;
    expect(status()).toContain('State CLOSED');
    expect(lit()).toBe('CLOSED');
    expect(caption()).toBeUndefined();
    for (let i = 0; i < 4; i++) fireEvent.click(screen.getByRole('button', { name: 'Send failing call' }));
    expect(status()).toContain('consecutive failures 4 of 5');
    expect(lit()).toBe('CLOSED');
    fireEvent.click(screen.getByRole('button', { name: 'Send failing call' }));
    expect(status()).toContain('State OPEN');
    expect(lit()).toBe('OPEN');
    // the caption is the reason the engine gave, the same words as the log's line for the move
    expect(screen.getByText(`CLOSED → OPEN: ${caption()}`)).toBeTruthy();
    expect(status()).toContain('next attempt in 30 s');
    expect(screen.getByText('CLOSED → OPEN: 5 consecutive failures')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send successful call' }));
    expect(screen.getByText("Call rejected at once: Error('Circuit breaker is OPEN')")).toBeTruthy();
    expect(status()).toContain('State OPEN');
    expect(lit()).toBe('OPEN');
    fireEvent.click(screen.getByRole('button', { name: 'Wait 30 s' }));
    expect(status()).toContain('State HALF-OPEN');
    expect(lit()).toBe('HALF-OPEN');
    expect(screen.getByText(`OPEN → HALF-OPEN: ${caption()}`)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send successful call' }));
    expect(status()).toContain('State CLOSED');
    expect(status()).toContain('consecutive failures 0 of 5');
    expect(lit()).toBe('CLOSED');
    expect(screen.getAllByRole('listitem', { current: 'step' })).toHaveLength(1);
  });

  it('goes back to OPEN when the trial call fails, and Reset lights CLOSED with no caption', () => {
    render(<BreakerDiagram />);
    for (let i = 0; i < 5; i++) fireEvent.click(screen.getByRole('button', { name: 'Send failing call' }));
    fireEvent.click(screen.getByRole('button', { name: 'Wait 30 s' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send failing call' }));
    expect(lit()).toBe('OPEN');
    expect(screen.getByText(`HALF-OPEN → OPEN: ${caption()}`)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(lit()).toBe('CLOSED');
    expect(caption()).toBeUndefined();
  });
});
