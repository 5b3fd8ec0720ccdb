import { Client } from 'pg';
import type { ReleaseView, UserView } from '@cbh/contracts';
import { SecretBox } from '../platform/common/crypto/secret-box';
import { bucketOf, ReleaseState } from './release-state.service';
import { DEMO_PASSWORD, eventually, signIn, TEST_ADMIN } from '../../test/test-api';
import { canaryApiForThisFile, dashboardEntry } from './dashboard-build.test-kit';

// a signed-in person's side of a canary is their account's; a rollback needs 2 people failing by their latest load;
// a pin is its account's own, for a day, while it holds system_admin
const SESSION_SECRET = 'a-session-secret-of-this-test-file-only-0123456789';
const spec = canaryApiForThisFile({
  SESSION_SECRET,
  CANARY_ROLLBACK_VISITORS: '2',
  CANARY_ROLLBACK_PERCENT: '50',
  ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
});
const { post, upload } = spec;
const people: Record<string, string> = {};
/** Each person's session cookie by email, and their side of the dashboard's canary (0–99) as their account makes it. */
const bucket: Record<string, number> = {};

beforeAll(async () => {
  for (const email of ['viewer@example.com', 'operator@example.com', 'admin@demo.example.com'])
    people[email] = await signIn(spec.api.baseUrl, email, DEMO_PASSWORD);
  people[TEST_ADMIN.email] = spec.admin;
  for (const user of (await (await spec.api.call('/api/users', { cookie: spec.admin })).json()) as UserView[])
    bucket[user.email] = bucketOf(`account:${user.id}`, 'mfe_dashboard');
});
const load = (versionId: number, ok: boolean) => ({
  loads: [{ remote: 'mfe_dashboard', entry: dashboardEntry(versionId), ok, ...(ok ? { loadMs: 50 } : { reason: 'TypeError: boom' }) }],
});
/** The dashboard's entry /remotes.json gives a request with these cookies, and the visitor cookie it set, if any. */
async function remotesWith(cookie: string): Promise<{ entry: string; visitor: string | null }> {
  const answer = await fetch(`${spec.api.baseUrl}/remotes.json`, { headers: cookie ? { cookie } : {} });
  const visitor = answer.headers.get('set-cookie')?.split(';')[0] ?? null;
  return { entry: ((await answer.json()) as { remotes: { entry: string }[] }).remotes[0]!.entry, visitor };
}
const canaryOf = async () =>
  ((await (await spec.api.call('/api/releases', { cookie: spec.admin })).json()) as ReleaseView[]).find(
    (release) => release.remote === 'mfe_dashboard',
  )!.canary;

describe("a signed-in person's side of a canary", () => {
  it('is their account’s: the same entry on every fetch whatever visitor cookie they hold, and loads judged by it', async () => {
    const canary = await upload('canary-sides');
    await post('/api/releases/mfe_dashboard/canary', { versionId: canary.id, percent: 50 });
    const everyone = Object.values(people);
    for (const person of everyone) {
      // dropping the visitor cookie (a new one each time) or keeping one: always the same side
      const first = await remotesWith(person);
      for (let i = 0; i < 12; i++) expect((await remotesWith(person)).entry).toBe(first.entry);
      expect((await remotesWith(`${person}; ${first.visitor}`)).entry).toBe(first.entry);
    }
    // a person on the live side holding a visitor cookie that lands signed out on the canary still reports no canary load
    const [onLiveEmail, onLiveBucket] = Object.entries(bucket)
      .filter(([email]) => people[email])
      .sort((a, b) => Math.abs(a[1] - 50) - Math.abs(b[1] - 50))[0]!;
    const onLive = people[onLiveEmail]!;
    await post('/api/releases/mfe_dashboard/canary', { versionId: canary.id, percent: Math.max(1, onLiveBucket) });
    let canaryVisitor = '';
    for (let i = 0; !canaryVisitor && i < 500; i++) {
      const signedOut = await remotesWith('');
      if (signedOut.entry === dashboardEntry(canary.id)) canaryVisitor = signedOut.visitor!;
    }
    expect(canaryVisitor).not.toBe('');
    expect((await remotesWith(`${onLive}; ${canaryVisitor}`)).entry).toBe(dashboardEntry(spec.live.id));
    expect((await post('/api/releases/loads', load(canary.id, false), `${onLive}; ${canaryVisitor}`)).status).toBe(204);
    expect(await spec.api.sql('SELECT id FROM remote_loads WHERE version_id = $1', [canary.id])).toEqual([]);

    // raising the share only moves people onto the canary: those below it, by their account's bucket
    for (const percent of [1, 30, 70, 99]) {
      await post('/api/releases/mfe_dashboard/canary', { versionId: canary.id, percent });
      for (const [email, person] of Object.entries(people))
        expect((await remotesWith(person)).entry).toBe(dashboardEntry(bucket[email]! < percent ? canary.id : spec.live.id));
    }
    await post('/api/releases/mfe_dashboard/canary/abort');
  });
});

