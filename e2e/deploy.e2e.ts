import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/test';
import { loadedProviders, unloadedRegistrations } from './support/federation';
import { startGatewaySite } from './support/gateway-site';
import { ADMIN, ROOT, SCRATCH } from './support/server';
import { signIn } from './support/sign-in';

/*
 * Deploys as compose does them: each app's build is a folder that its own static server (Debian's nginx with
 * deploy/nginx/static.conf) serves, behind the production gateway, and a team ships a remote by replacing its folder.
 */

/** sha256 of every file under a folder, by relative path. */
function fingerprint(dir: string): Record<string, string> {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return Object.fromEntries(
    entries.map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return [path.relative(dir, file), createHash('sha256').update(readFileSync(file)).digest('hex')];
    }),
  );
}

test('a remote deleted from disk shows a fallback card with Retry, and every other route keeps working', async ({ page }) => {
  const site = await startGatewaySite();
  try {
    const domains = path.join(site.staticRoot, 'mfe-domains');
    const parked = `${domains}.parked`;
    cpSync(domains, parked, { recursive: true });
    rmSync(domains, { recursive: true });

    // the Domains screens are for holders of domain_management
    await signIn(page, ADMIN, site.url);
    await page.goto(`${site.url}/domains`);
    const fallback = page.getByTestId('remote-fallback');
    await expect(fallback).toContainText('The domains screens could not be loaded');
    await expect(page.getByRole('complementary', { name: 'Service Logic' })).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Circuit Breaker Hub' })).toBeVisible();

    await page.getByRole('banner').getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
    await page.getByRole('banner').getByRole('link', { name: 'Home' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Circuit Breaker Patterns');

    // Put the remote back: Retry loads it without a page reload.
    await page.getByRole('banner').getByRole('link', { name: 'Domains' }).click();
    await expect(fallback).toBeVisible();
    cpSync(parked, domains, { recursive: true });
    await fallback.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Domain Management');
  } finally {
    await site.stop();
  }
});

test('a remote entered again takes a shared package from its own build, not from another remote redeployed since', async ({ page }) => {
  const site = await startGatewaySite();
  try {
    const heading = page.getByRole('heading', { level: 1 });
    const topBar = page.getByRole('banner');
    await signIn(page, ADMIN, site.url);
    await page.goto(`${site.url}/dashboard`);
    await expect(heading).toHaveText('Dashboard');
    // the domains remote, entered for the first time, registers the charts package, which nobody has loaded yet…
    await topBar.getByRole('link', { name: 'Domains' }).click();
    await expect(heading).toHaveText('Domain Management');
    expect(await unloadedRegistrations(page, 'mfe_domains')).toContain('@cbh/ui/charts');
    // …and is redeployed while the page stays open: the files of the build that registered it are gone
    rmSync(path.join(site.staticRoot, 'mfe-domains'), { recursive: true });
    await topBar.getByRole('link', { name: 'Dashboard' }).click();
    await expect(heading).toHaveText('Dashboard');
    // a breaker's page, the first of the dashboard's to need the charts, draws them from the dashboard's own build
    await page.getByRole('main').getByRole('link', { name: 'View all circuit breakers' }).click();
    await expect(heading).toHaveText('Circuit Breakers');
    await page.getByRole('main').getByRole('link', { name: 'Payment Gateway' }).click();
    await expect(page.getByRole('region', { name: 'Metrics' }).locator('canvas').first()).toBeVisible();
    expect(await loadedProviders(page, '@cbh/ui/charts')).toEqual(['0.1.0 from mfe_dashboard']);
  } finally {
    await site.stop();
  }
});

/** Builds a copy of the dashboard remote whose page is titled `title`, on its own, into `outputPath`. */
function buildDashboard(title: string, outputPath: string) {
  const source = mkdtempSync(path.join(SCRATCH, 'mfe-dashboard-'));
  cpSync(path.join(ROOT, 'mfe-dashboard'), source, { recursive: true });
  const pageFile = path.join(source, 'src/features/dashboard/DashboardPage.tsx');
  writeFileSync(pageFile, readFileSync(pageFile, 'utf8').replaceAll('title="Dashboard"', `title="${title}"`));
  execFileSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/webpack-cli/bin/cli.js'),
      '--config',
      path.join(ROOT, 'mfe-dashboard/webpack.config.js'),
      '--mode',
      'production',
      '--env',
      `projectDir=${source}`,
      '--env',
      `outputPath=${outputPath}`,
    ],
    { cwd: ROOT, stdio: 'pipe' },
  );
}

