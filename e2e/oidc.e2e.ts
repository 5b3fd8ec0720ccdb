import type { Server } from 'node:http';
import { expect, test } from '@playwright/test';
import { sharedDatabaseUrl, startSite, type Site } from './support/server';

const PROVIDER_PORT = 3331;
const SITE_PORT = 3332;
const ISSUER = `http://127.0.0.1:${PROVIDER_PORT}`;
const SITE = `http://127.0.0.1:${SITE_PORT}`;
const CLIENT = { client_id: 'circuit-breaker-hub', client_secret: 'client-secret-for-the-e2e-provider' };

let provider: Server;
let site: Site;

test.beforeAll(async () => {
  // A real OpenID Connect provider on loopback, with its development login and consent screens.
  const { default: Provider } = await import('oidc-provider');
  const oidc = new Provider(ISSUER, {
    clients: [{ ...CLIENT, redirect_uris: [`${SITE}/api/login/callback`], grant_types: ['authorization_code'], response_types: ['code'] }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    cookies: { keys: ['cookie-key-for-the-e2e-provider'] },
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({ sub, email: `${sub}@sso.example.com`, email_verified: true, given_name: 'Sam', family_name: 'Sso' }),
    }),
  });
  provider = oidc.listen(PROVIDER_PORT);
  site = await startSite({
    port: SITE_PORT,
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

test('Login goes to the OpenID Connect provider and comes back signed in as a new viewer', async ({ page }) => {
  await page.goto(`${SITE}/`);
  await page.getByRole('banner').getByRole('link', { name: 'Login' }).click();
  await expect(page).toHaveURL(new RegExp(`^${ISSUER}/interaction/`));

  await page.locator('input[name="login"]').fill('sam');
  await page.locator('input[name="password"]').fill('any');
  await page.locator('button[type="submit"]').click();
  await page.locator('button[type="submit"]').click(); // consent

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
