/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MANUAL_ACTION_TEXT, MANUAL_ACTIONS } from '@cbh/contracts';
import { breakerStats } from '@cbh/test-support';
import { admin, breakerApi, renderPage, viewer } from './test-kit';

const heading = () => screen.findByRole('heading', { name: 'Payments', level: 1 });
const historyCalls = (api: ReturnType<typeof breakerApi>) =>
  api.calls.filter((call) => call.path.startsWith('/api/circuit-breakers/5/history')).map((call) => call.path);

it('opens the charts on the last hour of stored history, and asks for the span the range picker names', async () => {
  const api = breakerApi(viewer);
  renderPage();
  await heading();
  await waitFor(() => expect(screen.getByTestId('history-summary').textContent).toContain('Last 1 h: calls recorded; 1 state change'));
  expect(historyCalls(api)).toEqual(['/api/circuit-breakers/5/history?range=1h']);
  const picker = within(screen.getByRole('group', { name: 'Time range of the charts' }));
  expect(picker.getByRole('button', { name: '1 h' }).getAttribute('aria-pressed')).toBe('true');

  fireEvent.click(picker.getByRole('button', { name: '24 h' }));
  await waitFor(() => expect(screen.getByTestId('history-summary').textContent).toContain('Last 24 h'));
  expect(historyCalls(api)).toContain('/api/circuit-breakers/5/history?range=24h');
  expect(picker.getByRole('button', { name: '24 h' }).getAttribute('aria-pressed')).toBe('true');
  // the error chart's last step had no calls: no error rate, never 0 %
  expect(screen.getByRole('img', { name: 'Error percentage: Errors –' })).toBeTruthy();
  expect(screen.getByText(/The hub keeps no latency history/)).toBeTruthy();
});

it('shows "—" and no traffic, never 0 % or 0 ms, when the breaker had no calls', async () => {
  breakerApi(viewer, { 'GET /api/metrics/latest': { stats: [breakerStats({ configId: 5 })] } });
  renderPage();
  await heading();
  const figures = within(screen.getByRole('group', { name: 'Current figures' }));
  await waitFor(() => expect(figures.getByRole('region', { name: 'Error rate' }).textContent).toContain('—'));
  expect(figures.getByRole('region', { name: 'Error rate' }).textContent).toContain('No traffic');
  expect(figures.getByRole('region', { name: 'Latency p50 / p99' }).textContent).not.toContain('ms');
});

it('says what each manual control does, and keeps Delete in a danger zone below the journal', async () => {
  breakerApi(admin);
  renderPage();
  await heading();
  for (const action of MANUAL_ACTIONS) {
    const button = screen.getByRole('button', { name: MANUAL_ACTION_TEXT[action].label });
    const description = document.getElementById(button.getAttribute('aria-describedby')!);
    expect(description?.textContent).toBe(MANUAL_ACTION_TEXT[action].effect);
  }
  expect(screen.getByRole('button', { name: 'Force open' }).closest('li')?.dataset.consequence).toBe('dangerous');
  const danger = screen.getByRole('region', { name: 'Danger zone' });
  expect(within(danger).getByRole('button', { name: 'Delete' })).toBeTruthy();
  const journal = screen.getByRole('region', { name: 'Transition journal' });
  expect(journal.compareDocumentPosition(danger) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
});