/** Replaces a deployed folder with a copy of another. */
function deploy(from: string, to: string) {
  rmSync(to, { recursive: true });
  cpSync(from, to, { recursive: true });
}

test('a redeployed remote shows its new build on the next visit to its routes, without a reload', async ({ page }) => {
  test.setTimeout(180_000);
  const site = await startGatewaySite();
  try {
    const dashboard = path.join(site.staticRoot, 'mfe-dashboard');
    const firstBuild = `${dashboard}.first`;
    const newBuild = `${dashboard}.new`;
    cpSync(dashboard, firstBuild, { recursive: true });
    const heading = page.getByRole('heading', { level: 1 });
    const topBar = page.getByRole('banner');
    const sameDocument = () => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument);

    await signIn(page, ADMIN, site.url);
    await page.goto(`${site.url}/dashboard`);
    await expect(heading).toHaveText('Dashboard');
    // A document load would lose this.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const shellBefore = fingerprint(path.join(site.staticRoot, 'shell'));

    // A changed dashboard built into the folder the site serves, while the page keeps the old one open.
    buildDashboard('Dashboard v2', dashboard);
    cpSync(dashboard, newBuild, { recursive: true });
    await topBar.getByRole('link', { name: 'Home' }).click();
    await expect(heading).toHaveText('Circuit Breaker Patterns');
    await topBar.getByRole('link', { name: 'Dashboard' }).click();
    await expect(heading).toHaveText('Dashboard v2');
    expect(await sameDocument()).toBe(true);
    expect(fingerprint(path.join(site.staticRoot, 'shell'))).toEqual(shellBefore);
    // The new build runs on the shell's React, router and store, as the first one did.
    for (const pkg of ['react', 'react-dom', '@cbh/router', 'react-redux', '@cbh/api-client']) {
      expect(await loadedProviders(page, pkg), pkg).toEqual([expect.stringMatching(/from shell$/)]);
    }

    // A broken deploy: another build whose entry throws. The dashboard falls back; the rest of the site works.
    deploy(firstBuild, dashboard);
    // (a build writes its compressed copies with it: this one has none, so the file is sent as it is)
    writeFileSync(path.join(dashboard, 'remoteEntry.js'), "throw new Error('a broken deploy');\n");
    for (const copy of ['remoteEntry.js.br', 'remoteEntry.js.gz']) rmSync(path.join(dashboard, copy), { force: true });
    await topBar.getByRole('link', { name: 'Home' }).click();
    await expect(heading).toHaveText('Circuit Breaker Patterns');
    await topBar.getByRole('link', { name: 'Dashboard' }).click();
    const fallback = page.getByTestId('remote-fallback');
    await expect(fallback).toContainText('The dashboard screens could not be loaded');
    await topBar.getByRole('link', { name: 'Domains' }).click();
    await expect(heading).toHaveText('Domain Management');

    // The good build back in place: Retry loads it.
    await topBar.getByRole('link', { name: 'Dashboard' }).click();
    await expect(fallback).toBeVisible();
    deploy(newBuild, dashboard);
    await fallback.getByRole('button', { name: 'Retry' }).click();
    await expect(heading).toHaveText('Dashboard v2');
    expect(await sameDocument()).toBe(true);
    expect(fingerprint(path.join(site.staticRoot, 'shell'))).toEqual(shellBefore);
  } finally {
    await site.stop();
  }
});
