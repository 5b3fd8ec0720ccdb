import { gzipSync } from 'node:zlib';
import type { ReleaseView, RemoteVersionView, UserView } from '@cbh/contracts';
import { DEMO_PASSWORD, eventually, signIn, TEST_ADMIN, twoReplicasForThisFile } from '../../test/test-api';
import { remoteManifest } from './dashboard-build.test-kit';
import { startWebhookReceiver } from '../../test/webhook-receiver';
import { bucketOf } from './release-state.service';

// two replicas: a promote on one is served by the other at once
// a canary failing for 2 of 3 people is rolled back; receivers on loopback hear of it
const spec = twoReplicasForThisFile({
  CANARY_ROLLBACK_VISITORS: '3',
  CANARY_ROLLBACK_PERCENT: '50',
  ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
});

/** A dashboard build: its manifest, entry, a chunk saying `marker`, and the chunk's gzip copy. */
function build(marker: string, { react = '19.3.1', routes = true } = {}) {
  const chunk = `console.log(${JSON.stringify(marker)});`;
  const files: Record<string, Buffer> = {
    'mf-manifest.json': Buffer.from(JSON.stringify(remoteManifest('mfe_dashboard', { react, routes }))),
    'remoteEntry.js': Buffer.from('var mfe_dashboard;'),
    '749.abcdef0123.js': Buffer.from(chunk),
    '749.abcdef0123.js.gz': gzipSync(chunk),
  };
  return { gitCommit: 'abc1234', files: Object.entries(files).map(([path, content]) => ({ path, content: content.toString('base64') })) };
}

const post = (path: string, body?: unknown, replica = spec.api) => replica.call(path, { method: 'POST', body, cookie: spec.admin });
const remotesJson = async (replica = spec.api) =>
  ((await (await fetch(`${replica.baseUrl}/remotes.json`)).json()) as { remotes: { name: string; entry: string }[] }).remotes[0]!.entry;

