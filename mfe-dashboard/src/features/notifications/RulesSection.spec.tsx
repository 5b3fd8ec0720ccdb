/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CreateRule, RuleView } from '@cbh/contracts';
import { apiError, clickAndSettle, polyfillRadix } from '@cbh/test-support';
import { admin, breakerAdmin, ID, notificationsApi, renderPage, RULE } from './test-kit';

beforeAll(polyfillRadix);

const row = (id: string) => within(screen.getByTestId(`rule-row-${id}`));
const dialog = () => within(screen.getByRole('dialog'));
const tick = (group: string, name: string) => fireEvent.click(within(dialog().getByRole('group', { name: group })).getByLabelText(name));
const type = (label: string, value: string) => fireEvent.change(dialog().getByLabelText(label), { target: { value } });

it('lists each rule with its switch, events, channels by name, filters and minimum interval', async () => {
  notificationsApi(admin);
  renderPage();
  await screen.findByTestId(`rule-row-${ID.rule}`);
  const cells = row(ID.rule)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
  expect(cells.slice(2, 7)).toEqual([
    'Breaker openedBreaker flapping',
    'On-call webhook',
    'None',
    'Breakers: paymentsFlapping: 5 openings in 10 min',
    '5 min',
  ]);
  expect(row(ID.rule).getByRole('switch', { name: 'Enabled: Page on-call' })).toHaveProperty('checked', true);
});

it('turns a rule off with its switch', async () => {
  const api = notificationsApi(admin, { [`PATCH /api/notification-rules/${ID.rule}`]: { ...RULE, enabled: false } });
  renderPage();
  await screen.findByTestId(`rule-row-${ID.rule}`);
  await clickAndSettle(row(ID.rule).getByRole('switch', { name: 'Enabled: Page on-call' }));
  expect(api.callsTo('PATCH', `/api/notification-rules/${ID.rule}`).map((call) => call.body)).toEqual([{ enabled: false }]);
  expect(await screen.findByText('Rule Disabled')).toBeTruthy();
});

it('creates a rule: the events chosen bring their own fields, and the body names everything', async () => {
  const rules: RuleView[] = [];
  const api = notificationsApi(admin, {
    'GET /api/notification-rules': () => rules,
    'POST /api/notification-rules': (body: unknown) => {
      const created = { ...(body as CreateRule), id: ID.created, createdAt: '2026-05-02T10:00:00.000Z' };
      rules.push(created);
      return Response.json(created, { status: 201 });
    },
  });
  renderPage();
  await screen.findByText('No rules yet: nothing is sent until a rule names an event and a channel or an escalation policy.');
  fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
  // the dialogs come with the first one opened
  await screen.findByRole('dialog');
  const save = dialog().getByRole('button', { name: 'Save' }) as HTMLButtonElement;

  type('Name', 'Payments paging');
  expect(dialog().queryByLabelText('Breakers')).toBeNull();
  tick('Events', 'Breaker opened');
  tick('Events', 'Breaker opened');
  expect(dialog().getByText('Events: name at least one event type')).toBeTruthy();
  tick('Events', 'Breaker flapping');
  tick('Events', 'Domain alert opened');
  expect(dialog().queryByLabelText('Stuck open after (minutes)')).toBeNull();
  tick('Channels', 'Ops mail');
  tick('Channels', 'On-call webhook');
  type('Breakers', 'payments, inventory');
  fireEvent.keyDown(dialog().getByLabelText('Breakers'), { key: 'Enter' });
  tick('Breaker types', 'Adaptive');
  tick('Severities', 'Critical');
  type('Flapping: more than (openings)', '1');
  expect(dialog().getByText('Flapping: more than (openings): must be at least 2')).toBeTruthy();
  expect(save.disabled).toBe(true);
  type('Flapping: more than (openings)', '8');
  type('Minimum interval (minutes)', '15');
  expect(save.disabled).toBe(false);

  await clickAndSettle(save);
  expect(api.callsTo('POST', '/api/notification-rules').map((call) => call.body)).toEqual([
    {
      name: 'Payments paging',
      enabled: true,
      // in the order offered, whatever order they were ticked in
      events: ['breaker.flapping', 'domain.alert.opened'],
      channelIds: [ID.webhook, ID.email],
      escalationPolicyId: null,
      breakers: ['payments', 'inventory'],
      breakerTypes: ['adaptive'],
      domains: [],
      severities: ['critical'],
      minIntervalMinutes: 15,
      stuckOpenMinutes: 15,
      flappingOpenings: 8,
      flappingMinutes: 10,
    },
  ]);
  expect(await screen.findByTestId(`rule-row-${ID.created}`)).toBeTruthy();
  expect(screen.queryByRole('dialog')).toBeNull();
});

