/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ChannelView, CreateChannel, TestDeliveryView } from '@cbh/contracts';
import { apiError, clickAndSettle, polyfillRadix } from '@cbh/test-support';
import { admin, ID, notificationsApi, renderPage, WEBHOOK } from './test-kit';

beforeAll(polyfillRadix);

const channelsCard = () => within(screen.getByRole('region', { name: 'Channels' }));
const row = (id: string) => within(screen.getByTestId(`channel-row-${id}`));
const dialog = () => within(screen.getByRole('dialog'));
const type = (label: string | RegExp, value: string) => fireEvent.change(dialog().getByLabelText(label), { target: { value } });

it('lists each channel with its type, where it sends, its secret as set, and its last delivery', async () => {
  notificationsApi(admin);
  renderPage();
  await screen.findByTestId(`channel-row-${ID.webhook}`);
  const table = within(channelsCard().getByRole('region', { name: 'Notification channels' }));
  expect(table.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
    'Name',
    'Type',
    'Destination',
    'Secret',
    'Last delivery',
    'Actions',
  ]);
  const cells = (id: string) =>
    row(id)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
  expect(cells(ID.webhook).slice(0, 4)).toEqual(['On-call webhook', 'Webhook', 'hooks.example.comURL ••• set', '••• set']);
  expect(row(ID.webhook).getByTestId('delivery-status').textContent).toBe('Delivered');
  expect(cells(ID.email).slice(0, 5)).toEqual(['Ops mail', 'E-mail', 'ops@example.com, lead@example.com', 'None', 'Never']);
});

it('judges a new channel as it is typed, saves it, and shows its secret only as set', async () => {
  const channels: ChannelView[] = [];
  const api = notificationsApi(admin, {
    'GET /api/notification-channels': () => channels,
    'POST /api/notification-channels': (body: unknown) => {
      const { name, type, url } = body as CreateChannel;
      const created: ChannelView = {
        ...WEBHOOK,
        id: ID.created,
        name,
        type,
        urlHost: new URL(url!).host,
        lastDelivery: null,
      };
      channels.push(created);
      return Response.json(created, { status: 201 });
    },
  });
  renderPage();
  await screen.findByText('No channels yet. Add one, then a rule that sends to it.');
  fireEvent.click(screen.getByRole('button', { name: 'Add channel' }));
  // the dialogs come with the first one opened
  await screen.findByRole('dialog');
  const save = dialog().getByRole('button', { name: 'Save' }) as HTMLButtonElement;
  expect(save.disabled).toBe(true);

  type('Name', 'Pager');
  type('URL', 'hooks.example.com/T1');
  expect(dialog().getByText('URL: must be an https URL')).toBeTruthy();
  expect(dialog().getByLabelText('URL').getAttribute('aria-invalid')).toBe('true');
  expect(save.disabled).toBe(true);
  type('URL', 'https://hooks.example.com/T1/s3cr3t-path');
  expect(dialog().queryByText('URL: must be an https URL')).toBeNull();
  type('Secret', 'short');
  expect(dialog().getByText('Secret: must be at least 8 characters')).toBeTruthy();
  expect(save.disabled).toBe(true);
  type('Secret', 'a-long-signing-secret');
  expect(save.disabled).toBe(false);

  await clickAndSettle(save);
  expect(api.callsTo('POST', '/api/notification-channels').map((call) => call.body)).toEqual([
    { name: 'Pager', type: 'webhook', url: 'https://hooks.example.com/T1/s3cr3t-path', secret: 'a-long-signing-secret' },
  ]);
  await screen.findByTestId(`channel-row-${ID.created}`);
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(row(ID.created).getAllByRole('cell')[3]!.textContent).toBe('••• set');
  // what was typed is never shown back: the URL's path and the secret stay with the server
  expect(screen.queryByText(/s3cr3t-path|a-long-signing-secret/)).toBeNull();
});

it('asks an e-mail channel for addresses and names the one that is not an address', async () => {
  notificationsApi(admin);
  renderPage();
  fireEvent.click(await screen.findByRole('button', { name: 'Add channel' }));
  await screen.findByRole('dialog');
  type('Type', 'email');
  expect(dialog().queryByLabelText('URL')).toBeNull();
  expect(dialog().queryByLabelText('Secret')).toBeNull();
  type('Recipients', 'ops@example.com,\nbob@');
  expect(dialog().getByText('Recipients: “bob@” must be an e-mail address')).toBeTruthy();
  type('Recipients', '');
  expect(dialog().getByText('Recipients: name at least one address')).toBeTruthy();
});

