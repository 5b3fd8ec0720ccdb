import { chromium, expect, test, type Browser, type Page } from './support/test';
import { domainCheckEnv, startDomainServers, type DomainServers } from '../api/test/domain-servers';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.mjs';
import { seriousViolations } from './support/axe';
import { loadedProviders } from './support/federation';
import { ADMIN, DEMO_PASSWORD, startOwnSite, type Site } from './support/server';

/**
 * The domains remote against the production build and a real API (its own database) checking a site served by
 * DNS, HTTPS and HTTP servers on loopback. The browser reaches that site too, for Test Connection: Chromium
 * resolves the test zone to the loopback HTTPS server (--host-resolver-rules) and, not knowing the test CA,
 * is told to accept its certificate; the API trusts the CA through NODE_EXTRA_CA_CERTS.
 */
/** The site's address, on a free port taken when it starts. */
let SITE: string;
const INTERVAL_SECONDS = 5;

let servers: DomainServers;
let site: Site;
let browser: Browser;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  servers = await startDomainServers();
  site = await startOwnSite('domains-ui-data', () => domainCheckEnv(servers, { intervalSeconds: INTERVAL_SECONDS, trustCa: true }));
  SITE = site.url;
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP *.${servers.suffix} 127.0.0.1:${servers.https.port}`],
  });
});

test.afterAll(async () => {
  await browser?.close();
  await site?.stop();
  await servers?.stop();
});

async function signedInPage(email: string, password: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: SITE, ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: SITE });
  const page = await context.newPage();
  await page.goto('/api/login?method=password');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${SITE}/`);
  return page;
}

/** A stat card reads its label, its figure, then a note without digits. */
const expectFigure = (page: Page, label: string, value: number, timeout?: number) =>
  expect(page.getByRole('region', { name: label, exact: true })).toHaveText(new RegExp(`^${label}${value}\\D*$`), { timeout });
/** A toast's text (by text, not role: an open dialog hides the rest of the page from the accessibility tree). */
const toast = (page: Page, text: string | RegExp) => page.getByText(text, { exact: true }).first();
const openTab = (page: Page, name: string) => page.getByRole('tab', { name }).click();

