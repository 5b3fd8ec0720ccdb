import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from './support/test';
import type { ReleaseView, RemoteVersionView } from '@cbh/contracts';
import { startWebhookReceiver, type WebhookReceiver } from '../api/test/webhook-receiver';
import { freePort } from '../tools/testing/free-port.mjs';
import { ACCOUNTS_ENV, ADMIN, DEMO_PASSWORD, DIST, ownDatabase, startSite, type Site } from './support/server';
import { apiSignIn, siteApi } from './support/site-api';
import { signIn } from './support/sign-in';
import { shoot } from './support/shots';

/**
 * Releases of the dashboard remote on two production replicas of a database of their own: the built remote uploaded
 * as versions (one changed, one that throws on load), a canary split between two visitors, promote, rollback, and a
 * broken canary rolled back by itself — the shell's files never touched. A canary is rolled back here once two people
 * (the least there is) saw it fail.
 */
const DATABASE = `releases_e2e_${process.pid}`;
let replicas: Site[] = [];
let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
let cookie: string;
let receiver: WebhookReceiver;

const FOLDER = path.join(DIST, 'mfe-dashboard');
/** The built dashboard as an upload, each script changed by `change` (the compressed copies of those it changed left out). */
function upload(change?: (code: string, name: string) => string) {
  const names = readdirSync(FOLDER);
  const changed = new Map<string, Buffer>();
  for (const name of names.filter((file) => change && file.endsWith('.js'))) {
    const code = readFileSync(path.join(FOLDER, name), 'utf8');
    const next = change!(code, name);
    if (next !== code) changed.set(name, Buffer.from(next));
  }
  const files = names
    .filter((name) => !changed.has(name.replace(/\.(br|gz)$/, '')) || !/\.(br|gz)$/.test(name))
    .map((name) => ({ path: name, content: (changed.get(name) ?? readFileSync(path.join(FOLDER, name))).toString('base64') }));
  return { gitCommit: 'e2e0001', files };
}

async function json<T>(response: Promise<Response>, status = 200): Promise<T> {
  const answered = await response;
  expect(answered.status, await answered.clone().text()).toBe(status);
  return (await answered.json()) as T;
}

/** The suite's accounts: a signed-in person's side of a canary is their account's (a hash of its id and the remote). */
const PEOPLE = [
  ADMIN,
  ...['viewer@example.com', 'operator@example.com', 'admin@demo.example.com'].map((email) => ({ email, password: DEMO_PASSWORD })),
];
type Person = (typeof PEOPLE)[number];

/** Each person's session on each replica, signed in once (an account keeps its newest 20 sessions). */
const sessions = new Map<string, string>();

