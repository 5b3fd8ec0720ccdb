/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { screen } from '@testing-library/react';
import { apiError, polyfillRadix } from '@cbh/test-support';
import { onCallApi, operator, outsider, renderOnCall, viewer } from './groups/test-kit';

beforeAll(polyfillRadix);

const tabNames = () => screen.getAllByRole('tab').map((tab) => tab.textContent);

it('opens on the alert groups, with the policies and schedules as tabs for those who may read them', async () => {
  onCallApi(operator);
  renderOnCall();
  expect(await screen.findByRole('heading', { level: 1, name: 'On Call' })).toBeTruthy();
  // the heading shows at once; the tabs once the account is read (which tabs depends on its permissions)
  await screen.findByRole('tab', { name: 'Alert groups' });
  expect(tabNames()).toEqual(['Alert groups', 'Escalation policies', 'Schedules']);
  expect(screen.getByRole('tab', { name: 'Alert groups' }).getAttribute('aria-selected')).toBe('true');
  expect(await screen.findByRole('region', { name: 'Open alert groups' })).toBeTruthy();
});

it('shows a viewer the alert groups alone', async () => {
  onCallApi(viewer);
  renderOnCall();
  await screen.findByRole('region', { name: 'Open alert groups' });
  expect(tabNames()).toEqual(['Alert groups']);
});

it('says which permission is needed, and reads no group without it', async () => {
  const api = onCallApi(outsider);
  renderOnCall();
  expect(await screen.findByText('You need the circuit_breaker_view permission to see alert groups.')).toBeTruthy();
  expect(api.calls.filter((call) => call.path.startsWith('/api/alert-groups'))).toEqual([]);
});

it('asks a signed-out visitor to sign in', async () => {
  onCallApi(null, { 'GET /api/auth/user': apiError(401, 'Not signed in') });
  renderOnCall();
  expect((await screen.findByRole('link', { name: 'Login' })).getAttribute('href')).toBe('/api/login');
});