test('add a domain, publish its TXT record, see it verified and checked, lose the site and get it back, all live', async () => {
  test.setTimeout(240_000);
  const host = `shop.${servers.suffix}`;
  await servers.addHost(host);
  servers.addRecord(host, 'NS', 'ns1.example-dns.net');
  servers.addRecord(host, 'MX', `10 mail.${host}`);

  const page = await signedInPage(ADMIN.email, ADMIN.password);
  await page.goto('/domains');
  await expect(page.getByRole('heading', { level: 1, name: 'Domain Management' })).toBeVisible();
  await expect(page.getByText('No domains registered')).toBeVisible();
  await expectFigure(page, 'Total Domains', 0);
  // everything below happens without a reload: this mark would be gone after one
  await page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));
  const axe = [await seriousViolations(page, 'Overview, no domains')];

  // Add Domain: the spec's words with the server's reason for a malformed name, then success
  await page.getByRole('button', { name: 'Add Domain' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Domain' });
  await expect(dialog.getByRole('button', { name: 'Add Domain' })).toBeDisabled();
  axe.push(await seriousViolations(page, 'Add Domain dialog'));
  await dialog.getByLabel('Domain Name').fill(`https://${host}`);
  await dialog.getByRole('button', { name: 'Add Domain' }).click();
  await expect(
    toast(page, 'Failed to add domain. Please try again. domain: must be a bare domain name, without a scheme such as https://.'),
  ).toBeVisible();
  await dialog.getByLabel('Domain Name').fill(host);
  await dialog.getByRole('button', { name: 'Add Domain' }).click();
  await expect(toast(page, 'Your domain has been added successfully.')).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: host });
  await expect(row.getByTestId('status-badge').first()).toHaveText('Pending');
  await expectFigure(page, 'Total Domains', 1);
  // the same name again, however written, is refused with the server's reason
  await page.getByRole('button', { name: 'Add Domain' }).click();
  await dialog.getByLabel('Domain Name').fill(host.toUpperCase());
  await dialog.getByRole('button', { name: 'Add Domain' }).click();
  await expect(toast(page, `Failed to add domain. Please try again. Domain ${host} is already registered.`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Manage: the instructions, followed by publishing the record they name
  await row.getByRole('button', { name: `Manage ${host}` }).click();
  const panel = page.getByRole('dialog', { name: host });
  const recordName = await panel.getByLabel('TXT record name').inputValue();
  const recordValue = await panel.getByLabel('TXT record value').inputValue();
  expect(recordName).toBe(`_cbhub-verify.${host}`);
  expect(recordValue).toMatch(/^cbhub-verify=[A-Za-z0-9_-]{32}$/);
  await panel.getByRole('button', { name: 'Copy TXT record value' }).click();
  await expect(panel.getByRole('button', { name: 'Copied TXT record value' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(recordValue);
  axe.push(await seriousViolations(page, 'Manage panel, pending'));
  servers.addRecord(recordName, 'TXT', recordValue);
  await panel.getByRole('button', { name: 'Verify' }).click();
  await expect(toast(page, 'Verification Started')).toBeVisible();

  // verified, then the round reads the certificate, DNS records, subdomains and uptime: each shows up by itself
  const verification = panel.getByRole('region', { name: 'Ownership verification', exact: true });
  await expect(verification.getByTestId('status-badge')).toHaveText('Verified', { timeout: 30_000 });
  await expect(panel.getByTestId('verification-result')).toContainText('Verified');
  const certificate = panel.getByRole('region', { name: 'SSL certificate', exact: true });
  await expect(certificate).toContainText(servers.caOrganisation, { timeout: 20_000 });
  // one date format: relative, the exact moment on hover
  await expect(certificate).toContainText(/Valid, expires in \d+ months?/);
  await certificate.locator('time').last().hover();
  await expect(certificate.locator('time').last()).toHaveAttribute('title', /^\w{3} \d{1,2}, \d{4}, \d{2}:\d{2}:\d{2} /);
  await expect(panel.getByRole('region', { name: `DNS records of ${host}`, exact: true })).toContainText('127.0.0.1');
  await expect(panel.getByRole('region', { name: 'Subdomains', exact: true })).toContainText(`mail.${host}`);
  await expect(panel.getByRole('region', { name: 'Recent checks', exact: true }).locator('canvas').first()).toBeVisible({
    timeout: 20_000,
  });
  axe.push(await seriousViolations(page, 'Manage panel, verified'));
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // Overview: the primary domain, its portfolio row with a link to the site, and the figures
  await expect(row.getByTestId('status-badge').first()).toHaveText('Active');
  await expect(row.getByRole('link', { name: `Open ${host} in a new tab` })).toHaveAttribute('href', `https://${host}`);
  await expect(row.getByRole('link')).toHaveAttribute('rel', 'noopener noreferrer');
  await expectFigure(page, 'Active Domains', 1);
  await expectFigure(page, 'SSL Certificates', 1);
  const primary = page.getByRole('region', { name: 'Primary Domain Status', exact: true });
  await expect(primary).toContainText(host);
  await expect(primary).toContainText('example-dns.net');
  await expect(primary).toContainText(/\d+ ms/);
  await primary.getByRole('button', { name: 'Test Connection' }).click();
  await expect(toast(page, new RegExp(`^${host.replace(/\./g, '\\.')} is accessible \\(\\d+ms\\)$`))).toBeVisible();
  axe.push(await seriousViolations(page, 'Overview, one domain'));

  // the tabs
  await openTab(page, 'SSL Certificates');
  const certificates = page.getByRole('region', { name: 'SSL certificates', exact: true });
  await expect(certificates.getByRole('row').filter({ hasText: host })).toContainText('Active');
  const autoRenew = certificates.getByRole('switch', { name: `Auto renew for ${host}` });
  await expect(autoRenew).toHaveAttribute('aria-checked', 'false');
  await autoRenew.click();
  await expect(toast(page, `Auto renew is enabled for ${host}.`)).toBeVisible();
  await expect(autoRenew).toHaveAttribute('aria-checked', 'true');
  axe.push(await seriousViolations(page, 'SSL Certificates'));
  await openTab(page, 'DNS Records');
  const records = page.getByRole('region', { name: 'DNS records', exact: true });
  // the ownership record lives at its own name, not the domain's: not among these
  for (const value of ['127.0.0.1', 'ns1.example-dns.net', `10 mail.${host}`]) {
    await expect(records.getByRole('row').filter({ hasText: value })).toContainText('Active');
  }
  await expect(records.getByRole('row').filter({ hasText: recordValue })).toHaveCount(0);
  axe.push(await seriousViolations(page, 'DNS Records'));
  await openTab(page, 'Monitoring');
  const monitoring = page.getByRole('region', { name: 'Monitoring', exact: true }).getByRole('row').filter({ hasText: host });
  await expect(monitoring).toContainText('Up');
  await expect(monitoring).toContainText(/\d+ ms/);
  await expect(monitoring).toContainText('100%');
  axe.push(await seriousViolations(page, 'Monitoring'));
  await openTab(page, 'Alerts');
  axe.push(await seriousViolations(page, 'Alerts'));

  // the site goes away: the critical alert arrives by itself after three failed checks in a row
  await servers.https.down();
  await servers.http.down();
  await expect(toast(page, 'Critical alert: Site down')).toBeVisible({ timeout: 40_000 });
  const alertRow = page.getByRole('region', { name: 'Alerts', exact: true }).getByRole('row').filter({ hasText: 'Site down' });
  await expect(alertRow).toContainText('Critical');
  await expect(alertRow).toContainText('Open');
  await expectFigure(page, 'Active Alerts', 1);
  axe.push(await seriousViolations(page, 'Alerts, one open'));
  await openTab(page, 'Overview');
  await expect(row.getByTestId('status-badge').first()).toHaveText('Down');
  await expect(primary).toContainText('Last check failed');
  await primary.getByRole('button', { name: 'Test Connection' }).click();
  await expect(toast(page, `${host} is not accessible`)).toBeVisible();

  // and comes back: the next successful check resolves the alert
  await servers.https.up();
  await servers.http.up();
  await openTab(page, 'Alerts');
  await expect(alertRow).toContainText('Resolved', { timeout: 30_000 });
  await expect(alertRow.getByRole('button', { name: /Resolve/ })).toHaveCount(0);
  await expectFigure(page, 'Active Alerts', 0);
  await openTab(page, 'Overview');
  await expect(row.getByTestId('status-badge').first()).toHaveText('Active');
  expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);

  // Delete, after a confirmation
  await row.getByRole('button', { name: `Manage ${host}` }).click();
  await panel.getByRole('button', { name: 'Delete Domain' }).click();
  const confirm = page.getByRole('alertdialog', { name: `Delete ${host}?` });
  axe.push(await seriousViolations(page, 'Delete confirmation'));
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, 'Domain Deleted')).toBeVisible();
  await expect(page.getByText('No domains registered')).toBeVisible();
  await expectFigure(page, 'Total Domains', 0);

  expect(axe.filter((result) => result.violations.length > 0)).toEqual([]);
  await page.context().close();
});