/** Each person's entry for the dashboard, as the hub gives it to them. */
async function entriesOf(site: Site): Promise<Map<Person, string>> {
  const entries = new Map<Person, string>();
  for (const person of PEOPLE) {
    const key = `${site.url} ${person.email}`;
    if (!sessions.has(key)) {
      const login = await fetch(`${site.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(person),
      });
      sessions.set(key, login.headers.get('set-cookie')!.split(';')[0]!);
    }
    const answer = await fetch(`${site.url}/remotes.json`, { headers: { cookie: sessions.get(key)! } });
    const remotes = ((await answer.json()) as { remotes: { name: string; entry: string }[] }).remotes;
    entries.set(person, remotes.find((remote) => remote.name === 'mfe_dashboard')!.entry);
  }
  return entries;
}

/**
 * Starts a canary of `version` at the first share of `percents` that puts at least `onCanary` of the people on it and
 * `onLive` on the live version (who lands where is the hub's, not the test's, to choose); those people, and the share.
 */
async function splitPeople(site: Site, version: RemoteVersionView, percents: number[], onCanary: number, onLive: number, slos?: number[]) {
  const entry = `/releases/mfe_dashboard/${version.id}/mf-manifest.json`;
  const seen: string[] = [];
  for (const percent of percents) {
    await json(siteApi(site, cookie, '/api/releases/mfe_dashboard/canary', 'POST', { versionId: version.id, percent, slos }));
    const entries = [...(await entriesOf(site))];
    const canary = entries.filter(([, given]) => given === entry).map(([person]) => person);
    const live = entries.filter(([, given]) => given !== entry).map(([person]) => person);
    if (canary.length >= onCanary && live.length >= onLive) return { canary, live, percent };
    seen.push(`${percent} %: ${canary.length}`);
  }
  throw new Error(
    `no share put ${onCanary} people on the canary and ${onLive} on the live version (on the canary at each: ${seen.join(', ')})`,
  );
}

/**
 * The shares a canary is tried at to split the people: the tens first, then every other whole percent. Four accounts'
 * buckets fall in one band of ten once in a thousand databases, where no ten splits them; only four equal buckets
 * (once in a million) are split by no share at all.
 */
const EVERY_SHARE = [50, 30, 70, 10, 90, 20, 80, 40, 60, ...Array.from({ length: 99 }, (_, i) => i + 1).filter((percent) => percent % 10)];

/** A page on a replica, signed in as the person. */
async function visitor(browser: Browser, site: Site, person: Person): Promise<Page> {
  const context = await browser.newContext({ baseURL: site.url });
  const page = await context.newPage();
  await signIn(page, person);
  return page;
}

/** Goes to the dashboard by the shell's own navigation (from another remote's page), as a person would. */
async function openDashboard(page: Page) {
  await page.goto('/');
  await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: /Recent Activity/ })).toBeVisible();
  return (await page.getByRole('heading', { name: /Recent Activity/ }).textContent())!.trim();
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await ownDatabase(DATABASE);
  const ports = [await freePort(), await freePort()];
  const env = {
    ...ACCOUNTS_ENV,
    DATABASE_URL: database.url,
    PUBLIC_URL: `http://127.0.0.1:${ports[0]}`,
    ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
    CANARY_ROLLBACK_VISITORS: '1',
    CANARY_ROLLBACK_PERCENT: '50',
    // the SLO-judged canary has two people's loads and errors after render
    CANARY_SLO_MIN_LOADS: '2',
  };
  replicas = [await startSite({ port: ports[0]!, env })];
  replicas.push(await startSite({ port: ports[1]!, env }));
  cookie = await apiSignIn(replicas[0]!);
  receiver = await startWebhookReceiver();
});

test.afterAll(async () => {
  await receiver?.stop();
  for (const replica of replicas) await replica.stop();
  await database?.drop();
});

test.describe.configure({ mode: 'serial' });

let v1: RemoteVersionView;
let v2: RemoteVersionView;

test('a canary splits visitors, each staying on their version; promote and rollback reach every next navigation', async ({ browser }) => {
  test.setTimeout(120_000);
  const [a, b] = replicas as [Site, Site];
  const shellIndex = readFileSync(path.join(DIST, 'shell/index.html'));
  v1 = await json(siteApi(a, cookie, '/api/releases/mfe_dashboard/versions', 'POST', upload()), 201);
  v2 = await json(
    siteApi(
      a,
      cookie,
      '/api/releases/mfe_dashboard/versions',
      'POST',
      upload((code) => code.replaceAll('Recent Activity', 'Recent Activity v2')),
    ),
    201,
  );
  await json(siteApi(a, cookie, '/api/releases/mfe_dashboard/promote', 'POST', { versionId: v1.id }));
  const split = await splitPeople(b, v2, EVERY_SHARE, 1, 1);
  const onCanary = await visitor(browser, a, split.canary[0]!);
  const onLive = await visitor(browser, b, split.live[0]!);
  expect(await openDashboard(onCanary)).toBe('Recent Activity v2');
  expect(await openDashboard(onLive)).toBe('Recent Activity');
  // each stays on their version across navigations, whichever replica answers
  expect(await openDashboard(onCanary)).toBe('Recent Activity v2');
  const entryOn = async (site: Site, page: Page) =>
    (await (await page.request.get(`${site.url}/remotes.json`)).json()).remotes.find(
      (remote: { name: string }) => remote.name === 'mfe_dashboard',
    ).entry as string;
  expect(await entryOn(b, onCanary)).toBe(`/releases/mfe_dashboard/${v2.id}/mf-manifest.json`);
  const releases: ReleaseView[] = await json(siteApi(a, cookie, '/api/releases'));
  expect(releases.find((release) => release.remote === 'mfe_dashboard')!.canary).toMatchObject({
    versionId: v2.id,
    percent: split.percent,
  });
  // the release screen shows the split, and who runs each version
  const system = await visitor(browser, a, ADMIN);
  await system.goto('/users');
  await system.getByRole('tab', { name: 'System' }).click();
  await expect(system.getByText(`version ${v2.id} to ${split.percent} % of visitors`)).toBeVisible();
  await shoot(system, 'releases-card', { fullPage: true });

  // promote: the live side gets v2 at its next navigation to the dashboard
  await json(siteApi(a, cookie, '/api/releases/mfe_dashboard/promote', 'POST', { versionId: v2.id }));
  expect(await openDashboard(onLive)).toBe('Recent Activity v2');
  // rollback, in one action: v1 again for everyone
  await json(siteApi(b, cookie, '/api/releases/mfe_dashboard/rollback', 'POST'));
  expect(await openDashboard(onLive)).toBe('Recent Activity');
  expect(await openDashboard(onCanary)).toBe('Recent Activity');
  expect(readFileSync(path.join(DIST, 'shell/index.html')).equals(shellIndex)).toBe(true);
});

test('a canary that throws on load is rolled back by itself, and the notification is delivered', async ({ browser }) => {
  test.setTimeout(90_000);
  const [a] = replicas as [Site, Site];
  const channel = await json<{ id: string }>(
    siteApi(a, cookie, '/api/notification-channels', 'POST', { name: 'releases', type: 'webhook', url: receiver.url }),
    201,
  );
  await json(
    siteApi(a, cookie, '/api/notification-rules', 'POST', { name: 'releases', events: ['release.rolled_back'], channelIds: [channel.id] }),
    201,
  );
  const broken = await json<RemoteVersionView>(
    siteApi(
      a,
      cookie,
      '/api/releases/mfe_dashboard/versions',
      'POST',
      upload((code, name) => (name.startsWith('__federation_expose_Routes') ? `throw new Error("broken build");\n${code}` : code)),
    ),
    201,
  );
  // two people on the broken canary: a rollback needs two people failing
  const split = await splitPeople(a, broken, [90, 99], 2, 0);
  const pages = [await visitor(browser, a, split.canary[0]!), await visitor(browser, a, split.canary[1]!)];
  for (const page of pages) {
    await page.goto('/');
    await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
    await expect(page.getByTestId('remote-fallback')).toBeVisible();
  }
  const page = pages[0]!;
  // the shell reports the failed load (a batch leaves within seconds, or when the page goes)
  const [hook] = await receiver.waitFor(1, 20_000);
  expect(hook!.body).toMatchObject({
    type: 'release.rolled_back',
    data: { remote: 'mfe_dashboard', versionId: broken.id, liveVersionId: v1.id },
  });
  const releases: ReleaseView[] = await json(siteApi(a, cookie, '/api/releases'));
  const dashboard = releases.find((release) => release.remote === 'mfe_dashboard')!;
  expect(dashboard.canary).toBeNull();
  // its chunk threw as it ran: a failed load, not an error after render
  expect(dashboard.versions.find((version) => version.id === broken.id)!.loads).toMatchObject({ failed: 2, errorsAfterRender: 0 });
  // Retry now loads the live version
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { name: 'Recent Activity', exact: true })).toBeVisible();
});

