/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { clickAndSettle, fakeLive, polyfillRadix } from '@cbh/test-support';
import { ACKNOWLEDGED, alertGroup, FIRING, listOf, onCallApi, operator, renderOnCall, RESOLVED, viewer } from './test-kit';

beforeAll(polyfillRadix);

const open = () => within(screen.getByRole('region', { name: 'Open alert groups' }));
const resolved = () => within(screen.getByRole('region', { name: 'Recently resolved' }));
const row = (id: number) => within(screen.getByTestId(`alert-group-row-${id}`));
const reads = (api: ReturnType<typeof onCallApi>) =>
  api.calls.filter((call) => call.method === 'GET' && call.path.startsWith('/api/alert-groups?')).map((call) => call.path);

it('lists the open groups, firing first, with their state in words, subject link, service and next step', async () => {
  onCallApi(viewer);
  renderOnCall();
  await screen.findByTestId('alert-group-row-7');
  const table = open().getByRole('table', { name: 'Open alert groups' });
  expect(
    within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent),
  ).toEqual(['Alert group', 'State', 'Subject', 'Service', 'Opened', 'Next step']);
  const ids = within(table)
    .getAllByRole('row')
    .slice(1)
    .map((tr) => tr.getAttribute('data-testid'));
  expect(ids).toEqual(['alert-group-row-7', 'alert-group-row-6']);
  expect(row(7).getByTestId('alert-group-state').textContent).toBe('Firing');
  expect(row(6).getByTestId('alert-group-state').textContent).toBe('Acknowledged');
  expect(row(7).getByRole('link', { name: 'Breaker payments opened' }).getAttribute('href')).toBe('/on-call/groups/7');
  expect(row(7).getByRole('link', { name: 'payments' }).getAttribute('href')).toBe('/circuit-breakers/5');
  expect(row(7).getByText('checkout')).toBeTruthy();
  expect(row(7).getAllByRole('cell')[5]!.textContent).toBe('Step 2 in 5 minutes');
  // the resolved ones are below, with when and by whom
  expect(resolved().getByTestId('alert-group-row-4').textContent).toContain('by otto@example.com');
  expect(open().queryByTestId('alert-group-row-4')).toBeNull();
});

it('offers no action to a viewer without circuit_breaker_operate', async () => {
  onCallApi(viewer);
  renderOnCall();
  await screen.findByTestId('alert-group-row-7');
  expect(screen.queryByRole('button', { name: /Acknowledge/ })).toBeNull();
  expect(screen.queryByRole('button', { name: /Resolve/ })).toBeNull();
  expect(open().queryByRole('columnheader', { name: 'Actions' })).toBeNull();
});

it('acknowledges a firing group from its row, and reads the list again', async () => {
  const api = onCallApi(operator, {
    'POST /api/alert-groups/7/acknowledge': { ...FIRING, state: 'acknowledged', acknowledgedBy: operator.email },
  });
  renderOnCall();
  await screen.findByTestId('alert-group-row-7');
  // an acknowledged group can be resolved, not acknowledged again
  expect(row(6).queryByRole('button', { name: /Acknowledge/ })).toBeNull();
  expect(row(6).getByRole('button', { name: 'Resolve Breaker search opened' })).toBeTruthy();
  expect(resolved().queryByRole('button', { name: /Resolve|Acknowledge/ })).toBeNull();

  const before = reads(api).length;
  await clickAndSettle(row(7).getByRole('button', { name: 'Acknowledge Breaker payments opened' }));
  expect(api.callsTo('POST', '/api/alert-groups/7/acknowledge')).toHaveLength(1);
  expect(await screen.findByText('Alert Group Acknowledged')).toBeTruthy();
  await waitFor(() => expect(reads(api).length).toBeGreaterThan(before));
});

it('resolves a group from its row', async () => {
  const api = onCallApi(operator, { 'POST /api/alert-groups/6/resolve': { ...ACKNOWLEDGED, state: 'resolved' } });
  renderOnCall();
  await screen.findByTestId('alert-group-row-6');
  await clickAndSettle(row(6).getByRole('button', { name: 'Resolve Breaker search opened' }));
  expect(api.callsTo('POST', '/api/alert-groups/6/resolve')).toHaveLength(1);
  expect(await screen.findByText('Alert Group Resolved')).toBeTruthy();
});

it('says so when nothing is open', async () => {
  onCallApi(viewer, { 'GET /api/alert-groups': listOf([RESOLVED]) });
  renderOnCall();
  const region = within(await screen.findByRole('region', { name: 'Open alert groups' }));
  expect(await region.findByText('No alert group is open: nothing is firing.')).toBeTruthy();
});

it('filters by state, and pages through one state’s groups with the cursor the page gave', async () => {
  const many = Array.from({ length: 30 }, (_, index) => alertGroup(100 + index, { title: `Group ${100 + index}` }));
  const api = onCallApi(viewer, { 'GET /api/alert-groups': listOf([...many, RESOLVED]) });
  renderOnCall();
  await screen.findByTestId('alert-group-row-129');
  fireEvent.change(screen.getByLabelText('State'), { target: { value: 'firing' } });
  const firing = within(await screen.findByRole('region', { name: 'Firing alert groups' }));
  await firing.findByTestId('alert-group-row-129');
  expect(screen.queryByRole('region', { name: 'Recently resolved' })).toBeNull();
  expect(firing.queryByTestId('alert-group-row-104')).toBeNull();
  fireEvent.click(firing.getByRole('button', { name: 'Older' }));
  await firing.findByTestId('alert-group-row-104');
  expect(firing.queryByTestId('alert-group-row-129')).toBeNull();
  expect(reads(api)).toContain('/api/alert-groups?state=firing&before=105&limit=25');
  expect((firing.getByRole('button', { name: 'Older' }) as HTMLButtonElement).disabled).toBe(true);
});

it('shows a group that opens while the page is open, through the live connection alone', async () => {
  let groups = [ACKNOWLEDGED, RESOLVED];
  onCallApi(viewer, { 'GET /api/alert-groups': (body: unknown, url: URL) => listOf(groups)(body, url) });
  const live = fakeLive();
  try {
    renderOnCall('/on-call', { live: true });
    await screen.findByTestId('alert-group-row-6');
    expect(screen.queryByTestId('alert-group-row-7')).toBeNull();
    groups = [FIRING, ACKNOWLEDGED, RESOLVED];
    await act(async () => live.emit({ type: 'alertGroupChanged', data: { id: 7, subjectKind: 'breaker', state: 'firing' } }));
    expect(await open().findByTestId('alert-group-row-7')).toBeTruthy();
  } finally {
    act(() => live.stop());
  }
});
