/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ScheduleView } from '@cbh/contracts';
import { clickAndSettle, polyfillRadix } from '@cbh/test-support';
import { admin, ID, onCallSettingsApi, operator, renderPanel, SCHEDULE } from '../settings.test-kit';
import { SchedulesPanel } from './SchedulesPanel';
import { dayText } from './shift-days';

beforeAll(polyfillRadix);

const card = () => within(screen.getByTestId(`schedule-${ID.schedule}`));
const dialog = () => within(screen.getByRole('dialog'));
const rotation = (n: number) => within(dialog().getByTestId(`rotation-${n}`));
const override = (n: number) => within(dialog().getByTestId(`override-${n}`));
const type = (scope: ReturnType<typeof within>, label: string, value: string) =>
  fireEvent.change(scope.getByLabelText(label), { target: { value } });
const midnight = (daysAhead: number) => {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + daysAhead);
};

it('shows each schedule with who is on call now, its zone and rotations, and its next two weeks of shifts', async () => {
  const api = onCallSettingsApi(operator);
  renderPanel(<SchedulesPanel />);
  await screen.findByTestId(`schedule-${ID.schedule}`);
  expect(card().getByRole('heading', { name: 'Payments primary' })).toBeTruthy();
  const facts = Object.fromEntries(
    card()
      .getAllByRole('term')
      .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
  );
  expect(facts).toMatchObject({
    'On call now': 'Ana Lima (ana@example.com)',
    'Time zone': 'Europe/Berlin',
    Rotations: 'Weekly from 2026-11-02 09:00, hand-over 09:00: 2 people in turn',
    Overrides: 'None',
  });

  // the shifts asked for are the reader's two weeks from midnight today
  const table = await card().findByRole('region', { name: 'Payments primary: shifts of the next 14 days' });
  const [read] = api.calls.filter((call) => call.path.startsWith(`/api/schedules/${ID.schedule}/shifts`));
  const query = new URL(read!.path, 'http://hub').searchParams;
  expect([query.get('from'), query.get('to')]).toEqual([midnight(0).toISOString(), midnight(14).toISOString()]);

  const days = within(table).getAllByRole('row').slice(1);
  expect(days).toHaveLength(14);
  const day = (n: number) => [days[n]!.querySelector('th')!.textContent, [...days[n]!.querySelectorAll('li')].map((li) => li.textContent)];
  expect(day(0)).toEqual([dayText(midnight(0)), ['All day Ana Lima (ana@example.com)']]);
  expect(day(1)).toEqual([dayText(midnight(1)), ['00:00–09:00 Ana Lima (ana@example.com)', '09:00–24:00 bob@example.com']]);
  expect(day(2)).toEqual([dayText(midnight(2)), ['All day bob@example.com']]);
  expect(day(8)).toEqual([dayText(midnight(8)), ['00:00–09:00 bob@example.com', '09:00–24:00 Nobody']]);
  expect(day(13)).toEqual([dayText(midnight(13)), ['All day Nobody']]);
  // read-only for an operator
  expect(screen.queryByRole('button', { name: /Add schedule|Edit|Delete/ })).toBeNull();
});

it('marks the reader’s own shifts', async () => {
  onCallSettingsApi({ ...admin, email: 'bob@example.com' });
  renderPanel(<SchedulesPanel />);
  await screen.findByTestId(`schedule-${ID.schedule}`);
  expect((await card().findAllByText('bob@example.com (you)')).length).toBeGreaterThan(0);
});

