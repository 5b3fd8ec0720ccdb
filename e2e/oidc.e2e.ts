import type { Server } from 'node:http';
import { expect, test, type Page } from './support/test';
import { seriousViolations } from './support/axe';
import { ADMIN, DEMO_PASSWORD, sharedDatabaseUrl, startSite, type Site } from './support/server';
import { freePort } from '../tools/testing/free-port.mjs';

/** The provider's and the site's addresses, on free ports taken when they start. */
let ISSUER: string;
let SITE: string;
const CLIENT = { client_id: 'circuit-breaker-hub', client_secret: 'client-secret-for-the-e2e-provider' };

/** What the provider says about some of its accounts; any other login is `<login>@sso.example.com`, confirmed. */
const ACCOUNTS: Record<string, object> = {
  // claims the bootstrap super admin's e-mail, and the provider even says it is confirmed
  impostor: { email: ADMIN.email, given_name: 'Mallory' },
  'operator-at-sso': { email: 'operator@example.com', given_name: 'Olga' },
};

let provider: Server;
let site: Site;

test.beforeAll(async () => {
  const [providerPort, sitePort] = [await freePort(), await freePort()];
  ISSUER = `http://127.0.0.1:${providerPort}`;
  SITE = `http://127.0.0.1:${sitePort}`;
  // A real OpenID Connect provider on loopback, with its development login and consent screens.
  const { default: Provider } = await import('oidc-provider');
  const oidc = new Provider(ISSUER, {
    clients: [{ ...CLIENT, redirect_uris: [`${SITE}/api/login/callback`], grant_types: ['authorization_code'], response_types: ['code'] }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    cookies: { keys: ['cookie-key-for-the-e2e-provider'] },
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({
        sub,
        email: `${sub}@sso.example.com`,
        email_verified: true,
        given_name: 'Sam',
        family_name: 'Sso',
        ...ACCOUNTS[sub],
      }),
    }),
  });
  provider = oidc.listen(providerPort);
  site = await startSite({
    port: sitePort,
    env: {
      DATABASE_URL: sharedDatabaseUrl(),
      PUBLIC_URL: SITE,
      OIDC_ISSUER_URL: ISSUER,
      OIDC_CLIENT_ID: CLIENT.client_id,
      OIDC_CLIENT_SECRET: CLIENT.client_secret,
    },
  });
});

test.afterAll(async () => {
  await site?.stop();
  provider?.close();
});

/** Signs in on the provider's development login form as `login`, and consents. */
async function signInAtProvider(page: Page, login: string) {
  await expect(page).toHaveURL(new RegExp(`^${ISSUER}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any');
  await page.locator('button[type="submit"]').click();
  await page.locator('button[type="submit"]').click(); // consent
}

test('Login goes to the OpenID Connect provider and comes back signed in as a new viewer', async ({ page }) => {
  await page.goto(`${SITE}/`);
  await page.getByRole('banner').getByRole('link', { name: 'Login' }).click();
  await signInAtProvider(page, 'sam');

  await expect(page).toHaveURL(`${SITE}/`);
  await expect(page.getByTestId('account-name')).toHaveText('Sam');
  await expect(page.getByTestId('role-badge')).toHaveText('Viewer');
  const me = await (await page.request.get(`${SITE}/api/auth/user`)).json();
  expect(me).toMatchObject({ email: 'sam@sso.example.com', role: 'viewer', lastName: 'Sso' });
});

test('the password form stays reachable with ?method=password', async ({ page }) => {
  await page.goto(`${SITE}/api/login?method=password`);
  await expect(page.getByLabel('E-mail')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in with your organization’s account instead' })).toHaveAttribute('href', '/api/login');
});

test('a provider account claiming the super admin’s e-mail is not signed in: the sign-in page says administrators use their password only', async ({
  page,
}) => {
  await page.goto(`${SITE}/api/login`);
  await signInAtProvider(page, 'impostor');
  await expect(page).toHaveURL(new RegExp(`^${SITE}/api/login\\?method=password`));
  await expect(page.getByRole('alert')).toContainText('Administrator accounts sign in with their password only');
  expect((await page.request.get(`${SITE}/api/auth/user`)).status()).toBe(401);
});

test('a signed-in account links its organization account, which then signs in to it', async ({ page, browser }) => {
  await page.goto(`${SITE}/api/login?method=password`);
  await page.getByLabel('E-mail').fill('operator@example.com');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${SITE}/`);

  await page.goto(`${SITE}/api/login/link`);
  await expect(page.getByRole('heading', { name: 'Link your organization account' })).toBeVisible();
  expect(await seriousViolations(page, '/api/login/link')).toEqual({ where: '/api/login/link', violations: [] });
  await page.getByRole('link', { name: 'Continue to your organization’s sign-in' }).click();
  await signInAtProvider(page, 'operator-at-sso');
  await expect(page.getByRole('status')).toHaveText('Your organization account is linked: you can now sign in with it.');

  // another browser, signed in nowhere: Login signs in to the operator's account
  const other = await browser.newPage();
  await other.goto(`${SITE}/`);
  await other.getByRole('banner').getByRole('link', { name: 'Login' }).click();
  await signInAtProvider(other, 'operator-at-sso');
  await expect(other).toHaveURL(`${SITE}/`);
  await expect(other.getByTestId('role-badge')).toHaveText('Operator');
  expect(await (await other.request.get(`${SITE}/api/auth/user`)).json()).toMatchObject({
    email: 'operator@example.com',
    role: 'operator',
  });
  await other.close();
});
