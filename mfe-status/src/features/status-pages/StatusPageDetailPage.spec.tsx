/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { apiError, clickAndSettle, openTab, polyfillRadix, rowsOf } from '@cbh/test-support';
import { admin, breakerAdmin, incident, OPEN_INCIDENT, PAGE, renderAt, statusApi } from './test-kit';

beforeAll(polyfillRadix);

const heading = () => screen.findByRole('heading', { level: 1, name: 'Payments' });
const rowAction = async (row: string, action: string) => {
  fireEvent.click(await screen.findByRole('button', { name: `Actions for ${row}` }));
  await clickAndSettle(within(screen.getByRole('group', { name: `Actions for ${row}` })).getByRole('button', { name: action }));
};
const saved = (fields: object) => () => Response.json({ ...PAGE, ...fields });

describe('components', () => {
  it('lists the components with their live state in words, and a Preview of the public page', async () => {
    statusApi(admin);
    renderAt('/status-pages/1');
    await heading();
    const table = await screen.findByRole('table', { name: 'Components' });
    expect(rowsOf(table).map((row) => row.slice(0, 4))).toEqual([
      ['Card paymentsCharging cards', 'Checkout', '1 breaker', 'Partial outage'],
      ['Refunds', '—', '1 breaker, 1 domain', 'Operational'],
    ]);
    const preview = screen.getByRole('link', { name: /^Preview/ });
    expect(preview.getAttribute('href')).toBe('/status/payments');
    expect(preview.getAttribute('target')).toBe('_blank');
  });

  it('adds a component with the breakers and domains picked, sending the whole list', async () => {
    const api = statusApi(admin, { 'PATCH /api/status-pages/1': saved({}) });
    renderAt('/status-pages/1');
    fireEvent.click(await screen.findByRole('button', { name: 'Add component' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add component' }));
    fireEvent.change(dialog.getByLabelText('Name'), { target: { value: 'Checkout API' } });
    fireEvent.change(dialog.getByLabelText('Group'), { target: { value: 'Checkout' } });
    fireEvent.click(await dialog.findByRole('checkbox', { name: /refunds/ }));
    fireEvent.click(await dialog.findByRole('checkbox', { name: /pay\.example\.test/ }));
    await clickAndSettle(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PATCH', '/api/status-pages/1')).toHaveLength(1));
    expect(api.callsTo('PATCH', '/api/status-pages/1')[0]!.body).toEqual({
      components: [
        { id: 11, name: 'Card payments', description: 'Charging cards', group: 'Checkout', breakers: [5], domains: [] },
        { id: 12, name: 'Refunds', breakers: [6], domains: [1] },
        { name: 'Checkout API', group: 'Checkout', breakers: [6], domains: [1] },
      ],
    });
    expect(await screen.findByText('Components Saved')).toBeTruthy();
  });

  it('refuses a name another component has, and offers no domains without domain_management', async () => {
    statusApi(breakerAdmin);
    renderAt('/status-pages/1');
    fireEvent.click(await screen.findByRole('button', { name: 'Add component' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add component' }));
    fireEvent.change(dialog.getByLabelText('Name'), { target: { value: 'refunds' } });
    expect(dialog.getByText('Name: another component has this name')).toBeTruthy();
    expect((dialog.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    expect(dialog.queryByRole('group', { name: 'Domains' })).toBeNull();
    expect(dialog.getByText(/holders of the domain_management permission/)).toBeTruthy();
  });

  it('moves a component down and removes one after asking', async () => {
    const api = statusApi(admin, { 'PATCH /api/status-pages/1': saved({}) });
    renderAt('/status-pages/1');
    await rowAction('Card payments', 'Move down');
    await waitFor(() => expect(api.callsTo('PATCH', '/api/status-pages/1')).toHaveLength(1));
    const order = (index: number) =>
      (api.callsTo('PATCH', '/api/status-pages/1')[index]!.body as { components: { name: string }[] }).components.map((c) => c.name);
    expect(order(0)).toEqual(['Refunds', 'Card payments']);

    await rowAction('Refunds', 'Remove');
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Remove component' }));
    await clickAndSettle(confirm.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(api.callsTo('PATCH', '/api/status-pages/1')).toHaveLength(2));
    expect(order(1)).toEqual(['Card payments']);
  });
});

describe('incidents', () => {
  it('opens the incident form from the address, with its components set to a partial outage', async () => {
    const api = statusApi(admin, { 'POST /api/status-pages/1/incidents': () => Response.json(OPEN_INCIDENT, { status: 201 }) });
    renderAt('/status-pages/1?incident=new&components=12,99');
    const form = within(await screen.findByRole('form', { name: 'Open incident' }));
    expect((form.getByRole('checkbox', { name: 'Refunds' }) as HTMLInputElement).checked).toBe(true);
    expect((form.getByRole('checkbox', { name: 'Card payments' }) as HTMLInputElement).checked).toBe(false);
    expect((form.getByLabelText('State of Refunds') as HTMLSelectElement).value).toBe('partial_outage');
    fireEvent.change(form.getByLabelText('State of Refunds'), { target: { value: 'major_outage' } });
    fireEvent.change(form.getByLabelText('Title'), { target: { value: 'Refunds are stuck' } });
    fireEvent.change(form.getByLabelText('Message'), { target: { value: 'We are **looking**.' } });
    await clickAndSettle(form.getByRole('button', { name: 'Open incident' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/status-pages/1/incidents')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/status-pages/1/incidents')[0]!.body).toEqual({
      title: 'Refunds are stuck',
      impact: 'major',
      message: 'We are **looking**.',
      components: [{ id: 12, state: 'major_outage' }],
    });
    expect(await screen.findByText('Incident Opened')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Open incident' })).toBeNull());
  });

  it('shows an open incident’s timeline newest first with its rendered messages, and resolves it', async () => {
    const api = statusApi(admin, {
      'POST /api/status-pages/1/incidents/40/updates': () => Response.json({ ...OPEN_INCIDENT, status: 'resolved' }),
    });
    renderAt('/status-pages/1');
    await heading();
    openTab('Incidents');
    const card = within(await screen.findByRole('article', { name: 'Card payments failing' }));
    const updates = within(card.getByRole('list', { name: 'Updates of Card payments failing' })).getAllByRole('listitem');
    expect(updates.map((item) => item.textContent)).toEqual([
      expect.stringContaining('The card processor is down.'),
      expect.stringContaining('We see it'),
    ]);
    expect(updates[1]!.querySelector('li > div strong')?.textContent).toBe('see');
    expect(card.getByText('Major outage')).toBeTruthy();

    fireEvent.click(card.getByRole('button', { name: 'Post update' }));
    const form = within(card.getByRole('form', { name: 'Post update to Card payments failing' }));
    expect((form.getByLabelText(/^Status/) as HTMLSelectElement).value).toBe('monitoring');
    fireEvent.change(form.getByLabelText(/^Status/), { target: { value: 'resolved' } });
    fireEvent.change(form.getByLabelText(/^Message/), { target: { value: 'Fixed.' } });
    await clickAndSettle(form.getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/status-pages/1/incidents/40/updates')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/status-pages/1/incidents/40/updates')[0]!.body).toEqual({ status: 'resolved', message: 'Fixed.' });
    expect(await screen.findByText('Incident Resolved')).toBeTruthy();
  });

  it('loads the resolved history a page at a time, before the last one shown', async () => {
    const first = Array.from({ length: 10 }, (_, index) => incident(30 - index));
    const api = statusApi(admin, {
      'GET /api/status-pages/1/incidents': (_body: unknown, url: URL) => {
        if (url.searchParams.get('state') === 'open') return [];
        return url.searchParams.get('before') === '21' ? [incident(20), incident(19)] : first;
      },
    });
    renderAt('/status-pages/1');
    await heading();
    openTab('Incidents');
    const resolved = within(await screen.findByRole('region', { name: 'Resolved' }));
    expect(await resolved.findByRole('article', { name: 'Incident 21' })).toBeTruthy();
    await clickAndSettle(resolved.getByRole('button', { name: 'Load more' }));
    expect(await resolved.findByRole('article', { name: 'Incident 19' })).toBeTruthy();
    expect(api.callsTo('GET', '/api/status-pages/1/incidents?state=resolved&limit=10&before=21')).toHaveLength(1);
    expect(resolved.queryByRole('button', { name: 'Load more' })).toBeNull();
  });
});

it('lists the subscribers, confirmed or pending, and removes one after asking', async () => {
  const api = statusApi(admin, { 'DELETE /api/status-pages/1/subscribers/8': () => new Response(null, { status: 204 }) });
  renderAt('/status-pages/1');
  await heading();
  openTab('Subscribers');
  const table = await screen.findByRole('table', { name: 'Subscribers' });
  expect(rowsOf(table).map((row) => row.slice(0, 3))).toEqual([
    ['carol@example.com', 'Confirmed', 'All'],
    ['dan@example.com', 'Pending', 'Refunds'],
  ]);
  await rowAction('dan@example.com', 'Remove');
  const confirm = within(await screen.findByRole('alertdialog', { name: 'Remove subscriber' }));
  await clickAndSettle(confirm.getByRole('button', { name: 'Remove' }));
  await waitFor(() => expect(api.callsTo('DELETE', '/api/status-pages/1/subscribers/8')).toHaveLength(1));
  expect(await screen.findByText('Subscriber Removed')).toBeTruthy();
});

describe('appearance', () => {
  it('saves only what changed', async () => {
    const api = statusApi(admin, { 'PATCH /api/status-pages/1': saved({ title: 'Payments (EU)' }) });
    renderAt('/status-pages/1');
    await heading();
    openTab('Appearance');
    const form = within(await screen.findByRole('form', { name: 'Appearance' }));
    expect((form.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(form.getByLabelText('Title'), { target: { value: 'Payments (EU)' } });
    fireEvent.change(form.getByLabelText('Accent colour'), { target: { value: '#0b6bcb' } });
    fireEvent.change(form.getByLabelText('Description'), { target: { value: '' } });
    await clickAndSettle(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PATCH', '/api/status-pages/1')).toHaveLength(1));
    expect(api.callsTo('PATCH', '/api/status-pages/1')[0]!.body).toEqual({
      title: 'Payments (EU)',
      description: null,
      accentColor: '#0b6bcb',
    });
  });

  it('deletes the page after asking, and returns to the list', async () => {
    const api = statusApi(admin, { 'DELETE /api/status-pages/1': () => new Response(null, { status: 204 }) });
    renderAt('/status-pages/1');
    await heading();
    openTab('Appearance');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete status page' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Delete status page' }));
    await clickAndSettle(confirm.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.callsTo('DELETE', '/api/status-pages/1')).toHaveLength(1));
    expect(await screen.findByRole('heading', { level: 1, name: 'Status Pages' })).toBeTruthy();
  });
});

it('says so when there is no page at the address', async () => {
  statusApi(admin, { 'GET /api/status-pages/9': apiError(404, 'No status page 9') });
  renderAt('/status-pages/9');
  expect(await screen.findByRole('heading', { name: 'Status page not found' })).toBeTruthy();
  await act(async () => undefined);
});
