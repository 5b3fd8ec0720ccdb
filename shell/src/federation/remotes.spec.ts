/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import {
  getInstance,
  loadRemote,
  registerPlugins,
  registerRemotes,
  type ModuleFederationRuntimePlugin,
} from '@module-federation/enhanced/runtime';
import type { RemoteDescriptor } from '@cbh/contracts';
import { reportLoad } from './load-reports';
import { loadRemoteEarly, loadRemoteRoutes, registerManifest, resetRemote } from './remotes';

jest.mock('./load-reports', () => ({ reportLoad: jest.fn() }));

jest.mock('@module-federation/enhanced/runtime', () => ({
  getInstance: jest.fn(),
  loadRemote: jest.fn(),
  registerPlugins: jest.fn(),
  registerRemotes: jest.fn(),
}));

const firstBuild = {
  id: 'mfe_dashboard',
  exposes: [{ path: './Routes', assets: { js: { sync: ['__federation_expose_Routes.2cfa3d7fe3.js'] } } }],
};
const newBuild = {
  id: 'mfe_dashboard',
  exposes: [{ path: './Routes', assets: { js: { sync: ['__federation_expose_Routes.ed6c37a83a.js'] } } }],
};
const routes = { default: () => null };

/** A remote of its own per test: the shell remembers the build it loaded of each remote by name. */
let remote: RemoteDescriptor;
let deployed: () => Promise<Response>;
let testNumber = 0;
/** The runtime plugin the shell registers. */
let plugin: ModuleFederationRuntimePlugin | undefined;
type ManifestLoaded = Parameters<NonNullable<ModuleFederationRuntimePlugin['afterLoadManifest']>>[0];

/** The federation runtime as the shell sees it: loading a remote reads its deployed manifest. */
function runtimeServing(build: object) {
  jest.mocked(loadRemote).mockImplementation(async () => {
    await plugin?.afterLoadManifest?.({
      manifestUrl: '',
      moduleInfo: { name: remote.name, entry: '' },
      manifestJson: build,
    } as ManifestLoaded);
    return routes;
  });
}

const answer =
  (status: number, body: object = {}) =>
  async () =>
    ({ ok: status === 200, status, json: async () => body }) as Response;
const forced = () => jest.mocked(registerRemotes).mock.calls.filter(([, options]) => options?.force);

beforeEach(() => {
  jest.clearAllMocks();
  jest.mocked(registerPlugins).mockImplementation((plugins) => void (plugin = plugins?.[0]));
  remote = { name: `mfe_dashboard_${++testNumber}`, entry: '/remotes/mfe-dashboard/mf-manifest.json', routes: ['/dashboard'] };
  registerManifest({ remotes: [remote] });
  deployed = answer(200, firstBuild);
  global.fetch = jest.fn(() => deployed());
});

it('loads a remote the first time without asking for its manifest', async () => {
  runtimeServing(firstBuild);
  await expect(loadRemoteRoutes(remote)).resolves.toBe(routes);
  expect(global.fetch).not.toHaveBeenCalled();
  expect(loadRemote).toHaveBeenCalledWith(`${remote.name}/Routes`);
});

it('keeps the loaded build while the deployed manifest is unchanged, reading it whole rather than revalidating it', async () => {
  runtimeServing(firstBuild);
  await loadRemoteRoutes(remote);
  await loadRemoteRoutes(remote);
  expect(global.fetch).toHaveBeenCalledWith('http://localhost/remotes/mfe-dashboard/mf-manifest.json', { cache: 'no-store' });
  expect(forced()).toEqual([]);
  expect(loadRemote).toHaveBeenCalledTimes(2);
});

it('forgets the loaded build and its chunks before loading a redeployed one', async () => {
  runtimeServing(firstBuild);
  await loadRemoteRoutes(remote);
  Object.assign(window, { [`webpackChunk${remote.name}`]: [[[286], {}]] });

  deployed = answer(200, newBuild);
  runtimeServing(newBuild);
  await expect(loadRemoteRoutes(remote)).resolves.toBe(routes);
  expect(forced()).toEqual([[[{ name: remote.name, entry: 'http://localhost/remotes/mfe-dashboard/mf-manifest.json' }], { force: true }]]);
  expect(window).not.toHaveProperty(`webpackChunk${remote.name}`);

  // The new build is now the loaded one.
  await loadRemoteRoutes(remote);
  expect(forced()).toHaveLength(1);
});

it('drops the packages an old build registered for sharing that nobody loaded, and keeps those in use', async () => {
  const shares: { default: Record<string, Record<string, { from: string; loaded: boolean }>> } = {
    default: {
      '@cbh/ui/overlays': { '0.1.0': { from: remote.name, loaded: false } },
      '@cbh/ui/charts': { '0.1.0': { from: remote.name, loaded: true } },
    },
  };
  jest.mocked(getInstance).mockReturnValue({ shareScopeMap: shares } as never);
  runtimeServing(firstBuild);
  await loadRemoteRoutes(remote);
  // another remote loaded since registers a package nobody has loaded yet
  shares.default['@cbh/breaker-widgets'] = { '0.1.0': { from: 'mfe_learning', loaded: false } };
  deployed = answer(200, newBuild);
  runtimeServing(newBuild);
  await loadRemoteRoutes(remote);
  // the old build's unloaded registration goes, as does the other remote's (see the next case); what is in use stays
  expect(shares.default).toEqual({
    '@cbh/ui/overlays': {},
    '@cbh/ui/charts': { '0.1.0': { from: remote.name, loaded: true } },
    '@cbh/breaker-widgets': {},
  });
});

