/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, screen, within } from '@testing-library/react';
import { apiError, buttonTexts, clickAndSettle, polyfillRadix, rowsOf } from '@cbh/test-support';
import { ACKNOWLEDGED, FIRING_DETAIL, onCallApi, operator, renderOnCall, viewer } from './test-kit';

beforeAll(polyfillRadix);

const header = () => within(screen.getByRole('banner'));
const facts = () => within(screen.getByTestId('alert-group-facts'));

it('shows the group’s facts, its timeline oldest first with caused events linking their subject, and its deliveries', async () => {
  onCallApi(viewer);
  renderOnCall('/on-call/groups/7');
  expect(await screen.findByRole('heading', { level: 1, name: 'Breaker payments opened' })).toBeTruthy();
  expect(facts().getByTestId('alert-group-state').textContent).toBe('Firing');
  expect(facts().getByRole('link', { name: 'payments' }).getAttribute('href')).toBe('/circuit-breakers/5');
  expect(facts().getByText('Payments primary')).toBeTruthy();
  expect(facts().getByText('3 events of its own, 1 event of subjects depending on it')).toBeTruthy();

  const timeline = within(screen.getByRole('list', { name: 'Timeline, oldest first' }));
  expect(timeline.getAllByRole('listitem').map((item) => item.getAttribute('data-testid'))).toEqual([
    'timeline-entry-e1',
    'timeline-entry-e2',
    'timeline-entry-e3',
  ]);
  const caused = within(screen.getByTestId('timeline-entry-e3'));
  expect(caused.getByText('Breaker orders opened')).toBeTruthy();
  expect(caused.getByRole('link', { name: 'orders' }).getAttribute('href')).toBe('/circuit-breakers/9');
  expect(within(screen.getByTestId('timeline-entry-e1')).queryByRole('link')).toBeNull();

  const deliveries = screen.getByRole('table', { name: 'Deliveries' });
  expect(
    within(deliveries)
      .getAllByRole('columnheader')
      .map((th) => th.textContent),
  ).toEqual(['To', 'Step', 'Status', 'Attempts', 'Last error', 'Time']);
  expect(rowsOf(deliveries).map((cells) => cells.slice(0, 5))).toEqual([
    ['vera@example.com', '1', 'Delivered', '1', '—'],
    ['ops-hook (webhook)', '1', 'Failed', '8', 'HTTP 503 Service Unavailable'],
  ]);
  // a viewer may look, not act
  expect(screen.queryByRole('button', { name: 'Acknowledge' })).toBeNull();
});

it('offers an operator the actions a firing group allows, and acknowledges it', async () => {
  const api = onCallApi(operator, { 'POST /api/alert-groups/7/acknowledge': { ...FIRING_DETAIL, state: 'acknowledged' } });
  renderOnCall('/on-call/groups/7');
  await screen.findByRole('heading', { level: 1, name: 'Breaker payments opened' });
  expect(buttonTexts(screen.getByRole('banner'))).toEqual(['Acknowledge', 'Silence', 'Resolve']);
  await clickAndSettle(header().getByRole('button', { name: 'Acknowledge' }));
  expect(api.callsTo('POST', '/api/alert-groups/7/acknowledge')).toHaveLength(1);
  expect(await screen.findByText('Alert Group Acknowledged')).toBeTruthy();
});

it('offers Unacknowledge on an acknowledged group, and says who acknowledged it', async () => {
  const detail = { ...FIRING_DETAIL, ...ACKNOWLEDGED, id: 7 };
  const api = onCallApi(operator, {
    'GET /api/alert-groups/7': detail,
    'POST /api/alert-groups/7/unacknowledge': { ...detail, state: 'firing' },
  });
  renderOnCall('/on-call/groups/7');
  await screen.findByRole('heading', { level: 1, name: 'Breaker search opened' });
  expect(buttonTexts(screen.getByRole('banner'))).toEqual(['Unacknowledge', 'Resolve']);
  expect(facts().getByText(/by otto@example.com/)).toBeTruthy();
  await clickAndSettle(header().getByRole('button', { name: 'Unacknowledge' }));
  expect(api.callsTo('POST', '/api/alert-groups/7/unacknowledge')).toHaveLength(1);
});

it('silences a firing group for the span chosen', async () => {
  const until = new Date(Date.now() + 4 * 3_600_000).toISOString();
  const api = onCallApi(operator, {
    'POST /api/alert-groups/7/silence': { ...FIRING_DETAIL, state: 'silenced', silencedUntil: until },
  });
  renderOnCall('/on-call/groups/7');
  await screen.findByRole('heading', { level: 1, name: 'Breaker payments opened' });
  fireEvent.click(header().getByRole('button', { name: 'Silence' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Silence Breaker payments opened' }));
  expect(
    within(dialog.getByLabelText('Silence for'))
      .getAllByRole('option')
      .map((option) => option.textContent),
  ).toEqual(['15 minutes', '1 hour', '4 hours', '24 hours']);
  fireEvent.change(dialog.getByLabelText('Silence for'), { target: { value: '240' } });
  await clickAndSettle(dialog.getByRole('button', { name: 'Silence' }));
  expect(api.callsTo('POST', '/api/alert-groups/7/silence').map((call) => call.body)).toEqual([{ minutes: 240 }]);
  expect(await screen.findByText('Alert Group Silenced')).toBeTruthy();
  expect(screen.queryByRole('dialog')).toBeNull();
});

it('says a group is not found', async () => {
  onCallApi(operator, { 'GET /api/alert-groups/12': apiError(404, 'No alert group with id 12') });
  renderOnCall('/on-call/groups/12');
  expect(await screen.findByRole('heading', { name: 'Alert group not found' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Acknowledge' })).toBeNull();
});

it('says why a domain’s group is refused to someone without domain_management', async () => {
  const reason = 'Requires the domain_management permission for a domain’s alert groups';
  onCallApi(operator, { 'GET /api/alert-groups/12': apiError(403, reason) });
  renderOnCall('/on-call/groups/12');
  expect((await screen.findByRole('alert')).textContent).toBe(`The alert group could not be loaded. ${reason}`);
});

it('says which permission is needed, and reads no group without it', async () => {
  const api = onCallApi({ ...viewer, permissions: ['dashboard_view'] });
  renderOnCall('/on-call/groups/7');
  expect(await screen.findByText('You need the circuit_breaker_view permission to see alert groups.')).toBeTruthy();
  expect(api.callsTo('GET', '/api/alert-groups/7')).toEqual([]);
});
