import { expect, test, type Browser, type Page } from './support/test';
import { linkIn, startSmtpSink } from '../api/test/smtp-sink';
import { seriousViolations } from './support/axe';
import { loadedProviders } from './support/federation';
import { ADMIN, DEMO_PASSWORD, ELEVATION_EMAIL, startOwnSite, type Site } from './support/server';

/**
 * The users remote against the production build, a real API on a database of its own (these journeys change
 * accounts other tests rely on) and a real SMTP server on loopback for the invitation and elevation e-mails.
 */
/** The site's address, on a free port taken when it starts. */
let SITE: string;
const MASTER_KEY = 'master-key-for-the-e2e-elevation';

let site: Site;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  smtp = await startSmtpSink();
  site = await startOwnSite('users-data', (url) => ({ PUBLIC_URL: url, SMTP_URL: smtp.url, MASTER_KEY, ELEVATION_OTP_DISPLAY: 'true' }));
  SITE = site.url;
});

test.afterAll(async () => {
  await site?.stop();
  await smtp?.stop();
});

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${SITE}/api/login?method=password`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${SITE}/`);
}

async function newSignedInPage(browser: Browser, email: string, password: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email, password);
  return page;
}

const row = (page: Page, email: string) => page.getByRole('row').filter({ hasText: email });
/** Chooses one of a row's actions from its menu. */
async function rowAction(page: Page, email: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${email}` }).click();
  await page
    .getByRole('group', { name: `Actions for ${email}` })
    .getByRole('button', { name: action })
    .click();
}

async function waitForMailTo(address: string) {
  await expect.poll(() => smtp.mails.filter((mail) => mail.to.includes(address)).length, { timeout: 15_000 }).toBeGreaterThan(0);
  return smtp.mails.filter((mail) => mail.to.includes(address)).at(-1)!;
}

test('invite from the dialog, follow the e-mailed link, set a password and sign in as the invitee', async ({ page, browser }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`${SITE}/users`);
  await expect(page.getByRole('heading', { level: 1, name: 'User Management' })).toBeVisible();

  await page.getByRole('button', { name: 'Invite User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite User' });
  await expect(dialog.getByRole('button', { name: 'Send Invitation' })).toBeDisabled();
  await dialog.getByLabel('Email Address').fill('nina@example.com');
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(page.getByText('Invitation sent successfully.', { exact: true }).first()).toBeVisible();
  await expect(row(page, 'nina@example.com').getByText('Pending')).toBeVisible();

  const mail = await waitForMailTo('nina@example.com');
  const link = linkIn(mail, /http:\/\/127\.0\.0\.1:\d+\/api\/invitations\/[\w-]+/);
  const invitee = await (await browser.newContext()).newPage();
  await invitee.goto(link);
  await invitee.getByLabel('First name').fill('Nina');
  await invitee.getByLabel(/^Password/).fill('nina-password-123');
  await invitee.getByRole('button', { name: 'Set password' }).click();
  await expect(invitee).toHaveURL(`${SITE}/`);
  await expect(invitee.getByTestId('account-name')).toHaveText('Nina');
  await expect(invitee.getByTestId('role-badge')).toHaveText('Viewer');

  // the administrator's list shows the invitee active without a reload
  await expect(row(page, 'nina@example.com').getByText('Active', { exact: true })).toBeVisible();
});

test('a role change sends its permissions, and the account changed sees its chrome follow without a reload', async ({ page, browser }) => {
  const nina = await newSignedInPage(browser, 'nina@example.com', 'nina-password-123');
  await expect(nina.getByTestId('role-badge')).toHaveText('Viewer');
  await expect(nina.getByTestId('live-status')).toHaveText('Live');

  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`${SITE}/users`);
  await rowAction(page, 'nina@example.com', 'Change role');
  const roleDialog = page.getByRole('dialog', { name: 'Edit User Role' });
  await roleDialog.getByRole('combobox').selectOption('operator');
  await roleDialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('User information updated successfully.', { exact: true }).first()).toBeVisible();
  await expect(row(page, 'nina@example.com').getByText('Operator')).toBeVisible();

  await rowAction(page, 'nina@example.com', 'Permissions');
  const permissions = page.getByRole('dialog', { name: 'Edit User Permissions' });
  for (const granted of ['dashboard_view', 'circuit_breaker_view', 'circuit_breaker_operate', 'metrics_view']) {
    await expect(permissions.getByRole('switch', { name: new RegExp(`\\(${granted}\\)`) })).toBeChecked();
  }
  await expect(permissions.getByRole('switch', { name: /\(circuit_breaker_admin\)/ })).not.toBeChecked();
  await permissions.getByRole('button', { name: 'Cancel' }).click();

  // pushed over /ws: no reload, and well before anything would poll
  await expect(nina.getByTestId('role-badge')).toHaveText('Operator', { timeout: 3000 });
});

test('permissions customised per user are saved and shown again', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`${SITE}/users`);
  await rowAction(page, 'nina@example.com', 'Permissions');
  const dialog = page.getByRole('dialog', { name: 'Edit User Permissions' });
  await dialog.getByRole('switch', { name: /\(export_data\)/ }).click();
  await dialog.getByRole('switch', { name: /\(metrics_view\)/ }).click();
  await expect(dialog.getByText('Selected permissions (4)')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save Permissions' }).click();
  await expect(page.getByText('User permissions updated successfully.', { exact: true }).first()).toBeVisible();

  await page.reload();
  await rowAction(page, 'nina@example.com', 'Permissions');
  const reopened = page.getByRole('dialog', { name: 'Edit User Permissions' });
  await expect(reopened.getByRole('switch', { name: /\(export_data\)/ })).toBeChecked();
  await expect(reopened.getByRole('switch', { name: /\(metrics_view\)/ })).not.toBeChecked();
});

test('a deactivated user’s open page signs out by itself, its socket closes and its session ends', async ({ page, browser }) => {
  const nina = await newSignedInPage(browser, 'nina@example.com', 'nina-password-123');
  await expect(nina.getByTestId('live-status')).toHaveText('Live');
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`${SITE}/users`);
  await expect(row(page, ADMIN.email).getByRole('switch')).toBeDisabled();
  await row(page, 'nina@example.com').getByRole('switch').click();
  await expect(page.getByText('User status changed successfully.', { exact: true }).first()).toBeVisible();
  await expect(row(page, 'nina@example.com').getByText('Inactive')).toBeVisible();

  // told over /ws: the open page signs out by itself, and its socket is closed
  await expect(nina.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible({ timeout: 5000 });
  expect((await nina.request.get(`${SITE}/api/auth/user`)).status()).toBe(401);
  await nina.reload();
  await expect(nina.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible();
});

test('delete asks first, then removes the account', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`${SITE}/users`);
  await rowAction(page, 'nina@example.com', 'Delete');
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('nina@example.com');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(row(page, 'nina@example.com')).toHaveCount(1);

  await rowAction(page, 'nina@example.com', 'Delete');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('User removed from system.', { exact: true }).first()).toBeVisible();
  await expect(row(page, 'nina@example.com')).toHaveCount(0);
});

test('a viewer gets Access Restricted and no users call', async ({ page }) => {
  await signIn(page, 'viewer@example.com', DEMO_PASSWORD);
  const usersCalls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/users') usersCalls.push(request.url());
  });
  await page.goto(`${SITE}/users`);
  await expect(page.getByText('Access Restricted')).toBeVisible();
  await expect(page.getByText("You don't have permission to access User Management.").first()).toBeVisible();
  expect(usersCalls).toEqual([]);
});

/** Puts the elevation account back to admin (as the bootstrap super admin), so the next method can be tried. */
async function demoteElevationAccount(page: Page) {
  const users = (await (await page.request.get(`${SITE}/api/users`)).json()) as { id: string; email: string }[];
  const account = users.find((user) => user.email === ELEVATION_EMAIL)!;
  const response = await page.request.patch(`${SITE}/api/users/${account.id}`, { data: { role: 'admin' } });
  expect(response.status()).toBe(200);
}

async function expectElevated(page: Page) {
  await expect(page.getByText('You now have super admin access. Redirecting...', { exact: true }).first()).toBeVisible();
  await expect(page).toHaveURL(`${SITE}/`, { timeout: 5000 });
  await expect(page.getByTestId('role-badge')).toHaveText('Super Administrator');
  // the super admin's page, under More
  await page.getByRole('banner').getByRole('button', { name: 'More' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Core Logic' })).toBeVisible();
}

test('elevate with the master key, with the displayed OTP and with the e-mailed link', async ({ page, browser }) => {
  const root = await newSignedInPage(browser, ADMIN.email, ADMIN.password);

  await signIn(page, ELEVATION_EMAIL, DEMO_PASSWORD);
  await page.goto(`${SITE}/elevate`);
  await expect(page.getByText(ELEVATION_EMAIL).first()).toBeVisible();
  expect(await seriousViolations(page, 'elevate: methods')).toEqual({ where: 'elevate: methods', violations: [] });
  await page.getByRole('button', { name: /Master Security Key/ }).click();
  await expect(page.getByRole('button', { name: 'Verify Access' })).toBeDisabled();
  expect(await seriousViolations(page, 'elevate: master key')).toEqual({ where: 'elevate: master key', violations: [] });
  await page.getByLabel('Master key', { exact: true }).fill(MASTER_KEY);
  await page.getByRole('button', { name: 'Verify Access' }).click();
  await expectElevated(page);

  await demoteElevationAccount(root);
  await page.goto(`${SITE}/elevate`);
  await page.getByRole('button', { name: /Time-based OTP/ }).click();
  const code = page.getByLabel('Current code');
  await expect(code).toHaveText(/^\d{6}$/);
  expect(await seriousViolations(page, 'elevate: otp')).toEqual({ where: 'elevate: otp', violations: [] });
  await page.getByLabel('One-time code', { exact: true }).fill((await code.textContent())!);
  await page.getByRole('button', { name: 'Verify OTP' }).click();
  await expectElevated(page);

  await demoteElevationAccount(root);
  await page.goto(`${SITE}/elevate`);
  const before = smtp.mails.length;
  await page.getByRole('button', { name: /Email Verification/ }).click();
  await expect(page.getByRole('button', { name: "I've verified via email" })).toBeVisible();
  expect(await seriousViolations(page, 'elevate: email')).toEqual({ where: 'elevate: email', violations: [] });
  await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBeGreaterThan(before);
  await page.goto(linkIn(smtp.mails.at(-1)!, /http:\/\/127\.0\.0\.1:\d+\/api\/auth\/elevate\/verify\/[\w-]+/));
  await expect(page).toHaveURL(`${SITE}/`);
  await expect(page.getByTestId('role-badge')).toHaveText('Super Administrator');
  // the super admin's page, under More
  await page.getByRole('banner').getByRole('button', { name: 'More' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Core Logic' })).toBeVisible();
});

test('no serious accessibility violation on /users, on each tab and each dialog', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`${SITE}/users`);
  await expect(page.getByRole('heading', { level: 1, name: 'User Management' })).toBeVisible();
  const results = [await seriousViolations(page, 'All Users')];
  for (const tab of ['Role Management', 'Permissions', 'Audit Log']) {
    await page.getByRole('tab', { name: tab }).click();
    results.push(await seriousViolations(page, tab));
  }
  await expect(page.getByRole('tab', { name: 'Audit Log' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('row').filter({ hasText: 'auth.elevate' }).first()).toBeVisible();

  await page.getByRole('tab', { name: 'All Users' }).click();
  const dialogs: [string, string][] = [
    ['Invite User', 'Invite User'],
    ['Role', 'Edit User Role'],
    ['Permissions', 'Edit User Permissions'],
  ];
  for (const [button, dialogName] of dialogs) {
    if (button === 'Invite User') await page.getByRole('button', { name: button }).click();
    else await rowAction(page, 'viewer@example.com', button === 'Role' ? 'Change role' : button);
    await expect(page.getByRole('dialog', { name: dialogName })).toBeVisible();
    results.push(await seriousViolations(page, dialogName));
    await page.keyboard.press('Escape');
  }
  await rowAction(page, 'viewer@example.com', 'Delete');
  await expect(page.getByRole('alertdialog')).toBeVisible();
  results.push(await seriousViolations(page, 'Delete confirmation'));
  await page.keyboard.press('Escape');
  expect(results.filter((result) => result.violations.length > 0)).toEqual([]);
});

test('on a phone-sized screen the users table shows a card per account, as wide as the page', async ({ page }) => {
  await page.setViewportSize({ width: 420, height: 900 });
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`${SITE}/users`);
  await expect(row(page, 'viewer@example.com')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(420);
  await expect(page.getByRole('button', { name: 'Actions for viewer@example.com' })).toBeVisible();
});

test('the overlays (dialogs, tabs, switches) load only when a screen needs them, once', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  // home is drawn by a remote: the federation runtime is up and has loaded what the first screen needs
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Circuit Breaker Patterns');
  await page.waitForFunction(() => '__FEDERATION__' in window);
  expect(await loadedProviders(page, 'react')).toHaveLength(1);
  expect(await loadedProviders(page, '@cbh/ui/overlays')).toEqual([]);
  const openUsers = async () => {
    await page.getByRole('banner').getByRole('button', { name: 'More' }).click();
    await page.getByRole('banner').getByRole('link', { name: 'User Management' }).click();
  };
  await openUsers();
  await expect(page.getByRole('tab', { name: 'All Users' })).toBeVisible();
  await page.getByRole('banner').getByRole('link', { name: 'Home' }).click();
  await openUsers();
  await expect(page.getByRole('tab', { name: 'All Users' })).toBeVisible();
  expect(await loadedProviders(page, '@cbh/ui/overlays')).toHaveLength(1);
});