test('a canary whose code breaks after it rendered is rolled back by the SLO it is judged by, naming it', async ({ browser }) => {
  test.setTimeout(90_000);
  const [a, b] = replicas as [Site, Site];
  const slo = await json<{ id: number }>(
    siteApi(a, cookie, '/api/slos', 'POST', {
      name: 'Dashboard renders',
      target: 99,
      window: '30d',
      indicator: { kind: 'remote-loads', remote: 'mfe_dashboard' },
    }),
    201,
  );
  // the dashboard renders, then its own code throws from a timer: nothing fails to load
  const breaksLater = await json<RemoteVersionView>(
    siteApi(
      a,
      cookie,
      '/api/releases/mfe_dashboard/versions',
      'POST',
      upload((code, name) =>
        name.startsWith('__federation_expose_Routes')
          ? `${code}\nsetTimeout(function () { throw new Error("broken after render"); }, 1000);\n`
          : code,
      ),
    ),
    201,
  );
  const before = receiver.received.length;
  const split = await splitPeople(a, breaksLater, [90, 99], 2, 0, [slo.id]);
  const releases: ReleaseView[] = await json(siteApi(a, cookie, '/api/releases'));
  expect(releases.find((release) => release.remote === 'mfe_dashboard')!.canary).toMatchObject({
    versionId: breaksLater.id,
    slos: [{ id: slo.id, name: 'Dashboard renders' }],
  });
  // the release screen names the SLO that judges the canary, linking to it, and the canary dialog offers it
  const system = await visitor(browser, a, ADMIN);
  await system.goto('/users');
  await system.getByRole('tab', { name: 'System' }).click();
  const judgedBy = system.getByRole('link', { name: 'Dashboard renders' });
  await expect(judgedBy).toHaveAttribute('href', `/slos/${slo.id}`);
  await system.setViewportSize({ width: 1400, height: 900 });
  await judgedBy.scrollIntoViewIfNeeded();
  await shoot(system, 'releases-judged-by');
  await system.setViewportSize({ width: 390, height: 844 });
  await judgedBy.scrollIntoViewIfNeeded();
  await shoot(system, 'releases-judged-by-phone');
  await system.context().close();
  for (const [index, person] of split.canary.slice(0, 2).entries()) {
    const page = await visitor(browser, index ? b : a, person);
    // the shell reports the error after render within a few seconds of it
    const reported = page.waitForResponse(
      (response) => response.url().endsWith('/api/releases/loads') && (response.request().postData() ?? '').includes('"afterRender":true'),
      { timeout: 20_000 },
    );
    await openDashboard(page);
    expect((await reported).status()).toBe(204);
    await page.context().close();
  }
  const [hook] = (await receiver.waitFor(before + 1, 20_000)).slice(before);
  expect(hook!.body).toMatchObject({
    type: 'release.rolled_back',
    data: { remote: 'mfe_dashboard', versionId: breaksLater.id, slo: { id: slo.id, name: 'Dashboard renders' } },
  });
  expect((hook!.body as { data: { reason: string } }).data.reason).toMatch(
    /^the SLO "Dashboard renders" \(99 %\) burned its error budget at [\d.]+× among the canary's visitors/,
  );
  const after: ReleaseView[] = await json(siteApi(b, cookie, '/api/releases'));
  const dashboard = after.find((release) => release.remote === 'mfe_dashboard')!;
  expect(dashboard.canary).toBeNull();
  expect(dashboard.versions.find((version) => version.id === breaksLater.id)!.loads).toMatchObject({ failed: 0, errorsAfterRender: 2 });
});

test('a build against another React major is refused by the contract check, naming it', async () => {
  const [a] = replicas as [Site, Site];
  const build = upload();
  const manifest = build.files.find((file) => file.path === 'mf-manifest.json')!;
  const parsed = JSON.parse(Buffer.from(manifest.content, 'base64').toString('utf8'));
  parsed.shared = parsed.shared.map((shared: { name: string }) =>
    shared.name === 'react' ? { ...shared, version: '18.3.1', requiredVersion: '^18.3.1' } : shared,
  );
  manifest.content = Buffer.from(JSON.stringify(parsed)).toString('base64');
  // its compressed copies would no longer be copies of it (refused on their own): the changed manifest goes without
  build.files = build.files.filter((file) => !/^mf-manifest\.json\.(br|gz)$/.test(file.path));
  const refused = await siteApi(a, cookie, '/api/releases/mfe_dashboard/versions', 'POST', build);
  expect(refused.status).toBe(422);
  expect((await refused.json()).message).toContain(
    'it was built against react ^18.3.1, and the shell provides react 19.3.1: build it against react@19.3.1',
  );
});