test('a visit through the learning page, the load test and a domain chart downloads uPlot once and no zod', async () => {
  const host = `blog.${servers.suffix}`;
  await servers.addHost(host);
  const page = await signedInPage(ADMIN.email, ADMIN.password);
  const created = await (await page.request.post('/api/domains', { data: { domain: host } })).json();
  const [verification] = await (await page.request.get(`/api/domain-verifications?domainId=${created.id}`)).json();
  servers.addRecord(verification.recordName, 'TXT', verification.recordValue);
  await page.request.post(`/api/domains/${created.id}/verify`);

  const bodies: Promise<string>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') bodies.push(response.text().catch(() => ''));
  });
  // the home page's monitoring chart, the load test's charts, then a domain's: one document throughout
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('banner').getByRole('link', { name: 'Dashboard' }).click();
  // the quick action, or the health overview's too while no breaker has moved yet: both lead to the load test
  await page.getByRole('link', { name: 'Run Load Test' }).first().click();
  await expect(page.locator('canvas').first()).toBeVisible();
  await page.getByRole('banner').getByRole('link', { name: 'Domains' }).click();
  await expect(page.getByRole('row').filter({ hasText: host }).getByTestId('status-badge').first()).toHaveText('Active', {
    timeout: 30_000,
  });
  await page.getByRole('button', { name: `Manage ${host}` }).click();
  await expect(
    page.getByRole('dialog', { name: host }).getByRole('region', { name: 'Recent checks' }).locator('canvas').first(),
  ).toBeVisible({
    timeout: 20_000,
  });

  const scripts = await Promise.all(bodies);
  // uPlot's own code (its posToVal method) in one downloaded file; zod's error classes in none (the schemas are the API's)
  expect(scripts.filter((body) => body.includes('posToVal')).length).toBe(1);
  expect(scripts.filter((body) => body.includes('ZodCompileAsyncError'))).toEqual([]);
  expect(await loadedProviders(page, '@cbh/ui/charts')).toHaveLength(1);
  await page.request.delete(`/api/domains/${created.id}`);
  await page.context().close();
});

test('an account without domain_management sees an access message and the page asks for no domain data', async () => {
  const page = await signedInPage('operator@example.com', DEMO_PASSWORD);
  const domainCalls: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (/^\/api\/(domains|domain-|ssl-|dns-|subdomains)/.test(pathname)) domainCalls.push(pathname);
  });
  await page.goto('/domains');
  await expect(page.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
  await expect(page.getByText("You don't have permission to access Domain Management.")).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Domain' })).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  expect(domainCalls).toEqual([]);
  // and the API refuses it anyway
  expect((await page.request.get('/api/domains')).status()).toBe(403);
  await page.context().close();
});