describe('an automatic rollback', () => {
  it('counts each person by their latest load and needs 2 people failing; fewer only notify', async () => {
    const canary = await upload('canary-threshold');
    // three people on the canary's side
    const [viewer, operator, demoAdmin] = Object.keys(people)
      .sort((a, b) => bucket[a]! - bucket[b]!)
      .slice(0, 3)
      .map((email) => people[email]!) as [string, string, string];
    await post('/api/releases/mfe_dashboard/canary', { versionId: canary.id, percent: 99 });
    const before = spec.receiver.received.length;
    // the viewer's load failed, then rendered: not failing; the operator's failed: 1 of 2 people (50 %), one alone
    expect((await post('/api/releases/loads', load(canary.id, false), viewer)).status).toBe(204);
    expect((await post('/api/releases/loads', load(canary.id, true), viewer)).status).toBe(204);
    expect((await post('/api/releases/loads', load(canary.id, false), operator)).status).toBe(204);
    expect(await canaryOf()).toMatchObject({ versionId: canary.id });
    // people were told, once, at the first failure
    const [failing] = (await spec.receiver.waitFor(before + 1, 10_000)).slice(before);
    expect(failing!.body).toMatchObject({
      type: 'release.canary_failing',
      data: {
        versionId: canary.id,
        reason: 'it failed to load for 1 of the 1 people who loaded it (100.0 %; the limit is 50 % of at least 2, 2 of them failing)',
      },
    });
    // a second person failing: 2 of 3 people, rolled back
    expect((await post('/api/releases/loads', load(canary.id, false), demoAdmin)).status).toBe(204);
    const rolledBack = await spec.receiver.waitFor(before + 2, 10_000);
    expect(rolledBack.slice(before).map((hook) => hook.body.type)).toEqual(['release.canary_failing', 'release.rolled_back']);
    expect(await canaryOf()).toBeNull();
  });
});

describe('a pin', () => {
  it('shows its version only to the account that pinned it, while it holds system_admin, for a day', async () => {
    await post('/api/releases/mfe_dashboard/canary/abort');
    const pinned = await upload('pinned');
    const file = `/releases/mfe_dashboard/${pinned.id}/pinned.js`;
    const get = (cookie: string) => fetch(`${spec.api.baseUrl}${file}`, { headers: { cookie } });
    // a viewer granted system_admin pins a version nobody promoted
    const users = (await (await spec.api.call('/api/users', { cookie: spec.admin })).json()) as UserView[];
    const viewerId = users.find((user) => user.email === 'viewer@example.com')!.id;
    const grant = (permissions: string[]) =>
      spec.api.call(`/api/users/${viewerId}/permissions`, { method: 'PATCH', body: { permissions }, cookie: spec.admin });
    expect((await grant(['dashboard_view', 'system_admin'])).status).toBe(200);
    const releaser = await signIn(spec.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
    const answer = await post('/api/releases/mfe_dashboard/pin', { versionId: pinned.id }, releaser);
    expect(answer.status).toBe(204);
    const pins = answer.headers.get('set-cookie')!.split(';')[0]!;
    expect((await get(`${releaser}; ${pins}`)).status).toBe(200);
    expect((await remotesWith(`${releaser}; ${pins}`)).entry).toBe(dashboardEntry(pinned.id));

    // the copied cookie serves nothing to a browser signed out, nor to another account, a super admin included
    for (const cookie of [pins, `${people['operator@example.com']}; ${pins}`, `${spec.admin}; ${pins}`]) {
      expect((await get(cookie)).status).toBe(404);
      expect((await remotesWith(cookie)).entry).toBe(dashboardEntry(spec.live.id));
    }
    // nor to the account itself once it lost system_admin
    expect((await grant(['dashboard_view'])).status).toBe(200);
    expect((await get(`${releaser}; ${pins}`)).status).toBe(404);
    expect((await remotesWith(`${releaser}; ${pins}`)).entry).toBe(dashboardEntry(spec.live.id));

    // a pin past its day is none, whatever the cookie's Max-Age
    const box = new SecretBox(SESSION_SECRET, 'release-pins');
    const adminId = users.find((user) => user.email === TEST_ADMIN.email)!.id;
    const sealed = (expires: number) =>
      `cbh.pins=${encodeURIComponent(box.seal(JSON.stringify({ account: adminId, expires, pins: { mfe_dashboard: pinned.id } })))}`;
    expect((await get(`${spec.admin}; ${sealed(Date.now() + 60_000)}`)).status).toBe(200);
    expect((await get(`${spec.admin}; ${sealed(Date.now() - 1)}`)).status).toBe(404);
  });
});

describe("a replica's copy of the releases", () => {
  it('keeps no read that began before a change and ended after a read begun after it', async () => {
    const state = spec.api.app.get(ReleaseState);
    const entry = () => state.entryFor('mfe_dashboard', null, {});
    expect(entry()).toBe(dashboardEntry(spec.live.id));
    // a read begun now finds the live version, then waits for its files behind a transaction holding their table
    const holder = new Client({ connectionString: spec.api.databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE remote_versions IN ACCESS EXCLUSIVE MODE');
      const begunBefore = state.reload();
      const waiting =
        "SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'remote_versions' AND NOT l.granted";
      expect(await eventually(async () => (await spec.api.sql(waiting)).length > 0)).toBe(true);
      // the change: nothing of the dashboard released any more; a read begun after it needs no files and ends first
      await spec.api.sql('UPDATE remote_releases SET live_version_id = NULL, previous_version_id = NULL WHERE remote = $1', [
        'mfe_dashboard',
      ]);
      await state.reload();
      expect(entry()).toBeNull();
      await holder.query('ROLLBACK');
      await begunBefore;
      expect(entry()).toBeNull();
    } finally {
      await holder.end();
      await spec.api.sql('UPDATE remote_releases SET live_version_id = $1 WHERE remote = $2', [spec.live.id, 'mfe_dashboard']);
      await state.reload();
    }
  });
});
