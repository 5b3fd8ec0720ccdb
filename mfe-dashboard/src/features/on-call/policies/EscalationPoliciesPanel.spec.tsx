/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { EscalationPolicyView } from '@cbh/contracts';
import { apiError, clickAndSettle, polyfillRadix } from '@cbh/test-support';
import { admin, breakerAdmin, ID, onCallSettingsApi, operator, POLICY, renderPanel, SCHEDULE } from '../settings.test-kit';
import { EscalationPoliciesPanel } from './EscalationPoliciesPanel';

beforeAll(polyfillRadix);

const dialog = () => within(screen.getByRole('dialog'));
const step = (n: number) => within(dialog().getByTestId(`step-${n}`));
const row = () => within(screen.getByTestId(`policy-row-${ID.policy}`));
const stepsCell = () => row().getAllByRole('cell')[1]!;

async function openAdd() {
  fireEvent.click(await screen.findByRole('button', { name: 'Add escalation policy' }));
  // the dialog comes with the first one opened
  await screen.findByRole('dialog');
  // the people are read with the dialog's choices
  await waitFor(() => expect(dialog().queryByRole('combobox', { name: 'People' })).toBeTruthy());
}

it('lists each policy with its steps summarised by name and how often it repeats', async () => {
  onCallSettingsApi(admin);
  renderPanel(<EscalationPoliciesPanel />);
  await screen.findByTestId(`policy-row-${ID.policy}`);
  await waitFor(() =>
    expect([...stepsCell().querySelectorAll('li')].map((line) => line.textContent)).toEqual([
      '1. ana@example.com, schedule Payments primary — wait 5 min',
      '2. webhook ops-hook — wait 10 min',
    ]),
  );
  expect(row().getAllByRole('cell')[2]!.textContent).toBe('Repeats once');
  expect(row().getByRole('button', { name: 'Edit Payments paging' })).toBeTruthy();
});

it('shows the list read-only to an operator, naming the people and counting the channels they may not list', async () => {
  // nobody on call now, whose e-mail would name them: the people come from the on-call list operators may read
  const api = onCallSettingsApi(operator, { 'GET /api/schedules': [{ ...SCHEDULE, onCallNow: null }] });
  renderPanel(<EscalationPoliciesPanel />);
  await screen.findByTestId(`policy-row-${ID.policy}`);
  await waitFor(() =>
    expect([...stepsCell().querySelectorAll('li')].map((line) => line.textContent)).toEqual([
      '1. ana@example.com, schedule Payments primary — wait 5 min',
      '2. 1 channel — wait 10 min',
    ]),
  );
  expect(screen.queryByRole('button', { name: /Add escalation policy|Edit|Delete/ })).toBeNull();
  expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull();
  // nothing the API would refuse them is asked
  expect(api.calls.map((call) => call.path)).not.toEqual(expect.arrayContaining(['/api/users', '/api/notification-channels']));
});

it('creates a policy: steps in order, each with its targets and wait, and the repeat', async () => {
  const policies: EscalationPolicyView[] = [];
  const api = onCallSettingsApi(admin, {
    'GET /api/escalation-policies': () => policies,
    'POST /api/escalation-policies': (body: unknown) => {
      const created = { ...(body as EscalationPolicyView), id: ID.created, createdAt: '', updatedAt: '' };
      policies.push(created);
      return Response.json(created, { status: 201 });
    },
  });
  renderPanel(<EscalationPoliciesPanel />);
  await screen.findByText('No escalation policies yet.');
  await openAdd();

  fireEvent.change(dialog().getByLabelText('Name'), { target: { value: 'Checkout paging' } });
  fireEvent.click(within(step(1).getByRole('group', { name: 'Channels' })).getByLabelText('Ops mail'));
  fireEvent.change(step(1).getByLabelText('Wait (minutes)'), { target: { value: '15' } });

  fireEvent.click(dialog().getByRole('button', { name: 'Add step' }));
  const people = step(2).getByRole('combobox', { name: 'People' });
  fireEvent.change(people, { target: { value: 'bob@example.com' } });
  fireEvent.keyDown(people, { key: 'Enter' });
  fireEvent.change(people, { target: { value: 'ana@example.com' } });
  fireEvent.keyDown(people, { key: 'Enter' });
  fireEvent.change(step(2).getByLabelText('Schedule'), { target: { value: ID.schedule } });
  // the schedule's step goes first
  fireEvent.click(step(2).getByRole('button', { name: 'Move up step 2' }));
  fireEvent.change(dialog().getByLabelText('Repeat'), { target: { value: '2' } });

  await clickAndSettle(dialog().getByRole('button', { name: 'Save' }));
  expect(api.callsTo('POST', '/api/escalation-policies').map((call) => call.body)).toEqual([
    {
      name: 'Checkout paging',
      steps: [
        { notify: { users: [ID.bob, ID.ana], schedule: ID.schedule }, waitMinutes: 5 },
        { notify: { channels: [ID.email] }, waitMinutes: 15 },
      ],
      repeat: 2,
    },
  ]);
  expect(await screen.findByText('Policy Added')).toBeTruthy();
  expect(await screen.findByTestId(`policy-row-${ID.created}`)).toBeTruthy();
});

