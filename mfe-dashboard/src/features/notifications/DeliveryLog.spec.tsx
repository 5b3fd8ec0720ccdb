/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DeliveryPage } from '@cbh/contracts';
import { clickAndSettle } from '@cbh/test-support';
import { admin, breakerAdmin, delivery, ID, notificationsApi, renderPage } from './test-kit';

const log = () => within(screen.getByRole('region', { name: 'Delivery log' }));
const row = (id: string) => within(screen.getByTestId(`delivery-row-${id}`));
const deliveryReads = (api: ReturnType<typeof notificationsApi>) =>
  api.calls.filter((call) => call.method === 'GET' && call.path.startsWith('/api/notification-deliveries')).map((call) => call.path);

const FAILED = delivery('d2', {
  status: 'failed',
  attempts: 8,
  statusCode: 503,
  durationMs: 120,
  lastError: 'HTTP 503 Service Unavailable',
  occurredAt: '2026-05-02T09:20:00.000Z',
});

it('lists deliveries newest first with their outcome, and Retry on a failed one only', async () => {
  const api = notificationsApi(admin, {
    'GET /api/notification-deliveries': { items: [delivery('d1'), FAILED], nextBefore: null },
    'POST /api/notification-deliveries/d2/retry': { ...FAILED, status: 'pending', attempts: 8 },
  });
  renderPage();
  await screen.findByTestId('delivery-row-d2');
  const table = within(log().getByRole('region', { name: 'Deliveries' }));
  expect(table.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
    'Time',
    'Event',
    'Subject',
    'Channel',
    'Rule',
    'Status',
    'Attempts',
    'HTTP',
    'Duration',
    'Last error',
    'Actions',
  ]);
  expect(
    row('d2')
      .getAllByRole('cell')
      .slice(1)
      .map((cell) => cell.textContent),
  ).toEqual([
    'Breaker opened',
    'payments',
    'On-call webhook',
    'Page on-call',
    'Failed',
    '8',
    '503',
    '120 ms',
    'HTTP 503 Service Unavailable',
    'Retry payments',
  ]);
  expect(row('d1').queryByRole('button', { name: /Retry/ })).toBeNull();

  const before = deliveryReads(api).length;
  await clickAndSettle(row('d2').getByRole('button', { name: 'Retry payments' }));
  expect(api.callsTo('POST', '/api/notification-deliveries/d2/retry')).toHaveLength(1);
  expect(await screen.findByText('Retry Queued')).toBeTruthy();
  await waitFor(() => expect(deliveryReads(api).length).toBeGreaterThan(before));
});

it('links a breaker event’s subject to the page of the breaker it carries, by id; other subjects stay text', async () => {
  const api = notificationsApi(admin, {
    'GET /api/notification-deliveries': {
      items: [
        delivery('d1'),
        // an agent's breaker of another service with the same name: its own page, not the first one named so
        delivery('d4', { breakerId: 12 }),
        delivery('d3', { event: 'domain.alert.opened', subject: 'payments', breakerId: null }),
      ],
      nextBefore: null,
    },
  });
  renderPage();
  await screen.findByTestId('delivery-row-d1');
  expect(row('d1').getByRole('link', { name: 'payments' }).getAttribute('href')).toBe('/circuit-breakers/7');
  expect(row('d4').getByRole('link', { name: 'payments' }).getAttribute('href')).toBe('/circuit-breakers/12');
  expect(row('d3').queryByRole('link')).toBeNull();
  // the ids come with the deliveries: no list of breakers is read to find them
  expect(api.callsTo('GET', '/api/circuit-breakers')).toEqual([]);
});

it('links no subject without circuit_breaker_view', async () => {
  notificationsApi(breakerAdmin);
  renderPage();
  await screen.findByTestId('delivery-row-d1');
  expect(row('d1').queryByRole('link')).toBeNull();
});

it('filters by channel, event and status, each change from the newest page', async () => {
  const api = notificationsApi(admin);
  renderPage();
  await screen.findByTestId('delivery-row-d1');
  fireEvent.change(log().getByLabelText('Channel'), { target: { value: ID.webhook } });
  fireEvent.change(log().getByLabelText('Event'), { target: { value: 'breaker.flapping' } });
  fireEvent.change(log().getByLabelText('Status'), { target: { value: 'failed' } });
  await waitFor(() =>
    expect(deliveryReads(api)).toContain(`/api/notification-deliveries?channelId=${ID.webhook}&event=breaker.flapping&status=failed`),
  );
  const events = within(log().getByLabelText('Event')).getAllByRole('option');
  expect(events.map((option) => option.textContent)).toContain('Domain alert opened');
});

it('hides domain events from the filter without domain_management', async () => {
  notificationsApi(breakerAdmin);
  renderPage();
  await screen.findByTestId('delivery-row-d1');
  const events = within(log().getByLabelText('Event')).getAllByRole('option');
  expect(events.map((option) => option.textContent)).toEqual([
    'All events',
    'Breaker opened',
    'Breaker recovered',
    'Breaker stuck open',
    'Breaker flapping',
    'Release rolled back',
    'Canary failing',
    'Incident opened',
    'Incident updated',
    'Incident resolved',
    'Alert group acknowledged',
    'Alert group escalated',
    'Alert group resolved',
    'SLO burning its budget',
    'SLO budget exhausted',
    'SLO no longer burning',
    'Drill started',
    'Drill finished',
    'Breaker events capped',
    'Test',
  ]);
});

it('pages to older deliveries with the cursor the page gave, and back to the newest', async () => {
  const pages: Record<string, DeliveryPage> = {
    newest: { items: [delivery('d3')], nextBefore: '42' },
    '42': { items: [delivery('d1')], nextBefore: null },
  };
  notificationsApi(admin, {
    'GET /api/notification-deliveries': (_body: unknown, url: URL) => pages[url.searchParams.get('before') ?? 'newest'],
  });
  renderPage();
  await screen.findByTestId('delivery-row-d3');
  expect((log().getByRole('button', { name: 'Newest' }) as HTMLButtonElement).disabled).toBe(true);
  fireEvent.click(log().getByRole('button', { name: 'Older' }));
  await screen.findByTestId('delivery-row-d1');
  expect(screen.queryByTestId('delivery-row-d3')).toBeNull();
  expect((log().getByRole('button', { name: 'Older' }) as HTMLButtonElement).disabled).toBe(true);
  fireEvent.click(log().getByRole('button', { name: 'Newest' }));
  await screen.findByTestId('delivery-row-d3');
});

it('reads the log again every 3 s, so a delivery’s outcome appears by itself', async () => {
  let status: 'pending' | 'delivered' = 'pending';
  notificationsApi(admin, {
    'GET /api/notification-deliveries': () => ({
      items: [delivery('d1', { status, attempts: status === 'pending' ? 0 : 1 })],
      nextBefore: null,
    }),
  });
  renderPage();
  expect((await screen.findByTestId('delivery-row-d1')).textContent).toContain('Pending');
  status = 'delivered';
  await waitFor(() => expect(row('d1').getByTestId('delivery-status').textContent).toBe('Delivered'), { timeout: 5000 });
});