it("drops, each time a remote's routes are entered, what the others registered and nobody loaded: one may have been redeployed since", async () => {
  const shares = {
    default: {
      '@cbh/breaker-widgets': { '0.1.0': { from: 'mfe_other', loaded: false } },
      '@cbh/ui/charts': { '0.1.0': { from: 'mfe_other', loaded: true } },
      react: { '19.3.1': { from: 'shell', loaded: false } },
    },
  };
  jest.mocked(getInstance).mockReturnValue({ shareScopeMap: shares, options: { name: 'shell' } } as never);
  runtimeServing(firstBuild);
  await loadRemoteRoutes(remote);
  expect(shares.default).toEqual({
    '@cbh/breaker-widgets': {},
    '@cbh/ui/charts': { '0.1.0': { from: 'mfe_other', loaded: true } },
    react: { '19.3.1': { from: 'shell', loaded: false } },
  });
  // another remote, entered meanwhile for the first time, registered a package; on a return to this remote's routes
  // (its build the same) that registration goes too: the other may be redeployed by the time this one needs it
  shares.default['@cbh/breaker-widgets'] = { '0.1.0': { from: 'mfe_other', loaded: false } };
  await loadRemoteRoutes(remote);
  expect(shares.default['@cbh/breaker-widgets']).toEqual({});
  expect(shares.default['@cbh/ui/charts']).toEqual({ '0.1.0': { from: 'mfe_other', loaded: true } });
});

it('treats a manifest the server no longer has as a redeploy, so the load fails into the fallback', async () => {
  runtimeServing(firstBuild);
  await loadRemoteRoutes(remote);
  deployed = answer(404);
  await loadRemoteRoutes(remote);
  expect(forced()).toHaveLength(1);
});

it('keeps the loaded build when the server cannot be asked', async () => {
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  runtimeServing(firstBuild);
  await loadRemoteRoutes(remote);
  deployed = () => Promise.reject(new TypeError('Failed to fetch'));
  await expect(loadRemoteRoutes(remote)).resolves.toBe(routes);
  expect(forced()).toEqual([]);
});

it('moves to the entry /remotes.json names now when the visitor comes back to the remote (a release since)', async () => {
  runtimeServing(firstBuild);
  await loadRemoteRoutes(remote);
  const released = '/releases/mfe_dashboard/7/mf-manifest.json';
  global.fetch = jest.fn(async (url: RequestInfo | URL) =>
    String(url).endsWith('/remotes.json')
      ? ({ ok: true, status: 200, json: async () => ({ remotes: [{ ...remote, entry: released }] }) } as Response)
      : deployed(),
  );
  await loadRemoteRoutes(remote);
  expect(forced()).toEqual([[[{ name: remote.name, entry: `http://localhost${released}` }], { force: true }]]);
  // a Retry resets to the entry it moved to, not the one the page started with
  resetRemote(remote);
  expect(forced()[1]).toEqual([[{ name: remote.name, entry: `http://localhost${released}` }], { force: true }]);
  expect(jest.mocked(reportLoad).mock.calls.map(([load]) => [load.entry, load.ok])).toEqual([
    ['/remotes/mfe-dashboard/mf-manifest.json', true],
    [released, true],
  ]);
});

it('reports a load that fails, with its reason, under the entry it came from', async () => {
  jest.mocked(loadRemote).mockRejectedValue(new Error('TypeError: boom'));
  await expect(loadRemoteRoutes(remote)).rejects.toThrow('boom');
  expect(reportLoad).toHaveBeenCalledWith({
    remote: remote.name,
    entry: '/remotes/mfe-dashboard/mf-manifest.json',
    ok: false,
    reason: 'TypeError: boom',
  });
});

it('reports the stand-in module of a remote that could not load as a failed load', async () => {
  jest
    .mocked(loadRemote)
    .mockResolvedValue({ default: () => null, unavailable: new Error('mfe_dashboard/Routes is unavailable: broken build') });
  await loadRemoteRoutes(remote);
  expect(reportLoad).toHaveBeenCalledWith({
    remote: remote.name,
    entry: '/remotes/mfe-dashboard/mf-manifest.json',
    ok: false,
    reason: 'mfe_dashboard/Routes is unavailable: broken build',
  });
});

describe('a load started before the shell renders (loadRemoteEarly)', () => {
  it("is the remote's view's first load: made and reported once, the next one made anew", async () => {
    runtimeServing(firstBuild);
    loadRemoteEarly(remote);
    await expect(loadRemoteRoutes(remote)).resolves.toBe(routes);
    expect(loadRemote).toHaveBeenCalledTimes(1);
    expect(reportLoad).toHaveBeenCalledTimes(1);
    await loadRemoteRoutes(remote);
    expect(loadRemote).toHaveBeenCalledTimes(2);
    expect(reportLoad).toHaveBeenCalledTimes(2);
  });

  it('hands its failure to the view that takes it, which can then retry', async () => {
    jest.mocked(loadRemote).mockRejectedValueOnce(new Error('TypeError: boom'));
    loadRemoteEarly(remote);
    await expect(loadRemoteRoutes(remote)).rejects.toThrow('boom');
    runtimeServing(firstBuild);
    await expect(loadRemoteRoutes(remote)).resolves.toBe(routes);
  });

  it("is dropped when another remote's page is shown first: a later visit loads again", async () => {
    runtimeServing(firstBuild);
    const other = { ...remote, name: `${remote.name}_other`, routes: ['/users'] };
    loadRemoteEarly(remote);
    await loadRemoteRoutes(other);
    expect(loadRemote).toHaveBeenCalledTimes(2);
    await loadRemoteRoutes(remote);
    expect(loadRemote).toHaveBeenCalledTimes(3);
  });
});