it('offers domain alert events only to holders of domain_management, and shows a refusal on the form', async () => {
  notificationsApi(breakerAdmin, { 'POST /api/notification-rules': apiError(403, 'Missing permission: domain_management') });
  renderPage();
  fireEvent.click(await screen.findByRole('button', { name: 'Add rule' }));
  await screen.findByRole('dialog');
  const events = within(dialog().getByRole('group', { name: 'Events' }));
  // the four breaker events, the two release events, the three status page incident events, the three alert group events
  // the three SLO events and the two drill events
  expect(events.getAllByRole('checkbox')).toHaveLength(17);
  expect(events.getByLabelText('SLO burning its budget')).toBeTruthy();
  expect(events.getByLabelText('Release rolled back')).toBeTruthy();
  expect(events.queryByLabelText('Domain alert opened')).toBeNull();
  expect(dialog().getByText('Domain alert events need the domain_management permission.')).toBeTruthy();

  type('Name', 'Anything');
  tick('Events', 'Breaker stuck open');
  tick('Channels', 'On-call webhook');
  type('Stuck open after (minutes)', '30');
  await clickAndSettle(dialog().getByRole('button', { name: 'Save' }));
  expect(dialog().getByRole('alert').textContent).toBe('Missing permission: domain_management');
});

it('names the escalation policy a rule pages through', async () => {
  notificationsApi(admin, { 'GET /api/notification-rules': [{ ...RULE, channelIds: [], escalationPolicyId: ID.policy }] });
  renderPage();
  await screen.findByTestId(`rule-row-${ID.rule}`);
  await waitFor(() => expect(row(ID.rule).getAllByRole('cell')[4]!.textContent).toBe('Payments escalation'));
  expect(row(ID.rule).getAllByRole('cell')[3]!.textContent).toBe('None');
});

it('creates a rule that pages through an escalation policy alone, with no channel', async () => {
  const api = notificationsApi(admin, {
    'GET /api/notification-rules': [],
    'POST /api/notification-rules': (body: unknown) =>
      Response.json({ ...(body as CreateRule), id: ID.created, createdAt: '2026-05-02T10:00:00.000Z' }, { status: 201 }),
  });
  renderPage();
  await screen.findByText('No rules yet: nothing is sent until a rule names an event and a channel or an escalation policy.');
  fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
  await screen.findByRole('dialog');
  const save = dialog().getByRole('button', { name: 'Save' }) as HTMLButtonElement;
  type('Name', 'Page the payments team');
  tick('Events', 'Breaker opened');
  tick('Channels', 'Ops mail');
  tick('Channels', 'Ops mail');
  // neither channels nor a policy: the schema's words
  expect(dialog().getByText('Channels: name at least one channel or an escalation policy')).toBeTruthy();
  expect(save.disabled).toBe(true);

  const policy = dialog().getByLabelText('Escalation policy') as HTMLSelectElement;
  expect([...policy.options].map((option) => option.textContent)).toEqual(['None', 'Payments escalation']);
  fireEvent.change(policy, { target: { value: ID.policy } });
  expect(dialog().queryByText('Channels: name at least one channel or an escalation policy')).toBeNull();
  expect(save.disabled).toBe(false);

  await clickAndSettle(save);
  expect(api.callsTo('POST', '/api/notification-rules').map((call) => call.body)).toEqual([
    expect.objectContaining({ name: 'Page the payments team', channelIds: [], escalationPolicyId: ID.policy }),
  ]);
});
