import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from './support/test';
import { parse, parseDocument } from 'yaml';
import { breakerTile as tile } from './support/breakers';
import { ADMIN, ROOT, SCRATCH, startOwnSite, type Site } from './support/server';

/**
 * Configuration as code as an operator lives it: the hub's configuration exported with `cbh` into a file, edited,
 * diffed and applied from the command line (the built `npx cbh`), while the breaker wall and a breaker's page are
 * open in Chromium. On a site and database of its own, since the journey changes the demo breakers.
 */
const CBH = path.join(ROOT, 'libs/cli/bin/cbh.cjs');
const WORK = path.join(SCRATCH, 'config-as-code');

let site: Site;
let adminCookie: string;
let token: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  site = await startOwnSite('config-as-code-data');
  const login = await fetch(`${site.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  adminCookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const created = await fetch(`${site.url}/api/tokens`, {
    method: 'POST',
    headers: { cookie: adminCookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ci-config', expiresInDays: 1 }),
  });
  expect(created.status).toBe(201);
  token = ((await created.json()) as { token: string }).token;
  mkdirSync(WORK, { recursive: true });
});

test.afterAll(async () => {
  await site?.stop();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npx cbh ARGS` in the scratch directory, authenticated as a CI job is: CBH_URL and CBH_TOKEN. */
function cbh(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CBH, ...args],
      { cwd: WORK, env: { PATH: process.env.PATH, CBH_URL: site.url, CBH_TOKEN: token } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

const changeLines = (run: Run) => run.stdout.split('\n').filter((line) => /^[+~-] /.test(line));

async function signedInPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${site.url}/api/login?method=password`);
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${site.url}/`);
  return page;
}

/** A breaker page's "Failure threshold" figure (the wall's tiles show figures, not settings). */
const failureThreshold = (page: Page) =>
  page.getByRole('region', { name: 'Settings' }).locator('xpath=.//dt[normalize-space()="Failure threshold"]/following-sibling::dd[1]');

async function breakerId(name: string): Promise<number> {
  const breakers = (await (await fetch(`${site.url}/api/circuit-breakers`, { headers: { cookie: adminCookie } })).json()) as {
    id: number;
    name: string;
  }[];
  return breakers.find((breaker) => breaker.name === name)!.id;
}

test('export, edit a threshold and add a breaker, diff shows exactly those two, apply shows them live, diff shows nothing', async ({
  browser,
}) => {
  const wall = await signedInPage(browser);
  await wall.goto(`${site.url}/circuit-breakers`);
  await expect(tile(wall, 'Payment Gateway')).toBeVisible();
  await expect(tile(wall, 'checkout-api')).toHaveCount(0);
  // the same person's second tab on the breaker whose threshold the file changes
  const detail = await wall.context().newPage();
  await detail.goto(`${site.url}/circuit-breakers/${await breakerId('Payment Gateway')}`);
  await expect(failureThreshold(detail)).toHaveText('5');

  const exported = await cbh('export', '--format', 'yaml');
  expect(exported.code).toBe(0);
  writeFileSync(path.join(WORK, 'hub.yaml'), exported.stdout);

  // edited as a person edits the file: one value changed, one item added, the rest of the text as it was
  const text = readFileSync(path.join(WORK, 'hub.yaml'), 'utf8');
  const index = (parse(text) as { breakers: { name: string }[] }).breakers.findIndex((breaker) => breaker.name === 'Payment Gateway');
  const document = parseDocument(text);
  document.setIn(['breakers', index, 'failureThreshold'], 8);
  document.addIn(['breakers'], {
    name: 'checkout-api',
    type: 'simple',
    failureThreshold: 3,
    timeout: 20_000,
    recoveryTime: 60_000,
    successThreshold: 2,
  });
  writeFileSync(path.join(WORK, 'hub.yaml'), document.toString());

  const diff = await cbh('diff', 'hub.yaml');
  expect(diff.code, diff.stderr).toBe(2);
  expect(changeLines(diff).sort()).toEqual(['+ breaker checkout-api', '~ breaker Payment Gateway: failureThreshold']);
  // a dry run: the screens still show the hub as it was
  await expect(failureThreshold(detail)).toHaveText('5');
  await expect(tile(wall, 'checkout-api')).toHaveCount(0);

  const applied = await cbh('apply', 'hub.yaml');
  expect(applied.code, applied.stderr).toBe(0);
  expect(applied.stdout).toMatch(/^Applied 2 changes: 1 created, 1 updated/m);

  // both pages follow without a reload
  await expect(tile(wall, 'checkout-api')).toBeVisible();
  await expect(failureThreshold(detail)).toHaveText('8');

  const again = await cbh('diff', 'hub.yaml');
  expect(again.code, again.stderr).toBe(0);
  expect(changeLines(again)).toEqual([]);
  expect(again.stdout).toMatch(/^No changes: the hub already matches the document/m);
});

test('an import with one bad item changes nothing, and says which item and where', async ({ browser }) => {
  const before = await cbh('export');
  expect(before.code).toBe(0);
  const document = JSON.parse(before.stdout) as { breakers: Record<string, unknown>[] };
  const index = document.breakers.findIndex((breaker) => breaker.name === 'Search API');
  document.breakers[index]!.failureThreshold = 99;
  document.breakers.find((breaker) => breaker.name === 'Payment Gateway')!.failureThreshold = 12;
  document.breakers.push({
    name: 'never-added',
    type: 'simple',
    failureThreshold: 3,
    timeout: 20_000,
    recoveryTime: 60_000,
    successThreshold: 2,
  });
  writeFileSync(path.join(WORK, 'bad.json'), JSON.stringify(document, null, 2));

  const wall = await signedInPage(browser);
  await wall.goto(`${site.url}/circuit-breakers`);
  await expect(tile(wall, 'Payment Gateway')).toBeVisible();

  const refused = await cbh('apply', 'bad.json');
  expect(refused.code).toBe(1);
  expect(refused.stdout).toBe('');
  expect(refused.stderr).toMatch(new RegExp(`^bad\\.json:\\d+:\\d+: breakers\\[${index}\\]\\.failureThreshold: must be at most 20$`, 'm'));

  // all or nothing: the good changes beside the bad item were not applied either
  expect((await cbh('export')).stdout).toBe(before.stdout);
  await wall.reload();
  await expect(tile(wall, 'Payment Gateway')).toBeVisible();
  await expect(tile(wall, 'never-added')).toHaveCount(0);
});
