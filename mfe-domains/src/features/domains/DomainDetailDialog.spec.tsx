/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  admin,
  alert,
  clickAndSettle,
  detailOf,
  DOMAINS,
  domainsApi,
  heldRoute,
  polyfillRadix,
  renderPage,
  SUMMARY,
  VERIFICATIONS,
} from './test-kit';

beforeAll(polyfillRadix);

const shop = DOMAINS.find((domain) => domain.id === 1)!;

async function manage(domain: string) {
  const portfolio = await screen.findByRole('region', { name: 'Domain portfolio' });
  fireEvent.click(within(portfolio).getByRole('button', { name: `Manage ${domain}` }));
  return within(await screen.findByRole('dialog', { name: domain }));
}

describe('the Primary Domain Status card', () => {
  it('shows the earliest verified domain: status, certificate, DNS provider, response time and last check', async () => {
    domainsApi(admin);
    renderPage();
    const region = await screen.findByRole('region', { name: 'Primary Domain Status' });
    const card = within(region);
    expect(await card.findByText('shop.example.test')).toBeTruthy();
    expect(card.getByTestId('status-badge').textContent).toBe('Active');
    const validity = await card.findByText(/^Valid, expires/);
    expect(validity.querySelector('time')?.getAttribute('datetime')).toBe('2026-09-15T12:00:00.000Z');
    expect(card.getByText('dns-host.example')).toBeTruthy();
    expect(card.getByText('142 ms')).toBeTruthy();
    // a moment's exact time is its title once the pointer is over it
    region.querySelectorAll('time').forEach((time) => fireEvent.pointerEnter(time));
    expect(card.getByTitle(/Mar 2, 2026/)).toBeTruthy();
    expect(card.getByRole('button', { name: 'Test Connection' })).toBeTruthy();
  });

  it('says why the last check failed', async () => {
    domainsApi(admin, {
      'GET /api/domains/1': detailOf(shop, {
        recentChecks: [{ checkedAt: '2026-03-02T09:00:00.000Z', status: 'down', responseTime: null, error: 'connection refused' }],
      }),
    });
    renderPage();
    expect(await screen.findByText('Last check failed: connection refused')).toBeTruthy();
  });

  it('tells how to verify a domain while none is verified, and tests the connection of any added one', async () => {
    const api = domainsApi(admin, { 'GET /api/domain-summary': { ...SUMMARY, primaryDomainId: null }, 'HEAD /': () => new Response(null) });
    renderPage();
    const card = within(await screen.findByRole('region', { name: 'Primary Domain Status' }));
    expect(await card.findByText(/No verified domain yet\. Add a domain, open Manage, publish the TXT record/)).toBeTruthy();
    const select = (await card.findByLabelText('Domain to test')) as HTMLSelectElement;
    expect(Array.from(select.options).map((option) => option.value)).toEqual(DOMAINS.map((domain) => domain.domain));
    fireEvent.change(select, { target: { value: 'blog.example.test' } });
    await clickAndSettle(card.getByRole('button', { name: 'Test Connection' }));
    expect(await screen.findByText(/^blog\.example\.test is accessible \(\d+ms\)$/)).toBeTruthy();
    expect(api.callsTo('HEAD', '/')).toHaveLength(1);
    expect(api.calls.some((call) => /^\/api\/domains\/\d+$/.test(call.path))).toBe(false);
  });

  it('offers no connection test before any domain is added', async () => {
    domainsApi(admin, { 'GET /api/domain-summary': { ...SUMMARY, totalDomains: 0, primaryDomainId: null } }, { domains: [] });
    renderPage();
    const card = within(await screen.findByRole('region', { name: 'Primary Domain Status' }));
    expect(await card.findByText(/No verified domain yet/)).toBeTruthy();
    await screen.findByText('No domains registered');
    expect(card.queryByRole('button', { name: 'Test Connection' })).toBeNull();
  });

  it("reads 'Testing...' and waits while the test runs", async () => {
    const held = heldRoute(() => new Response(null, { status: 200 }));
    domainsApi(admin, { 'HEAD /': held.route });
    renderPage();
    const card = within(await screen.findByRole('region', { name: 'Primary Domain Status' }));
    await clickAndSettle(await card.findByRole('button', { name: 'Test Connection' }));
    expect((card.getByRole('button', { name: 'Testing...' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => held.release());
    expect(await screen.findByText('Domain Status')).toBeTruthy();
    expect((card.getByRole('button', { name: 'Test Connection' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it.each([
    ['answers', () => new Response(null, { status: 200 }), 'Domain Status', /^shop\.example\.test is accessible \(\d+ms\)$/],
    [
      'cannot be reached',
      () => {
        throw new TypeError('Failed to fetch');
      },
      'Domain Test Failed',
      /^shop\.example\.test is not accessible$/,
    ],
  ])('tests the connection from the browser: the site %s', async (_case, site, title, text) => {
    const api = domainsApi(admin, { 'HEAD /': site });
    renderPage();
    const card = within(await screen.findByRole('region', { name: 'Primary Domain Status' }));
    await clickAndSettle(await card.findByRole('button', { name: 'Test Connection' }));
    expect(await screen.findByText(title)).toBeTruthy();
    expect(screen.getByText(text)).toBeTruthy();
    expect(api.callsTo('HEAD', '/')).toHaveLength(1);
    // the outcome stays beside the button once the toast has gone
    expect(card.getByTestId('connection-outcome').textContent).toMatch(
      title === 'Domain Status' ? /^Accessible \(\d+ms\)$/ : /^Not accessible$/,
    );
  });
});

describe('Manage', () => {
  it('shows the TXT record to publish with copy buttons, and starts a verification', async () => {
    const writes: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async (text: string) => void writes.push(text) },
      configurable: true,
    });
    const api = domainsApi(admin, {
      'GET /api/domains/4': detailOf(DOMAINS[0]!),
      'POST /api/domains/4/verify': { ...VERIFICATIONS[0], status: 'verifying' },
    });
    renderPage();
    const panel = await manage('new.example.test');
    const name = (await panel.findByLabelText('TXT record name')) as HTMLInputElement;
    expect(name.value).toBe('_cbhub-verify.new.example.test');
    expect(name.readOnly).toBe(true);
    expect((panel.getByLabelText('TXT record value') as HTMLInputElement).value).toBe('cbhub-verify=token-4');
    expect(panel.getByTestId('verification-result').textContent).toBe('Not checked yet');

    await clickAndSettle(panel.getByRole('button', { name: 'Copy TXT record value' }));
    expect(writes).toEqual(['cbhub-verify=token-4']);
    expect(panel.getByRole('button', { name: 'Copied TXT record value' })).toBeTruthy();

    await clickAndSettle(panel.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/domains/4/verify')).toHaveLength(1));
    expect(await screen.findByText('Verification Started')).toBeTruthy();
    // the detail is read again to show the result
    await waitFor(() => expect(api.callsTo('GET', '/api/domains/4').length).toBeGreaterThanOrEqual(2));
  });

  it('shows the last result with its reason', async () => {
    domainsApi(admin, { 'GET /api/domains/3': detailOf(DOMAINS[1]!) });
    renderPage();
    const panel = await manage('old.example.test');
    const result = await panel.findByTestId('verification-result');
    expect(result.textContent).toMatch(/^Last checked .+: Failed \(no TXT record found\)$/);
    fireEvent.pointerEnter(result.querySelector('time')!);
    expect(result.querySelector('time')?.getAttribute('title')).toMatch(/2026/);
  });

  it('shows the certificate, DNS records, subdomains, a chart of recent checks and only the open alerts', async () => {
    // without ResizeObserver the chart draws no canvas (jsdom has none) and keeps its text
    const resizeObserver = globalThis.ResizeObserver;
    delete (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
    try {
      await showsTheRecords();
    } finally {
      globalThis.ResizeObserver = resizeObserver;
    }
  });

  async function showsTheRecords() {
    domainsApi(admin, {
      'GET /api/domains/1': detailOf(shop, {
        subdomains: [
          { id: 1, domainId: 1, name: 'mail.shop.example.test', createdAt: '2026-03-01T00:00:00.000Z' },
          { id: 2, domainId: 1, name: 'www.shop.example.test', createdAt: '2026-03-01T00:00:00.000Z' },
        ],
        recentChecks: [
          { checkedAt: '2026-03-02T08:59:00.000Z', status: 'up', responseTime: 120, error: null },
          { checkedAt: '2026-03-02T09:00:00.000Z', status: 'up', responseTime: 142, error: null },
        ],
        alerts: [
          alert({ id: 50, domainId: 1, severity: 'high', message: 'still open' }),
          alert({ id: 51, domainId: 1, severity: 'critical', status: 'resolved', message: 'over' }),
        ],
      }),
    });
    renderPage();
    const panel = await manage('shop.example.test');
    const certificate = within(await panel.findByRole('region', { name: 'SSL certificate' }));
    expect(certificate.getByText("Let's Encrypt")).toBeTruthy();
    expect(
      certificate
        .getByText(/^Valid, expires/)
        .querySelector('time')
        ?.getAttribute('datetime'),
    ).toBe('2026-09-15T12:00:00.000Z');
    expect(within(panel.getByRole('region', { name: 'DNS records' })).getAllByRole('row')).toHaveLength(4);
    expect(
      within(panel.getByRole('region', { name: 'Subdomains' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['mail.shop.example.test', 'www.shop.example.test']);
    // the chart says its latest value in words (the canvas itself needs a browser)
    expect(await panel.findByRole('img', { name: 'Response time of the last 2 checks: Response time 142 ms' })).toBeTruthy();
    const alerts = within(panel.getByRole('region', { name: 'Open alerts' })).getAllByRole('listitem');
    expect(alerts.map((li) => li.textContent)).toEqual(['High Site down: still open']);
  }

  it('deletes the domain after a confirmation, and Cancel keeps it', async () => {
    const api = domainsApi(admin, { 'DELETE /api/domains/1': () => new Response(null, { status: 204 }) });
    renderPage();
    const panel = await manage('shop.example.test');
    fireEvent.click(await panel.findByRole('button', { name: 'Delete Domain' }));
    let confirm = within(await screen.findByRole('alertdialog', { name: 'Delete shop.example.test?' }));
    fireEvent.click(confirm.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.callsTo('DELETE', '/api/domains/1')).toHaveLength(0);

    fireEvent.click(panel.getByRole('button', { name: 'Delete Domain' }));
    confirm = within(await screen.findByRole('alertdialog', { name: 'Delete shop.example.test?' }));
    await clickAndSettle(confirm.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.callsTo('DELETE', '/api/domains/1')).toHaveLength(1));
    expect(await screen.findByText('Domain Deleted')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closes with its Close button, the way out on a phone', async () => {
    domainsApi(admin);
    renderPage();
    const panel = await manage('shop.example.test');
    fireEvent.click(panel.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says so when the domain is gone', async () => {
    domainsApi(admin, {
      'GET /api/domains/1': () => Response.json({ statusCode: 404, error: 'Not Found', message: 'No domain with id 1' }, { status: 404 }),
    });
    renderPage();
    const portfolio = await screen.findByRole('region', { name: 'Domain portfolio' });
    fireEvent.click(within(portfolio).getByRole('button', { name: 'Manage shop.example.test' }));
    const panel = within(await screen.findByRole('dialog', { name: 'Domain' }));
    expect(await panel.findByText(/This domain could not be loaded\. No domain with id 1/)).toBeTruthy();
  });
});
