import { expect, test, type Page } from './support/test';
import { ADMIN, DEMO_PASSWORD, ELEVATION_EMAIL } from './support/server';

async function signInThroughForm(page: Page, email: string, password: string) {
  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/api\/login$/);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
}

const nav = (page: Page) => page.getByRole('banner').getByRole('navigation', { name: 'Main' });

test('a super admin signs in through /api/login, sees home with the badge and every link, and signs out', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Master Circuit Breaker Patterns');

  await signInThroughForm(page, ADMIN.email, ADMIN.password);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Circuit Breaker Patterns');
  await expect(page.getByTestId('account-name')).toHaveText('Admin');
  await expect(page.getByTestId('role-badge')).toHaveText('Super Administrator');
  await expect(page.getByTestId('live-status')).toHaveText('Live');
  await expect(nav(page).getByRole('link')).toHaveText(['Home', 'Dashboard', 'Circuit Breakers', 'Domains']);
  // the lesser pages and the settings wait under More, so the bar keeps one row
  await nav(page).getByRole('button', { name: 'More' }).click();
  await expect(nav(page).getByRole('link')).toHaveText([
    'Home',
    'Dashboard',
    'Circuit Breakers',
    'Domains',
    'On Call',
    'SLOs',
    'Drills',
    'Load Test',
    'Notifications',
    'Scrape Targets',
    'User Management',
    'Core Logic',
    'Organisation',
    'System',
    'Releases',
  ]);
  await nav(page).getByRole('button', { name: 'More' }).click();
  await expect(page.getByRole('link', { name: 'Elevate to Super Admin' })).toHaveCount(0);

  await page.getByRole('banner').getByRole('link', { name: 'Logout' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Master Circuit Breaker Patterns');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible();
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
});

test('a super admin reads the Core Logic catalogue and opens a pattern from it', async ({ page }) => {
  await signInThroughForm(page, ADMIN.email, ADMIN.password);
  await nav(page).getByRole('button', { name: 'More' }).click();
  await nav(page).getByRole('link', { name: 'Core Logic' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Core Logic Layer (Brain)');
  await expect(page.getByText('Super Admin Only')).toBeVisible();
  await expect(page.getByLabel('Architecture layers').getByRole('region')).toHaveCount(14);
  await expect(page.getByText('receive API requests and validate input')).toBeVisible();
  await page.getByRole('link', { name: /^CQRS/ }).click();
  await expect(page).toHaveURL(/\/patterns\/cqrs$/);
});

test('a viewer sees neither Domains, User Management nor Core Logic', async ({ page }) => {
  await signInThroughForm(page, 'viewer@example.com', DEMO_PASSWORD);
  await page.goto('/core-logic');
  await expect(page.getByText('This overview is for super admins only.')).toBeVisible();
  await page.goto('/');
  await expect(page.getByTestId('role-badge')).toHaveText('Viewer');
  await expect(page.getByTestId('account-name')).toHaveText('Vera');
  await expect(nav(page).getByRole('link')).toHaveText(['Home', 'Dashboard', 'Circuit Breakers']);
  await nav(page).getByRole('button', { name: 'More' }).click();
  await expect(nav(page).getByRole('link')).toHaveText(['Home', 'Dashboard', 'Circuit Breakers', 'On Call', 'SLOs', 'Load Test']);
});

test('the elevation account is offered Elevate to Super Admin', async ({ page }) => {
  await signInThroughForm(page, ELEVATION_EMAIL, DEMO_PASSWORD);
  await expect(page.getByTestId('role-badge')).toHaveText('Administrator');
  await page.getByRole('link', { name: 'Elevate to Super Admin' }).click();
  await expect(page).toHaveURL(/\/elevate$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privilege Elevation');
});

test('a wrong password returns to the form with the reason', async ({ page }) => {
  await page.goto('/api/login');
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid e-mail or password');
});
