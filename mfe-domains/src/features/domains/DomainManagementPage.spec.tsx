/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { apiError, authUser, buttonTexts, fakeLive } from '@cbh/test-support';
import { theme } from '@cbh/ui';
import {
  ALERTS,
  admin,
  alert,
  clickAndSettle,
  domainsApi,
  openTab,
  operator,
  polyfillRadix,
  renderPage,
  rowsOf,
  SUMMARY,
} from './test-kit';

beforeAll(polyfillRadix);

/** A colour as the browser reports it. */
const rgb = (hex: string) => {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`;
};
const badgeLook = (badge: HTMLElement) => [badge.textContent, getComputedStyle(badge).backgroundColor, badge.dataset.icon];

it('shows an access message and makes no domain call without domain_management', async () => {
  const api = domainsApi(operator);
  renderPage();
  expect(await screen.findByRole('heading', { name: 'Access Restricted' })).toBeTruthy();
  expect(screen.getByText("You don't have permission to access Domain Management.")).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Add Domain' })).toBeNull();
  await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
  expect(api.calls.filter((call) => call.path !== '/api/auth/user')).toEqual([]);
});

it('offers Export and Import beside Add Domain to holders of export_data and import_data only', async () => {
  domainsApi(authUser({ email: 'ida@example.com', role: 'admin', permissions: ['domain_management', 'export_data', 'import_data'] }));
  renderPage();
  const toolbar = await screen.findByRole('group', { name: 'Configuration' });
  expect(buttonTexts(toolbar)).toEqual(['Export', 'Import']);
  expect(screen.getByRole('button', { name: 'Add Domain' })).toBeTruthy();
  fireEvent.click(within(toolbar).getByRole('button', { name: 'Export' }));
  expect(await screen.findByRole('dialog', { name: 'Export configuration' })).toBeTruthy();
});

it('shows no configuration buttons to a domain manager without those permissions', async () => {
  domainsApi(admin);
  renderPage();
  expect(await screen.findByRole('button', { name: 'Add Domain' })).toBeTruthy();
  expect(screen.queryByRole('group', { name: 'Configuration' })).toBeNull();
});

it('shows the four figures the API counts over every domain, and a dash for each it could not read', async () => {
  domainsApi(admin);
  renderPage();
  const card = (label: string) => screen.getByRole('region', { name: label });
  await waitFor(() => expect(card('Total Domains').textContent).toBe('Total Domains4'));
  expect(card('Active Domains').textContent).toMatch(/^Active Domains1\D/);
  expect(card('SSL Certificates').textContent).toMatch(/^SSL Certificates1\D/);
  expect(card('Active Alerts').textContent).toMatch(/^Active Alerts3\D/);
});

it('says the figures and a list could not be read instead of showing zeros and empty tables', async () => {
  domainsApi(admin, {
    'GET /api/domain-summary': apiError(500, 'database unavailable'),
    'GET /api/domain-alerts': apiError(500, 'database unavailable'),
  });
  renderPage();
  expect(await screen.findByText('The figures could not be loaded. database unavailable')).toBeTruthy();
  expect(screen.getByRole('region', { name: 'Active Alerts' }).textContent).toMatch(/^Active Alerts—/);
  openTab('Alerts');
  expect(await screen.findByText('The alerts could not be loaded. database unavailable')).toBeTruthy();
  expect(screen.queryByText(/No alerts/)).toBeNull();
});

it('says when the portfolio shows only the newest domains', async () => {
  domainsApi(admin, { 'GET /api/domain-summary': { ...SUMMARY, totalDomains: 2400 } });
  renderPage();
  expect(await screen.findByText('Showing the newest 4 of 2400 domains.')).toBeTruthy();
});

it('has the five tabs, and the portfolio with status, registrar, expiry, certificate and actions', async () => {
  domainsApi(admin);
  renderPage();
  const portfolio = await screen.findByRole('region', { name: 'Domain portfolio' });
  expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
    'Overview',
    'SSL Certificates',
    'DNS Records',
    'Monitoring',
    'Alerts',
  ]);
  expect(
    within(portfolio)
      .getAllByRole('columnheader')
      .map((th) => th.textContent),
  ).toEqual(['Domain', 'Status', 'Registrar', 'Expires', 'SSL', 'Actions']);
  await waitFor(() => expect(rowsOf(portfolio)[3]![4]).toBe('Active'));
  expect(rowsOf(portfolio).map((row) => row.slice(0, 5))).toEqual([
    ['new.example.test', 'Pending', 'Unknown', 'Never', 'N/A'],
    ['old.example.test', 'Failed', 'Unknown', 'Never', 'N/A'],
    ['blog.example.test', 'Down', 'Unknown', 'Never', 'Expired'],
    ['shop.example.test', 'Active', 'Example Registrar', '2027-05-01T12:00:00.000Z', 'Active'],
  ]);
  const badges = within(portfolio).getAllByTestId('status-badge').map(badgeLook);
  expect(badges).toEqual([
    ['Pending', rgb(theme.colors.yellow), 'clock'],
    ['Failed', rgb(theme.colors.destructive), 'cross'],
    ['Down', rgb(theme.colors.grey), 'none'],
    ['Expired', rgb(theme.colors.destructive), 'cross'],
    ['Active', rgb(theme.colors.success), 'check'],
    ['Active', rgb(theme.colors.success), 'check'],
  ]);
  // only the active domain links out, to its https site in a new tab without handing it this page
  const links = within(portfolio).getAllByRole('link');
  expect(
    links.map((link) => [
      link.getAttribute('aria-label'),
      link.getAttribute('href'),
      link.getAttribute('target'),
      link.getAttribute('rel'),
    ]),
  ).toEqual([['Open shop.example.test in a new tab', 'https://shop.example.test', '_blank', 'noopener noreferrer']]);
  expect(within(portfolio).getAllByRole('button', { name: /^Manage/ })).toHaveLength(4);
});

it('lists certificates with type, status, dates and an auto-renew switch that saves', async () => {
  const api = domainsApi(admin, { 'PATCH /api/ssl-certificates/11': { id: 11, autoRenew: false } });
  renderPage();
  await screen.findByRole('region', { name: 'Domain portfolio' });
  openTab('SSL Certificates');
  const table = await screen.findByRole('region', { name: 'SSL certificates' });
  expect(
    within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent),
  ).toEqual(['Domain', 'Type', 'Status', 'Issued', 'Expires', 'Auto Renew']);
  expect(rowsOf(table)).toEqual([
    ['shop.example.test', "Let's Encrypt", 'Active', '2026-01-01T12:00:00.000Z', '2026-09-15T12:00:00.000Z', 'Enabled'],
    ['blog.example.test', 'Test CA', 'Expired', '2026-01-01T12:00:00.000Z', '2026-02-01T12:00:00.000Z', 'Disabled'],
    ['Unknown', 'Unknown', 'Invalid', 'Never', 'Never', 'Disabled'],
  ]);
  const toggle = within(table).getByRole('switch', { name: 'Auto renew for shop.example.test' });
  expect(toggle.getAttribute('aria-checked')).toBe('true');
  await clickAndSettle(toggle);
  await waitFor(() => expect(api.callsTo('PATCH', '/api/ssl-certificates/11').map((call) => call.body)).toEqual([{ autoRenew: false }]));
  expect(await screen.findByText('Auto renew is disabled for shop.example.test.')).toBeTruthy();
});

it('lists DNS records with TTL in seconds and Active or Inactive', async () => {
  domainsApi(admin);
  renderPage();
  await screen.findByRole('region', { name: 'Domain portfolio' });
  openTab('DNS Records');
  const table = await screen.findByRole('region', { name: 'DNS records' });
  expect(
    within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent),
  ).toEqual(['Domain', 'Type', 'Name', 'Value', 'TTL', 'Status']);
  expect(rowsOf(table)).toEqual([
    ['shop.example.test', 'A', 'shop.example.test', '192.0.2.10', '300 s', 'Active'],
    ['shop.example.test', 'NS', 'shop.example.test', 'ns1.dns-host.example', '3600 s', 'Active'],
    ['shop.example.test', 'TXT', 'shop.example.test', 'v=spf1 -all', '300 s', 'Inactive'],
  ]);
  expect(within(table).getAllByTestId('status-badge').map(badgeLook)[2]).toEqual(['Inactive', rgb(theme.colors.grey), 'none']);
});

it("lists monitoring with response time and uptime, 'N/A' and 'Never' before the first check", async () => {
  domainsApi(admin);
  renderPage();
  await screen.findByRole('region', { name: 'Domain portfolio' });
  openTab('Monitoring');
  const table = await screen.findByRole('region', { name: 'Monitoring' });
  expect(
    within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent),
  ).toEqual(['Domain', 'Type', 'Status', 'Response Time', 'Uptime', 'Last Check']);
  const rows = rowsOf(table);
  expect(rows[0]!.slice(0, 5)).toEqual(['shop.example.test', 'Uptime', 'Up', '142 ms', '99.88%']);
  expect(rows[0]![5]).toMatch(/^2026-.*Z$/);
  expect(rows[1]).toEqual(['new.example.test', 'Uptime', 'Not checked', 'N/A', 'N/A', 'Never']);
});

it('lists alerts with severity colours, and resolves an open one', async () => {
  const api = domainsApi(admin, { 'POST /api/domain-alerts/41/resolve': { ...ALERTS[0], status: 'resolved' } });
  renderPage();
  await screen.findByRole('region', { name: 'Domain portfolio' });
  openTab('Alerts');
  const table = await screen.findByRole('region', { name: 'Alerts' });
  expect(
    within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent),
  ).toEqual(['Domain', 'Alert Type', 'Severity', 'Status', 'Triggered', 'Message', 'Actions']);
  expect(rowsOf(table).map((row) => row.slice(0, 4))).toEqual([
    ['blog.example.test', 'Site down', 'Critical', 'Open'],
    ['shop.example.test', 'Registration expiring', 'High', 'Open'],
    ['shop.example.test', 'Slow response', 'Medium', 'Resolved'],
    ['shop.example.test', 'Certificate expiring', 'Low', 'Open'],
  ]);
  expect(
    within(table)
      .getAllByTestId('severity-badge')
      .map((badge) => getComputedStyle(badge).backgroundColor),
  ).toEqual([rgb(theme.colors.destructive), rgb(theme.colors.orange), rgb(theme.colors.yellow), rgb(theme.colors.primary)]);
  // Resolve only on open alerts
  expect(within(screen.getByTestId('alert-row-43')).queryByRole('button')).toBeNull();
  await clickAndSettle(within(screen.getByTestId('alert-row-41')).getByRole('button', { name: /^Resolve/ }));
  await waitFor(() => expect(api.callsTo('POST', '/api/domain-alerts/41/resolve')).toHaveLength(1));
  expect(await screen.findByText('Alert Resolved')).toBeTruthy();
});

it('keeps every table’s headings when there is nothing to list, and says so in one row across them', async () => {
  domainsApi(
    admin,
    {
      'GET /api/domain-summary': { totalDomains: 0, activeDomains: 0, activeCertificates: 0, openAlerts: 0, primaryDomainId: null },
      'GET /api/ssl-certificates': [],
      'GET /api/dns-records': [],
      'GET /api/domain-monitoring': [],
      'GET /api/domain-alerts': [],
    },
    { domains: [] },
  );
  renderPage();
  /** The table's headings, and its body's one row as [cell text, the columns it spans]. */
  const emptyTable = async (name: string) => {
    const table = await screen.findByRole('region', { name });
    const cells = Array.from(table.querySelectorAll('tbody tr')).map((row) =>
      Array.from(row.querySelectorAll('td')).map((cell) => [cell.textContent, cell.colSpan]),
    );
    return { headings: within(table).getAllByRole('columnheader').length, cells };
  };
  expect(await emptyTable('Domain portfolio')).toEqual({ headings: 6, cells: [[[expect.stringMatching(/^No domains registered/), 6]]] });
  // the one action that fills it, under the words
  expect(
    within(screen.getByRole('region', { name: 'Domain portfolio' })).getByRole('button', { name: 'Add your first domain' }),
  ).toBeTruthy();
  expect(screen.getByText(/No verified domain yet/)).toBeTruthy();
  for (const [tab, region, text] of [
    ['SSL Certificates', 'SSL certificates', /^No SSL certificates yet/],
    ['DNS Records', 'DNS records', /^No DNS records yet/],
    ['Monitoring', 'Monitoring', /^No monitoring yet/],
    ['Alerts', 'Alerts', /^No alerts/],
  ] as const) {
    openTab(tab);
    const { headings, cells } = await emptyTable(region);
    expect(headings).toBeGreaterThanOrEqual(6);
    expect(cells).toEqual([[[expect.stringMatching(text), headings]]]);
  }
});

describe('live', () => {
  let live: ReturnType<typeof fakeLive>;
  // inside act: the page is still mounted, and its connection status changes
  afterEach(() => act(() => live?.stop()));

  /**
   * Runs what the live message does and waits until the list at `path` has been read again. A message that comes
   * within the live refresh window of the one before (LIVE_REFRESH_WINDOW_MS, 1 s) is read at the window's end, so
   * the wait spans that timer too: within the component tests' 5 s.
   */
  async function refetchedAfter(api: ReturnType<typeof domainsApi>, path: string, action: () => void) {
    const before = api.callsTo('GET', path).length;
    await act(async () => action());
    await waitFor(() => expect(api.callsTo('GET', path).length).toBeGreaterThan(before));
  }

  it('refetches the lists when a domain changes or an alert arrives, and toasts a new critical alert only', async () => {
    const api = domainsApi(admin);
    // connected before the page renders, so the connection's status does not change under it
    await act(async () => void (live = fakeLive()));
    renderPage({ live: true });
    await screen.findByRole('region', { name: 'Domain portfolio' });
    await waitFor(() => expect(api.callsTo('GET', '/api/domain-alerts')).toHaveLength(1));

    const raised = alert({ id: 45, domainId: 1, severity: 'critical', message: 'shop.example.test has failed 3 checks in a row' });
    await refetchedAfter(api, '/api/domain-alerts', () =>
      live.emit({ type: 'domainAlert', data: { alert: raised, domain: 'shop.example.test' } }),
    );
    expect(await screen.findByText('Critical alert: Site down')).toBeTruthy();
    expect(screen.getByText('shop.example.test: shop.example.test has failed 3 checks in a row')).toBeTruthy();

    // a resolved or a less severe alert refreshes, without a toast (one toast shows at a time: a new one would replace it)
    await refetchedAfter(api, '/api/domain-alerts', () => {
      live.emit({
        type: 'domainAlert',
        data: { alert: { ...raised, status: 'resolved', message: 'back up' }, domain: 'shop.example.test' },
      });
      live.emit({
        type: 'domainAlert',
        data: { alert: alert({ id: 46, domainId: 1, severity: 'high', message: 'slowish' }), domain: 'shop.example.test' },
      });
    });
    expect(screen.queryByText('shop.example.test: back up')).toBeNull();
    expect(screen.queryByText('shop.example.test: slowish')).toBeNull();
    expect(screen.getByText('shop.example.test: shop.example.test has failed 3 checks in a row')).toBeTruthy();

    // rounds that only added checks refresh the monitoring list, not every list
    const domainsRead = api.callsTo('GET', '/api/domains').length;
    await refetchedAfter(api, '/api/domain-monitoring', () => live.emit({ type: 'domainsChecked', data: { domainIds: [1, 2] } }));
    expect(api.callsTo('GET', '/api/domains').length).toBe(domainsRead);
    // a change someone made, or one a round found, refreshes the lists and the figures
    await refetchedAfter(api, '/api/domain-summary', () => live.emit({ type: 'domainUpdated', data: { domainId: 1 } }));
    expect(api.callsTo('GET', '/api/domains').length).toBeGreaterThan(domainsRead);
  });
});
