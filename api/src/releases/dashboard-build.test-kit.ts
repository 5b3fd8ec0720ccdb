import type { ReleaseView, RemoteVersionView, UserView } from '@cbh/contracts';
import { apiForThisFile, DEMO_PASSWORD, signIn, TEST_ADMIN, type TestApi } from '../../test/test-api';
import { bucketOf } from './release-state.service';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';

/**
 * The manifest of a build of `remote` as Module Federation writes it: the React it shares (the shell's, unless a test
 * wants the contract check to refuse it) and, unless `routes` is false, the Routes module the shell loads.
 */
export function remoteManifest(remote: string, { react = '19.3.1', routes = true } = {}) {
  return {
    id: remote,
    name: remote,
    metaData: { name: remote, remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' }, publicPath: 'auto' },
    shared: [{ name: 'react', version: react, requiredVersion: react, singleton: true }],
    exposes: routes ? [{ id: `${remote}:Routes`, name: 'Routes', path: './Routes' }] : [],
  };
}

/** The smallest dashboard build the contract check takes: its manifest, its entry, and a chunk saying `marker`. */
export function dashboardBuild(marker: string) {
  const files: Record<string, string> = {
    'mf-manifest.json': JSON.stringify(remoteManifest('mfe_dashboard')),
    'remoteEntry.js': 'var mfe_dashboard;',
    [`${marker}.js`]: `console.log(${JSON.stringify(marker)})`,
  };
  return { files: Object.entries(files).map(([path, content]) => ({ path, content: Buffer.from(content).toString('base64') })) };
}

/** The entry /remotes.json gives for a version of the dashboard. */
export const dashboardEntry = (versionId: number) => `/releases/mfe_dashboard/${versionId}/mf-manifest.json`;

/**
 * Where the canary specs start: a webhook channel and rule telling `receiver` of rollbacks and failing canaries at
 * once, and a dashboard build uploaded and promoted, the live version a canary is measured against.
 */
async function liveDashboardTold(api: TestApi, admin: string, receiver: WebhookReceiver): Promise<RemoteVersionView> {
  const post = (path: string, body: unknown) => api.call(path, { method: 'POST', body, cookie: admin });
  const channel = await (await post('/api/notification-channels', { name: 'releases', type: 'webhook', url: receiver.url })).json();
  const rule = await post('/api/notification-rules', {
    name: 'releases',
    events: ['release.rolled_back', 'release.canary_failing'],
    channelIds: [channel.id],
    minIntervalMinutes: 0,
  });
  expect(rule.status).toBe(201);
  const live = (await (await post('/api/releases/mfe_dashboard/versions', dashboardBuild('live'))).json()) as RemoteVersionView;
  await post('/api/releases/mfe_dashboard/promote', { versionId: live.id });
  return live;
}

/**
 * A canary spec file's API (started with `env`), the admin's cookie, and a receiver told of its releases with the
 * live dashboard version (liveDashboardTold): ready before the file's first test, stopped after its last.
 */
export function canaryApiForThisFile(env: Record<string, string>) {
  const spec = apiForThisFile(env);
  let receiver: WebhookReceiver;
  let live: RemoteVersionView;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    live = await liveDashboardTold(spec.api, spec.admin, receiver);
  });
  afterAll(async () => {
    await receiver?.stop();
  });
  const post = (path: string, body?: unknown, cookie = spec.admin) => spec.api.call(path, { method: 'POST', body, cookie });
  return {
    get api() {
      return spec.api;
    },
    get admin() {
      return spec.admin;
    },
    get receiver() {
      return receiver;
    },
    get live() {
      return live;
    },
    post,
    /** Uploads a dashboard build with a chunk saying `marker`: the version made. */
    upload: async (marker: string): Promise<RemoteVersionView> =>
      (await post('/api/releases/mfe_dashboard/versions', dashboardBuild(marker))).json(),
    /** Signed-in people, each with their account's side of the dashboard's canary (0–99), lowest first. */
    async peopleBySide(
      emails = [TEST_ADMIN.email, 'operator@example.com', 'viewer@example.com', 'admin@demo.example.com'],
    ): Promise<{ cookie: string; bucket: number }[]> {
      const users: UserView[] = await (await spec.api.call('/api/users', { cookie: spec.admin })).json();
      const people = emails.map((email) => ({
        email,
        bucket: bucketOf(`account:${users.find((user) => user.email === email)!.id}`, 'mfe_dashboard'),
      }));
      people.sort((a, b) => a.bucket - b.bucket);
      return Promise.all(
        people.map(async ({ email, bucket }) => ({
          cookie: email === TEST_ADMIN.email ? spec.admin : await signIn(spec.api.baseUrl, email, DEMO_PASSWORD),
          bucket,
        })),
      );
    },
    /** The dashboard's canary as the release screen shows it. */
    canaryOf: async () =>
      ((await (await spec.api.call('/api/releases', { cookie: spec.admin })).json()) as ReleaseView[]).find(
        (release) => release.remote === 'mfe_dashboard',
      )!.canary,
  };
}
