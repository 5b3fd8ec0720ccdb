import { expect, test, type Page } from './support/test';
import { loadedProviders } from './support/federation';
import { signIn } from './support/sign-in';

interface ManifestShared {
  name: string;
  assets: { js: { sync: string[]; async: string[] } };
}

/** The files a remote ships as its own fallback copy of a shared package, from its mf-manifest.json. */
async function fallbackFiles(page: Page, remote: string, packages: string[]): Promise<string[]> {
  const manifest = await (await page.request.get(`/remotes/${remote}/mf-manifest.json`)).json();
  return (manifest.shared as ManifestShared[])
    .filter((shared) => packages.includes(shared.name))
    .flatMap((shared) => [...shared.assets.js.sync, ...shared.assets.js.async]);
}

test('shell and remotes run on exactly one React, one router and one store', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  // signed in: the top bar links to Domains only for holders of domain_management
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Circuit Breaker Patterns');
  const topBar = page.getByRole('banner');
  await topBar.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
  await topBar.getByRole('link', { name: 'Domains' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Domain Management');

  // The federation runtime's share scope: each singleton has exactly one loaded provider, the shell.
  for (const pkg of ['react', 'react-dom', '@cbh/router', 'react-redux', 'styled-components', '@cbh/api-client', '@cbh/ui']) {
    const loaded = await loadedProviders(page, pkg);
    expect(new Set(loaded), `${pkg} loaded providers`).toEqual(new Set([loaded[0]]));
    expect(loaded[0]).toMatch(/from shell$/);
  }

  // No remote fetched its own copy of React, React DOM, the router or the store bindings.
  for (const remote of ['mfe-learning', 'mfe-dashboard', 'mfe-domains']) {
    const ownCopies = (await fallbackFiles(page, remote, ['react', 'react-dom', '@cbh/router', 'react-redux', '@cbh/api-client'])).map(
      (file) => `/remotes/${remote}/${file}`,
    );
    expect(ownCopies.length).toBeGreaterThan(0);
    expect(requested.filter((path) => ownCopies.includes(path))).toEqual([]);
  }
  expect(errors).toEqual([]);
});