it('creates a schedule: a typed time zone, a rotation of people in turn and an override', async () => {
  const schedules: ScheduleView[] = [];
  const api = onCallSettingsApi(admin, {
    'GET /api/schedules': () => schedules,
    'POST /api/schedules': (body: unknown) => {
      const created = { ...(body as ScheduleView), id: ID.created, onCallNow: null, createdAt: '', updatedAt: '' };
      schedules.push(created);
      return Response.json(created, { status: 201 });
    },
    [`GET /api/schedules/${ID.created}/shifts`]: [],
  });
  renderPanel(<SchedulesPanel />);
  await screen.findByText('No schedules yet.');
  fireEvent.click(screen.getByRole('button', { name: 'Add schedule' }));
  await screen.findByRole('dialog');
  await waitFor(() => expect(rotation(1).getByRole('combobox', { name: 'People, in turn' })).toBeTruthy());
  const save = dialog().getByRole('button', { name: 'Save' }) as HTMLButtonElement;

  type(dialog(), 'Name', 'Checkout nights');
  fireEvent.change(dialog().getByLabelText('Time zone'), { target: { value: '' } });
  type(dialog(), 'IANA time zone', 'America/Buenos_Aires_City');
  expect(dialog().getByText('Time zone: must be an IANA time zone such as Europe/Berlin')).toBeTruthy();
  type(dialog(), 'IANA time zone', 'America/Argentina/Buenos_Aires');

  const people = rotation(1).getByRole('combobox', { name: 'People, in turn' });
  for (const email of ['bob@example.com', 'ana@example.com', 'nobody@example.com']) {
    fireEvent.change(people, { target: { value: email } });
    fireEvent.keyDown(people, { key: 'Enter' });
  }
  expect(rotation(1).getByText('No account has the e-mail nobody@example.com: pick someone from the list.')).toBeTruthy();
  type(rotation(1), 'First shift starts', '2026-12-01T20:00');
  type(rotation(1), 'Shift length', 'hours');
  type(rotation(1), 'Hours', '0');
  expect(rotation(1).getByText('Hours: must be from 1 to 672 hours')).toBeTruthy();
  expect(save.disabled).toBe(true);
  type(rotation(1), 'Hours', '12');

  fireEvent.click(dialog().getByRole('button', { name: 'Add override' }));
  type(override(1), 'Person', ID.bob);
  type(override(1), 'From', '2026-12-24T20:00');
  type(override(1), 'Until', '2026-12-24T08:00');
  expect(override(1).getByText('Until: must be after the start')).toBeTruthy();
  type(override(1), 'Until', '2026-12-25T08:00');
  expect(save.disabled).toBe(false);

  await clickAndSettle(save);
  expect(api.callsTo('POST', '/api/schedules').map((call) => call.body)).toEqual([
    {
      name: 'Checkout nights',
      timeZone: 'America/Argentina/Buenos_Aires',
      rotations: [{ users: [ID.bob, ID.ana], start: '2026-12-01T20:00', lengthHours: 12 }],
      overrides: [{ user: ID.bob, start: '2026-12-24T20:00', end: '2026-12-25T08:00' }],
    },
  ]);
  expect(await screen.findByText('Schedule Added')).toBeTruthy();
  expect(await screen.findByTestId(`schedule-${ID.created}`)).toBeTruthy();
});

it('edits a schedule, sending only what changed', async () => {
  const api = onCallSettingsApi(admin, { [`PATCH /api/schedules/${ID.schedule}`]: { ...SCHEDULE, timeZone: 'Europe/London' } });
  renderPanel(<SchedulesPanel />);
  fireEvent.click(await screen.findByRole('button', { name: 'Edit Payments primary' }));
  await screen.findByRole('dialog');
  expect((rotation(1).getByLabelText('Hand-over time') as HTMLInputElement).value).toBe('09:00');
  fireEvent.change(dialog().getByLabelText('Time zone'), { target: { value: 'Europe/London' } });
  await clickAndSettle(dialog().getByRole('button', { name: 'Save' }));
  expect(api.callsTo('PATCH', `/api/schedules/${ID.schedule}`).map((call) => call.body)).toEqual([{ timeZone: 'Europe/London' }]);
});

it('subscribes the reader to their own shifts, and revokes the address', async () => {
  const url = 'https://hub.example.com/api/public/on-call/ocf_0123456789abcdefghijklmnopqrstuv.ics';
  const api = onCallSettingsApi(operator, {
    'POST /api/account/on-call-feed': { url },
    'DELETE /api/account/on-call-feed': () => new Response(null, { status: 204 }),
  });
  renderPanel(<SchedulesPanel />);
  await clickAndSettle(await screen.findByRole('button', { name: 'Subscribe to my shifts' }));
  expect(((await screen.findByLabelText('Calendar address')) as HTMLInputElement).value).toBe(url);
  expect(screen.getByRole('button', { name: 'Make a new address' })).toBeTruthy();

  await clickAndSettle(screen.getByRole('button', { name: 'Revoke my calendar address' }));
  expect(api.callsTo('DELETE', '/api/account/on-call-feed')).toHaveLength(1);
  expect(await screen.findByText('Calendar Address Revoked')).toBeTruthy();
  expect(screen.queryByLabelText('Calendar address')).toBeNull();
});