it('shows the schema’s words for what is wrong, and keeps Save until it is right', async () => {
  onCallSettingsApi(admin);
  renderPanel(<EscalationPoliciesPanel />);
  await openAdd();
  const save = dialog().getByRole('button', { name: 'Save' }) as HTMLButtonElement;

  fireEvent.change(dialog().getByLabelText('Name'), { target: { value: '   ' } });
  expect(dialog().getByText('Name: must not be empty')).toBeTruthy();
  fireEvent.change(dialog().getByLabelText('Name'), { target: { value: 'Night paging' } });

  fireEvent.change(step(1).getByLabelText('Wait (minutes)'), { target: { value: '1441' } });
  expect(step(1).getByText('Wait (minutes): must be at most 1440')).toBeTruthy();
  fireEvent.change(step(1).getByLabelText('Wait (minutes)'), { target: { value: '2.5' } });
  expect(step(1).getByText('Wait (minutes): must be whole minutes')).toBeTruthy();
  fireEvent.change(step(1).getByLabelText('Wait (minutes)'), { target: { value: '30' } });

  const opsMail = within(step(1).getByRole('group', { name: 'Channels' })).getByLabelText('Ops mail');
  fireEvent.click(opsMail);
  fireEvent.click(opsMail);
  expect(step(1).getByText('Step 1: must name channels, users or a schedule')).toBeTruthy();
  expect(save.disabled).toBe(true);

  fireEvent.change(dialog().getByLabelText('Repeat'), { target: { value: '6' } });
  expect(dialog().getByText('Repeat: must be from 0 to 5')).toBeTruthy();

  fireEvent.click(opsMail);
  fireEvent.change(dialog().getByLabelText('Repeat'), { target: { value: '0' } });
  expect(save.disabled).toBe(false);
});

it('edits a policy, sending only what changed', async () => {
  const api = onCallSettingsApi(admin, { [`PATCH /api/escalation-policies/${ID.policy}`]: { ...POLICY, repeat: 3 } });
  renderPanel(<EscalationPoliciesPanel />);
  fireEvent.click(await screen.findByRole('button', { name: 'Edit Payments paging' }));
  await screen.findByRole('dialog');
  expect((step(2).getByLabelText('Wait (minutes)') as HTMLInputElement).value).toBe('10');
  const save = dialog().getByRole('button', { name: 'Save' }) as HTMLButtonElement;
  expect(save.disabled).toBe(true);
  fireEvent.change(dialog().getByLabelText('Repeat'), { target: { value: '3' } });
  await clickAndSettle(save);
  expect(api.callsTo('PATCH', `/api/escalation-policies/${ID.policy}`).map((call) => call.body)).toEqual([{ repeat: 3 }]);
});

it('says why a policy a rule uses cannot be deleted, in the API’s words', async () => {
  onCallSettingsApi(admin, {
    [`DELETE /api/escalation-policies/${ID.policy}`]: apiError(
      409,
      'A notification rule uses escalation policy Payments paging: change or delete the rule first',
    ),
  });
  renderPanel(<EscalationPoliciesPanel />);
  fireEvent.click(await screen.findByRole('button', { name: 'Delete Payments paging' }));
  await clickAndSettle(await screen.findByRole('button', { name: 'Delete' }));
  expect(
    await screen.findByText('A notification rule uses escalation policy Payments paging: change or delete the rule first'),
  ).toBeTruthy();
});

it('lets an admin without user_management pick people from the on-call list, and keeps a deactivated one a step names', async () => {
  const named = { ...POLICY, steps: [{ notify: { users: [ID.cy, ID.ana] }, waitMinutes: 5 }] };
  const api = onCallSettingsApi(breakerAdmin, {
    'GET /api/schedules': [{ ...SCHEDULE, onCallNow: null }],
    'GET /api/escalation-policies': [named],
    [`PATCH /api/escalation-policies/${ID.policy}`]: named,
  });
  renderPanel(<EscalationPoliciesPanel />);
  // Cy was deactivated, so is not listed: counted in the list
  await waitFor(() =>
    expect([...stepsCell().querySelectorAll('li')].map((line) => line.textContent)).toEqual(['1. ana@example.com, 1 person — wait 5 min']),
  );
  fireEvent.click(screen.getByRole('button', { name: 'Edit Payments paging' }));
  await screen.findByRole('dialog');
  const people = await waitFor(() => step(1).getByRole('combobox', { name: 'People' }));
  expect(step(1).getByText('unlisted account 0a1b2c3d')).toBeTruthy();
  expect(step(1).queryByText(/user_management/)).toBeNull();
  fireEvent.change(people, { target: { value: 'bob@example.com' } });
  fireEvent.keyDown(people, { key: 'Enter' });
  await clickAndSettle(dialog().getByRole('button', { name: 'Save' }));
  expect(api.callsTo('PATCH', `/api/escalation-policies/${ID.policy}`).map((call) => call.body)).toEqual([
    { steps: [{ notify: { users: [ID.cy, ID.ana, ID.bob] }, waitMinutes: 5 }] },
  ]);
  expect(api.callsTo('GET', '/api/users')).toEqual([]);
});

it('says why no one can be picked when the people cannot be read, and keeps who a step names', async () => {
  onCallSettingsApi(breakerAdmin, { 'GET /api/on-call/people': apiError(503, 'Database unavailable') });
  renderPanel(<EscalationPoliciesPanel />);
  fireEvent.click(await screen.findByRole('button', { name: 'Edit Payments paging' }));
  await screen.findByRole('dialog');
  const people = step(1).getByRole('group', { name: 'People' });
  // Ana is on call now in a schedule, so her e-mail is known without the list
  expect(people.textContent).toContain('ana@example.com');
  await waitFor(() => expect(people.textContent).toContain('People could not be read, so no one can be picked now. Database unavailable.'));
});
