import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from './support/test';
import type { RemoteVersionView } from '@cbh/contracts';
import { freePort } from '../tools/testing/free-port.mjs';
import { ACCOUNTS_ENV, DEMO_PASSWORD, DIST, ownDatabase, startSite, type Site } from './support/server';
import { apiSignIn, siteApi } from './support/site-api';
import { signIn } from './support/sign-in';

/**
 * A release file must never run script on the hub's origin. An account holding only system_admin uploads, beside the
 * dashboard's real build, an SVG whose script would make it super_admin and call a marker route — and the same markup
 * under the other names a build may carry — and makes the version live; a super admin's browser then opens each file
 * directly. No script may run: the marker is never requested and the uploader stays a viewer.
 */
const DATABASE = `release_xss_e2e_${process.pid}`;
const FOLDER = path.join(DIST, 'mfe-dashboard');
const MARKER = '/api/release-xss-marker';

let site: Site;
let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
let admin: string;
let attacker: string;
let attackerId: string;

/** The built dashboard as an upload, with `extra` files beside it. */
function upload(extra: Record<string, string>) {
  const files = readdirSync(FOLDER).map((name) => ({ path: name, content: readFileSync(path.join(FOLDER, name)).toString('base64') }));
  for (const [name, content] of Object.entries(extra)) files.push({ path: name, content: Buffer.from(content).toString('base64') });
  return { gitCommit: 'e2e0bad', files };
}

/** What the attacker's script does in a super admin's browser: the marker, then the uploader made super_admin. */
const evilScript = () =>
  `fetch(${JSON.stringify(MARKER)}, { method: 'POST' });
fetch('/api/users/${attackerId}', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ role: 'super_admin' }) });`;
const svgLoading = '<svg xmlns="http://www.w3.org/2000/svg"><script href="evil.js"/><circle r="10"/></svg>';
const svgInline = () => `<svg xmlns="http://www.w3.org/2000/svg"><script>${evilScript()}</script><circle r="10"/></svg>`;
const html = () => `<html><body><script>${evilScript()}</script></body></html>`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await ownDatabase(DATABASE);
  const port = await freePort();
  site = await startSite({ port, env: { ...ACCOUNTS_ENV, DATABASE_URL: database.url, PUBLIC_URL: `http://127.0.0.1:${port}` } });
  admin = await apiSignIn(site);
  const users = (await (await siteApi(site, admin, '/api/users')).json()) as { id: string; email: string }[];
  attackerId = users.find((user) => user.email === 'viewer@example.com')!.id;
  // a viewer given system_admin alone: releases, and nothing over accounts
  expect((await siteApi(site, admin, `/api/users/${attackerId}/permissions`, 'PATCH', { permissions: ['system_admin'] })).status).toBe(200);
  const login = await fetch(`${site.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'viewer@example.com', password: DEMO_PASSWORD }),
  });
  attacker = login.headers.get('set-cookie')!.split(';')[0]!;
});

test.afterAll(async () => {
  await site?.stop();
  await database?.drop();
});

test("a super admin opening a release's files directly runs none of their script", async ({ browser }) => {
  test.setTimeout(120_000);
  const post = (route: string, body: unknown) => siteApi(site, attacker, route, 'POST', body);
  // the finding as it was: the SVG and its script as a new version, never promoted
  const svgUpload = await post('/api/releases/mfe_dashboard/versions', upload({ 'evil.svg': svgLoading, 'evil.js': evilScript() }));
  const svgVersion = svgUpload.status === 201 ? ((await svgUpload.json()) as RemoteVersionView).id : null;
  // the same markup under every name a build may carry, in a version the uploader makes live (they may)
  const carriers = { 'evil.js': evilScript(), 'evil.txt': svgInline(), 'evil.png': svgInline(), 'evil.json': html(), 'evil.css': html() };
  const live = await post('/api/releases/mfe_dashboard/versions', upload(carriers));
  expect(live.status, await live.clone().text()).toBe(201);
  const liveVersion = ((await live.json()) as RemoteVersionView).id;
  expect((await post('/api/releases/mfe_dashboard/promote', { versionId: liveVersion })).status).toBe(200);

  const context = await browser.newContext({ baseURL: site.url });
  const page: Page = await context.newPage();
  const marked: string[] = [];
  context.on('request', (request) => {
    if (request.url().includes(MARKER) || request.url().includes(`/api/users/${attackerId}`)) marked.push(request.url());
  });
  await signIn(page);
  const opened: string[] = [];
  for (const version of [svgVersion, liveVersion].filter((id): id is number => id !== null)) {
    for (const remote of ['mfe_dashboard', 'mfe_users']) {
      for (const name of ['evil.svg', ...Object.keys(carriers)]) opened.push(`/releases/${remote}/${version}/${name}`);
    }
  }
  for (const url of opened) {
    await page.goto(url).catch(() => undefined);
    // every request the document makes has been made and answered
    await page.waitForLoadState('networkidle');
  }
  expect(marked).toEqual([]);
  const users = (await (await siteApi(site, admin, '/api/users')).json()) as { id: string; role: string }[];
  expect(users.find((user) => user.id === attackerId)!.role).toBe('viewer');

  // the SVG is refused at upload, naming the file and the rule
  expect(svgUpload.status).toBe(422);
  expect((await svgUpload.json()).message).toContain('evil.svg');
  await context.close();
});
