import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ROOT, SCRATCH, startSiteFromCopy } from './support/server';

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
  const site = await startSiteFromCopy(3311);
  try {
    const domains = path.join(site.staticRoot, 'mfe-domains');
    const parked = `${domains}.parked`;
    cpSync(domains, parked, { recursive: true });
    rmSync(domains, { recursive: true });

    await page.goto(`${site.url}/domains`);
    const fallback = page.getByTestId('remote-fallback');
    await expect(fallback).toContainText('The domains screens could not be loaded');
    await expect(page.getByRole('complementary', { name: 'Service Logic' })).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Circuit Breaker Hub' })).toBeVisible();

    await page.getByRole('banner').getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
    await page.getByRole('banner').getByRole('link', { name: 'Home' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Master Circuit Breaker Patterns');

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

test('one remote rebuilt and redeployed shows its new text on reload while the shell stays byte-identical', async ({ page }) => {
  test.setTimeout(180_000);
  const site = await startSiteFromCopy(3312);
  try {
    await page.goto(`${site.url}/dashboard`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
    const shellBefore = fingerprint(path.join(site.staticRoot, 'shell'));

    // A copy of the dashboard remote with a changed title, built on its own into the deployed folder.
    const source = mkdtempSync(path.join(SCRATCH, 'mfe-dashboard-'));
    cpSync(path.join(ROOT, 'mfe-dashboard'), source, { recursive: true });
    const pageFile = path.join(source, 'src/features/dashboard/DashboardPage.tsx');
    writeFileSync(pageFile, readFileSync(pageFile, 'utf8').replace('title="Dashboard"', 'title="Dashboard v2"'));
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
        `outputPath=${path.join(site.staticRoot, 'mfe-dashboard')}`,
      ],
      { cwd: ROOT, stdio: 'pipe' },
    );

    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard v2');
    expect(fingerprint(path.join(site.staticRoot, 'shell'))).toEqual(shellBefore);
  } finally {
    await site.stop();
  }
});