describe('remote releases', () => {
  let v1: RemoteVersionView;
  let v2: RemoteVersionView;

  it('keeps a build that passes the contract check as an immutable version, its files stored once', async () => {
    const uploaded = await post('/api/releases/mfe_dashboard/versions', build('one'));
    expect(uploaded.status).toBe(201);
    v1 = await uploaded.json();
    expect(v1).toMatchObject({ remote: 'mfe_dashboard', gitCommit: 'abc1234', files: 4, uploadedBy: expect.any(String) });
    // the same manifest and entry again: only the new chunk adds rows
    const [{ before }] = await spec.api.sql('SELECT count(*)::int AS before FROM remote_files');
    v2 = await (await post('/api/releases/mfe_dashboard/versions', build('two'))).json();
    const [{ after }] = await spec.api.sql('SELECT count(*)::int AS after FROM remote_files');
    expect(after - before).toBe(2);
    // nothing is live until promoted: the deployed folder's entry stays
    expect(await remotesJson()).toBe('/remotes/mfe-dashboard/mf-manifest.json');
  });

  it('refuses a build against another React major, or without ./Routes, saying which rule and how to fix it', async () => {
    const react18 = await post('/api/releases/mfe_dashboard/versions', build('old', { react: '18.3.1' }));
    expect(react18.status).toBe(422);
    expect((await react18.json()).message).toBe(
      "The build of mfe_dashboard breaks the shell's contract: shared: it was built against react 18.3.1, and the shell provides react 19.3.1: build it against react@19.3.1",
    );
    const check = await post('/api/releases/mfe_dashboard/check', build('x', { routes: false }));
    expect(check.status).toBe(200);
    expect((await check.json()).problems.map((problem: { rule: string }) => problem.rule)).toEqual(['exposes-routes']);
    expect((await post('/api/releases/mfe_nowhere/versions', build('x'))).status).toBe(404);
    const traversal = await post('/api/releases/mfe_dashboard/versions', { files: [{ path: '../etc/passwd', content: 'AA==' }] });
    expect(traversal.status).toBe(400);
  });

  it('promotes a version on one replica and the other serves it at once; rollback goes back in one action', async () => {
    const promoted = await post('/api/releases/mfe_dashboard/promote', { versionId: v1.id });
    expect(promoted.status).toBe(200);
    expect(await promoted.json()).toMatchObject({ liveVersionId: v1.id, previousVersionId: null });
    expect(await eventually(async () => (await remotesJson(spec.second)) === `/releases/mfe_dashboard/${v1.id}/mf-manifest.json`)).toBe(
      true,
    );

    const chunk = await fetch(`${spec.second.baseUrl}/releases/mfe_dashboard/${v1.id}/749.abcdef0123.js`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(chunk.status).toBe(200);
    expect(chunk.headers.get('content-encoding')).toBe('gzip');
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await chunk.text()).toBe('console.log("one");');
    const plain = await fetch(`${spec.second.baseUrl}/releases/mfe_dashboard/${v1.id}/749.abcdef0123.js`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect((await fetch(`${spec.second.baseUrl}/releases/mfe_dashboard/${v1.id}/nothing.js`)).status).toBe(404);

    await post('/api/releases/mfe_dashboard/promote', { versionId: v2.id }, spec.second);
    expect(await eventually(async () => (await remotesJson()) === `/releases/mfe_dashboard/${v2.id}/mf-manifest.json`)).toBe(true);
    const rolledBack = await post('/api/releases/mfe_dashboard/rollback');
    expect(await rolledBack.json()).toMatchObject({ liveVersionId: v1.id, previousVersionId: v2.id });
    expect(await eventually(async () => (await remotesJson(spec.second)) === `/releases/mfe_dashboard/${v1.id}/mf-manifest.json`)).toBe(
      true,
    );

    const listed: ReleaseView[] = await (await spec.api.call('/api/releases', { cookie: spec.admin })).json();
    expect(listed.find((release) => release.remote === 'mfe_dashboard')!.versions.map((version) => version.id)).toEqual([v2.id, v1.id]);
    const audit = await spec.api.sql("SELECT action FROM audit_entries WHERE target_type = 'remote' ORDER BY id");
    expect(audit.map((row: { action: string }) => row.action)).toEqual([
      'release.upload',
      'release.upload',
      'release.promote',
      'release.promote',
      'release.rollback',
    ]);
  });

  it('is for system administrators only', async () => {
    const operator = await signIn(spec.api.baseUrl, 'operator@example.com', 'demo-password-for-tests');
    expect((await spec.api.call('/api/releases', { cookie: operator })).status).toBe(403);
    expect((await spec.api.call('/api/releases/mfe_dashboard/rollback', { method: 'POST', cookie: operator })).status).toBe(403);
  });

  it('gives a canary to its share of visitors, each staying on their side, and a promote ends it', async () => {
    const canary = await post('/api/releases/mfe_dashboard/canary', { versionId: v2.id, percent: 50 });
    expect(canary.status).toBe(200);
    expect((await canary.json()).canary).toMatchObject({ versionId: v2.id, percent: 50 });
    // forty visitors, each with the cookie the first answer gave them, asked twice, on either replica
    const sides = { canary: 0, live: 0 };
    for (let i = 0; i < 40; i++) {
      const first = await fetch(`${spec.api.baseUrl}/remotes.json`);
      const visitor = first.headers.get('set-cookie')!.split(';')[0]!;
      const entry = ((await first.json()) as { remotes: { entry: string }[] }).remotes[0]!.entry;
      const again = await fetch(`${spec.second.baseUrl}/remotes.json`, { headers: { cookie: visitor } });
      expect(((await again.json()) as { remotes: { entry: string }[] }).remotes[0]!.entry).toBe(entry);
      if (entry === `/releases/mfe_dashboard/${v2.id}/mf-manifest.json`) sides.canary++;
      else if (entry === `/releases/mfe_dashboard/${v1.id}/mf-manifest.json`) sides.live++;
    }
    expect(sides.canary + sides.live).toBe(40);
    expect(sides.canary).toBeGreaterThan(5);
    expect(sides.live).toBeGreaterThan(5);

    // a pin shows its version to the one account that set it, whatever its side
    const pinned = await post('/api/releases/mfe_dashboard/pin', { versionId: v2.id });
    expect(pinned.status).toBe(204);
    const pins = pinned.headers.get('set-cookie')!.split(';')[0]!;
    const withPin = await fetch(`${spec.api.baseUrl}/remotes.json`, {
      headers: { cookie: `${spec.admin}; ${pins}; cbh.visitor=AAAAAAAAAAAAAAAAAAAAAA` },
    });
    expect(((await withPin.json()) as { remotes: { entry: string }[] }).remotes[0]!.entry).toBe(
      `/releases/mfe_dashboard/${v2.id}/mf-manifest.json`,
    );
    // a pins cookie the hub did not seal pins nothing: that visitor gets their own side
    const entryWith = async (cookie: string) =>
      ((await (await fetch(`${spec.api.baseUrl}/remotes.json`, { headers: { cookie } })).json()) as { remotes: { entry: string }[] })
        .remotes[0]!.entry;
    for (let i = 0; i < 3; i++) {
      const visitor = (await fetch(`${spec.api.baseUrl}/remotes.json`)).headers.get('set-cookie')!.split(';')[0]!;
      expect(await entryWith(`${visitor}; cbh.pins=v1:forged.pins.cookie`)).toBe(await entryWith(visitor));
    }

    const promoted = await (await post('/api/releases/mfe_dashboard/promote', { versionId: v2.id })).json();
    expect(promoted).toMatchObject({ liveVersionId: v2.id, previousVersionId: v1.id, canary: null });
  });

  it('rolls a canary back by itself when it fails for too many of the people who load it, and says so', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const channel = await (await post('/api/notification-channels', { name: 'releases', type: 'webhook', url: receiver.url })).json();
      expect(
        (await post('/api/notification-rules', { name: 'releases', events: ['release.rolled_back'], channelIds: [channel.id] })).status,
      ).toBe(201);
      const broken = await (await post('/api/releases/mfe_dashboard/versions', build('broken'))).json();
      await post('/api/releases/mfe_dashboard/canary', { versionId: broken.id, percent: 99 });
      const entry = `/releases/mfe_dashboard/${broken.id}/mf-manifest.json`;
      // three people whose accounts the hub put on the canary's side
      const users: UserView[] = await (await spec.api.call('/api/users', { cookie: spec.admin })).json();
      const people = await Promise.all(
        [TEST_ADMIN.email, 'operator@example.com', 'viewer@example.com', 'admin@demo.example.com']
          .map((email) => ({ email, bucket: bucketOf(`account:${users.find((user) => user.email === email)!.id}`, 'mfe_dashboard') }))
          .sort((a, b) => a.bucket - b.bucket)
          .slice(0, 3)
          .map(({ email }) => (email === TEST_ADMIN.email ? spec.admin : signIn(spec.api.baseUrl, email, DEMO_PASSWORD))),
      );
      const report = (cookie: string, ok: boolean) =>
        spec.api.call('/api/releases/loads', {
          method: 'POST',
          cookie,
          body: { loads: [{ remote: 'mfe_dashboard', entry, ok, ...(ok ? { loadMs: 120 } : { reason: 'TypeError: boom' }) }] },
        });
      // one person failing again and again is one person
      for (let i = 0; i < 5; i++) expect((await report(people[1]!, false)).status).toBe(204);
      expect((await (await spec.api.call('/api/releases', { cookie: spec.admin })).json())[1].canary).toMatchObject({
        versionId: broken.id,
      });
      await report(people[0]!, true);
      await report(people[2]!, false);
      const [hook] = await receiver.waitFor(1, 10_000);
      expect(hook!.body).toMatchObject({
        type: 'release.rolled_back',
        data: { remote: 'mfe_dashboard', versionId: broken.id, liveVersionId: v2.id },
      });
      expect((hook!.body.data as { reason: string }).reason).toBe(
        'it failed to load for 2 of the 3 people who loaded it (66.7 %; the limit is 50 % of at least 3, 2 of them failing)',
      );
      const releases: ReleaseView[] = await (await spec.api.call('/api/releases', { cookie: spec.admin })).json();
      const dashboard = releases.find((release) => release.remote === 'mfe_dashboard')!;
      expect(dashboard.canary).toBeNull();
      expect(dashboard.versions.find((version) => version.id === broken.id)!.loads).toMatchObject({
        count: 7,
        failed: 6,
        activeVisitors: 3,
        p50Ms: 120,
      });
      expect(await eventually(async () => (await remotesJson(spec.second)) === `/releases/mfe_dashboard/${v2.id}/mf-manifest.json`)).toBe(
        true,
      );
    } finally {
      await receiver.stop();
    }
  });
});
