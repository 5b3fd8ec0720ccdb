import { gzipSync } from 'node:zlib';
import type { RemoteVersionView } from '@cbh/contracts';
import { DEMO_PASSWORD, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../test/test-api';
import { remoteManifest } from './dashboard-build.test-kit';

// what a release may carry and who gets its files; three versions of a remote kept at most
let api: TestApi;
let admin: string;

beforeAll(async () => {
  api = await startTestApi({ RELEASE_VERSIONS_KEPT: '3' });
  admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(async () => {
  await api?.stop();
});

/** A build of `remote` that passes the contract check, a chunk saying `marker` with its gzip copy, and `extra` files. */
function build(marker: string, { remote = 'mfe_dashboard', extra = {} as Record<string, Buffer> } = {}) {
  const chunk = `console.log(${JSON.stringify(marker)});`;
  const files: Record<string, Buffer> = {
    'mf-manifest.json': Buffer.from(JSON.stringify(remoteManifest(remote))),
    'remoteEntry.js': Buffer.from(`var ${remote};`),
    '749.abcdef0123.js': Buffer.from(chunk),
    '749.abcdef0123.js.gz': gzipSync(chunk),
    ...extra,
  };
  return { files: Object.entries(files).map(([path, content]) => ({ path, content: content.toString('base64') })) };
}

const call = (path: string, method = 'GET', body?: unknown, cookie = admin) => api.call(path, { method, body, cookie });
const upload = async (marker: string, options?: Parameters<typeof build>[1]) => {
  const response = await call(`/api/releases/${options?.remote ?? 'mfe_dashboard'}/versions`, 'POST', build(marker, options));
  expect(response.status).toBe(201);
  return (await response.json()) as RemoteVersionView;
};
const file = (path: string, cookie = '') => fetch(`${api.baseUrl}${path}`, { headers: { cookie, 'accept-encoding': 'gzip' } });

describe('what a release may carry', () => {
  it('refuses at upload and at the check any file type a build does not consist of, naming the file and the rule', async () => {
    for (const name of ['evil.svg', 'evil.svg.gz', 'page.html', 'worker.xml', 'README']) {
      const refused = await call('/api/releases/mfe_dashboard/versions', 'POST', build('x', { extra: { [name]: Buffer.from('<svg/>') } }));
      expect(refused.status).toBe(422);
      expect((await refused.json()).message).toBe(
        `The build of mfe_dashboard is refused: ${name}: a release carries only files of the types js, mjs, css, json, map, woff, woff2, png, jpg, webp, avif, ico, txt (and their .br and .gz copies)`,
      );
    }
    expect(
      (await call('/api/releases/mfe_dashboard/check', 'POST', build('x', { extra: { 'evil.svg': Buffer.from('<svg/>') } }))).status,
    ).toBe(422);
    expect(await api.sql('SELECT id FROM remote_versions')).toEqual([]);
  });

  it('refuses a .gz or .br copy that is not exactly its file, or has no file beside it', async () => {
    const cases: [Record<string, Buffer>, string][] = [
      [
        { '749.abcdef0123.js.gz': gzipSync('alert(document.cookie)') },
        '749.abcdef0123.js.gz: a compressed copy must decompress to exactly the bytes of 749.abcdef0123.js, and this one does not',
      ],
      [
        { '749.abcdef0123.js.br': Buffer.from('not brotli at all') },
        '749.abcdef0123.js.br: a compressed copy must decompress to exactly the bytes of 749.abcdef0123.js, and this one does not',
      ],
      [
        { 'lonely.js.gz': gzipSync('alert(1)') },
        'lonely.js.gz: a compressed copy must sit beside its file, and the build has no lonely.js',
      ],
    ];
    for (const [extra, message] of cases) {
      const refused = await call('/api/releases/mfe_dashboard/versions', 'POST', build('x', { extra }));
      expect(refused.status).toBe(422);
      expect((await refused.json()).message).toBe(`The build of mfe_dashboard is refused: ${message}`);
    }
  });
});

describe('who gets a release file', () => {
  let live: RemoteVersionView;
  let unpromoted: RemoteVersionView;

  it('serves a live version under its own name only, never a version nothing serves, never a compressed copy itself', async () => {
    live = await upload('live', { extra: { 'notes.txt': Buffer.from('<svg onload="alert(1)"/>') } });
    unpromoted = await upload('unpromoted');
    expect((await call('/api/releases/mfe_dashboard/promote', 'POST', { versionId: live.id })).status).toBe(200);

    const served = await file(`/releases/mfe_dashboard/${live.id}/749.abcdef0123.js`);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe('console.log("live");');
    expect(served.headers.get('content-encoding')).toBe('gzip');
    const text = await file(`/releases/mfe_dashboard/${live.id}/notes.txt`);
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    // opened directly, no file runs script: a sandboxed document that loads nothing, its type never sniffed
    for (const response of [served, text]) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    }

    expect((await file(`/releases/mfe_dashboard/${unpromoted.id}/749.abcdef0123.js`)).status).toBe(404);
    expect((await file(`/releases/mfe_users/${live.id}/749.abcdef0123.js`)).status).toBe(404);
    expect((await file(`/releases/mfe_learning/${live.id}/mf-manifest.json`)).status).toBe(404);
    expect((await file(`/releases/mfe_dashboard/${live.id}/749.abcdef0123.js.gz`)).status).toBe(404);
  });

  it('serves a pinned version to the browser that pinned it only, cached by it alone', async () => {
    const pinned = await call('/api/releases/mfe_dashboard/pin', 'POST', { versionId: unpromoted.id });
    expect(pinned.status).toBe(204);
    const pins = pinned.headers.get('set-cookie')!.split(';')[0]!;
    const mine = await file(`/releases/mfe_dashboard/${unpromoted.id}/749.abcdef0123.js`, `${admin}; ${pins}`);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('private, no-store');
    expect(await mine.text()).toBe('console.log("unpromoted");');
    expect((await file(`/releases/mfe_dashboard/${unpromoted.id}/749.abcdef0123.js`)).status).toBe(404);
    // a pin of one remote opens no version under another remote's name
    expect((await file(`/releases/mfe_users/${unpromoted.id}/749.abcdef0123.js`, `${admin}; ${pins}`)).status).toBe(404);
  });

  it('serves the previous and the canary version to everyone, and takes a remote by its folder name in the API', async () => {
    const next = await upload('next');
    expect((await call('/api/releases/mfe-dashboard/promote', 'POST', { versionId: next.id })).status).toBe(200);
    expect((await file(`/releases/mfe_dashboard/${live.id}/749.abcdef0123.js`)).status).toBe(200);
    expect((await call('/api/releases/mfe-dashboard/canary', 'POST', { versionId: unpromoted.id, percent: 10 })).status).toBe(200);
    expect((await file(`/releases/mfe_dashboard/${unpromoted.id}/749.abcdef0123.js`)).status).toBe(200);
    // the folder's name is only the API's: file paths name the container
    expect((await file(`/releases/mfe-dashboard/${next.id}/749.abcdef0123.js`)).status).toBe(404);
    expect((await call('/api/releases/mfe-dashboard/canary/abort', 'POST')).status).toBe(200);
  });
});

describe('deleting and pruning versions', () => {
  it('never deletes the live, previous or canary version, saying which; deletes another with the files only it held', async () => {
    const releases = await (await call('/api/releases')).json();
    const dashboard = releases.find((release: { remote: string }) => release.remote === 'mfe_dashboard');
    const { liveVersionId: live, previousVersionId: previous } = dashboard;
    const extra = await upload('doomed');
    expect((await call('/api/releases/mfe_dashboard/canary', 'POST', { versionId: extra.id, percent: 5 })).status).toBe(200);
    const refusals: [number, string][] = [
      [live, `Version ${live} of mfe_dashboard is the live version: it cannot be deleted`],
      [previous, `Version ${previous} of mfe_dashboard is the previous version, which Rollback goes back to: it cannot be deleted`],
      [extra.id, `Version ${extra.id} of mfe_dashboard is the canary: it cannot be deleted`],
    ];
    for (const [id, message] of refusals) {
      const refused = await call(`/api/releases/mfe_dashboard/versions/${id}`, 'DELETE');
      expect(refused.status).toBe(409);
      expect((await refused.json()).message).toBe(message);
    }
    const operator = await signIn(api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
    expect((await call(`/api/releases/mfe_dashboard/versions/${extra.id}`, 'DELETE', undefined, operator)).status).toBe(403);
    expect((await call(`/api/releases/mfe_users/versions/${extra.id}`, 'DELETE')).status).toBe(404);

    await call('/api/releases/mfe_dashboard/canary/abort', 'POST');
    const [{ held }] = await api.sql(
      `SELECT count(*)::int AS held FROM remote_files WHERE sha256 IN (SELECT value FROM remote_versions, jsonb_each_text(files) WHERE id = $1)`,
      [extra.id],
    );
    expect(held).toBe(4);
    expect((await call(`/api/releases/mfe-dashboard/versions/${extra.id}`, 'DELETE')).status).toBe(204);
    expect(await api.sql('SELECT id FROM remote_versions WHERE id = $1', [extra.id])).toEqual([]);
    // its own chunk and gzip copy went; the manifest and entry other versions hold stayed
    const [{ orphans }] = await api.sql(
      `SELECT count(*)::int AS orphans FROM remote_files f
       WHERE NOT EXISTS (SELECT 1 FROM remote_versions v, jsonb_each_text(v.files) e WHERE e.value = f.sha256)`,
    );
    expect(orphans).toBe(0);
    const audit = await api.sql("SELECT before FROM audit_entries WHERE action = 'release.delete'");
    expect(audit).toEqual([{ before: { versionId: extra.id, gitCommit: null } }]);
  });

  it('keeps RELEASE_VERSIONS_KEPT versions of a remote after an upload: the oldest nothing serves go', async () => {
    const { liveVersionId: live, previousVersionId: previous } = (await (await call('/api/releases')).json()).find(
      (release: { remote: string }) => release.remote === 'mfe_dashboard',
    );
    const newest = [await upload('n1'), await upload('n2'), await upload('n3')];
    const kept = (await api.sql("SELECT id FROM remote_versions WHERE remote = 'mfe_dashboard' ORDER BY id")).map((row) => row.id);
    // three at most, the live and previous ones whatever their age
    expect(kept).toEqual([previous, live, newest[2]!.id].sort((a, b) => a - b));
    const [{ orphans }] = await api.sql(
      `SELECT count(*)::int AS orphans FROM remote_files f
       WHERE NOT EXISTS (SELECT 1 FROM remote_versions v, jsonb_each_text(v.files) e WHERE e.value = f.sha256)`,
    );
    expect(orphans).toBe(0);
  });
});
