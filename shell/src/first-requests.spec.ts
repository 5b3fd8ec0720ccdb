/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import type * as Runtime from '@module-federation/enhanced/runtime';
import type * as FirstRequests from './first-requests';

jest.mock('@module-federation/enhanced/runtime', () => ({
  preloadRemote: jest.fn(async () => undefined),
  registerPlugins: jest.fn(),
  registerRemotes: jest.fn(),
}));

const REMOTES = {
  remotes: [
    { name: 'mfe_learning', entry: '/remotes/mfe-learning/mf-manifest.json', routes: ['/'] },
    { name: 'mfe_dashboard', entry: '/remotes/mfe-dashboard/mf-manifest.json', routes: ['/dashboard', '/circuit-breakers/:id'] },
  ],
};

/** The requests the page sent, by path, and a way to answer /remotes.json when the test says so. */
let asked: string[];
let answerRemotes: () => void;

/** A fresh copy of the module (it sends its requests once per page) and of the mocked federation runtime. */
function load(): { start: typeof FirstRequests.startFirstRequests; runtime: jest.Mocked<typeof Runtime> } {
  jest.resetModules();
  return {
    start: (jest.requireActual('./first-requests') as typeof FirstRequests).startFirstRequests,
    runtime: jest.requireMock('@module-federation/enhanced/runtime'),
  };
}

beforeEach(() => {
  asked = [];
  const remotesAnswered = new Promise<void>((resolve) => (answerRemotes = resolve));
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const path = String(input);
    asked.push(path);
    if (path === '/remotes.json') {
      await remotesAnswered;
      return { ok: true, status: 200, json: async () => REMOTES } as Response;
    }
    return { ok: false, status: 401, json: async () => ({}) } as Response;
  });
});

it('asks who is signed in at once, without waiting for /remotes.json', async () => {
  const { start } = load();
  const requests = start('/dashboard');
  expect(asked).toEqual(['/remotes.json', '/api/auth/user']);
  await expect(requests.session).resolves.toBeNull();
  answerRemotes();
  await expect(requests.manifest).resolves.toEqual(REMOTES);
});

it("preloads the entry and routes module of the current route's remote as soon as /remotes.json answers", async () => {
  const { start, runtime } = load();
  const requests = start('/circuit-breakers/7');
  expect(runtime.preloadRemote).not.toHaveBeenCalled();
  answerRemotes();
  await requests.manifest;
  expect(runtime.registerRemotes).toHaveBeenCalledWith([
    { name: 'mfe_learning', entry: 'http://localhost/remotes/mfe-learning/mf-manifest.json' },
    { name: 'mfe_dashboard', entry: 'http://localhost/remotes/mfe-dashboard/mf-manifest.json' },
  ]);
  expect(runtime.preloadRemote).toHaveBeenCalledWith([{ nameOrAlias: 'mfe_dashboard', exposes: ['Routes'], resourceCategory: 'sync' }]);
  // registered before the preload, which needs the remote
  expect(runtime.registerRemotes.mock.invocationCallOrder[0]).toBeLessThan(runtime.preloadRemote.mock.invocationCallOrder[0]!);
});

it('preloads no remote on a page no remote renders', async () => {
  const { start, runtime } = load();
  const requests = start('/no-such-page');
  answerRemotes();
  await requests.manifest;
  expect(runtime.preloadRemote).not.toHaveBeenCalled();
});

it('sends the requests once: the app takes the answers the main chunk asked for', async () => {
  const { start } = load();
  const first = start('/');
  expect(start()).toBe(first);
  expect(asked).toHaveLength(2);
  answerRemotes();
  await first.manifest;
});

it('leaves the site without remotes when /remotes.json cannot be loaded', async () => {
  const { start, runtime } = load();
  jest.mocked(global.fetch).mockImplementation(async () => ({ ok: false, status: 500, text: async () => 'down' }) as Response);
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  await expect(start('/dashboard').manifest).resolves.toEqual({ remotes: [] });
  expect(error).toHaveBeenCalledWith('[shell] /remotes.json could not be loaded', expect.any(Error));
  expect(runtime.preloadRemote).not.toHaveBeenCalled();
});