it('shows the API’s refusal under the field it names', async () => {
  notificationsApi(admin, { 'POST /api/notification-channels': apiError(400, 'url: must be an https URL (http only to private targets)') });
  renderPage();
  fireEvent.click(await screen.findByRole('button', { name: 'Add channel' }));
  await screen.findByRole('dialog');
  type('Name', 'Local');
  type('URL', 'http://hooks.example.com/x');
  await clickAndSettle(dialog().getByRole('button', { name: 'Save' }));
  expect(dialog().getByText('URL: must be an https URL (http only to private targets)')).toBeTruthy();
  // typing again clears it; the form's own check finds nothing wrong with an http URL
  type('URL', 'http://hooks.example.com/y');
  expect(dialog().queryByText(/http only to private targets/)).toBeNull();
});

it('edits a channel without showing its kept URL or secret, sending only what changed', async () => {
  const api = notificationsApi(admin, {
    'PATCH /api/notification-channels/1a4e6c2e-0f3b-4c55-9a51-0d1e2f3a4b5c': (body: unknown) => ({ ...WEBHOOK, ...(body as object) }),
  });
  renderPage();
  await screen.findByTestId(`channel-row-${ID.webhook}`);
  fireEvent.click(row(ID.webhook).getByRole('button', { name: 'Edit On-call webhook' }));
  await screen.findByRole('dialog');
  const url = dialog().getByLabelText('URL') as HTMLInputElement;
  expect(url.value).toBe('');
  expect(url.placeholder).toBe('••• set — leave empty to keep');
  expect((dialog().getByLabelText('Secret') as HTMLInputElement).placeholder).toBe('••• set — leave empty to keep');
  expect((dialog().getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  type('Name', 'Pager');
  await clickAndSettle(dialog().getByRole('button', { name: 'Save' }));
  expect(api.callsTo('PATCH', `/api/notification-channels/${ID.webhook}`).map((call) => call.body)).toEqual([{ name: 'Pager' }]);
});

it.each<[string, TestDeliveryView, string]>([
  ['delivered', { deliveryId: 't1', status: 'delivered', statusCode: 200, durationMs: 34, error: null }, 'Delivered — HTTP 200 in 34 ms'],
  [
    'failed',
    { deliveryId: 't2', status: 'failed', statusCode: null, durationMs: 3, error: 'connect ECONNREFUSED' },
    'Failed — connect ECONNREFUSED',
  ],
])('Send test shows what the receiver answered: %s', async (_case, outcome, text) => {
  const api = notificationsApi(admin, { [`POST /api/notification-channels/${ID.webhook}/test`]: outcome });
  renderPage();
  await screen.findByTestId(`channel-row-${ID.webhook}`);
  await clickAndSettle(row(ID.webhook).getByRole('button', { name: 'Send test On-call webhook' }));
  expect(await row(ID.webhook).findByRole('status')).toHaveProperty('textContent', text);
  expect(api.callsTo('POST', `/api/notification-channels/${ID.webhook}/test`)).toHaveLength(1);
  // the toast says it too, naming the channel
  await waitFor(() => expect(screen.getByText(`On-call webhook: ${text}`)).toBeTruthy());
  // the channel's last delivery and the log are read again
  await waitFor(() => expect(api.callsTo('GET', '/api/notification-channels').length).toBeGreaterThan(1));
});

it('deletes a channel after a confirmation', async () => {
  const api = notificationsApi(admin, { [`DELETE /api/notification-channels/${ID.email}`]: new Response(null, { status: 204 }) });
  renderPage();
  await screen.findByTestId(`channel-row-${ID.email}`);
  fireEvent.click(row(ID.email).getByRole('button', { name: 'Delete Ops mail' }));
  const confirm = within(await screen.findByRole('alertdialog'));
  expect(confirm.getByText('Delete Ops mail? Nothing more is sent to it.')).toBeTruthy();
  await clickAndSettle(confirm.getByRole('button', { name: 'Delete' }));
  expect(api.callsTo('DELETE', `/api/notification-channels/${ID.email}`)).toHaveLength(1);
  expect(await screen.findByText('Channel Deleted')).toBeTruthy();
});
