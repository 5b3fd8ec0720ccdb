import { preloadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { parseRemotesManifest, REMOTE_ROUTES_MODULE, type RemoteDescriptor, type RemotesManifest } from '@cbh/contracts';
import { loadedBuildsPlugin } from './remote-builds';

/*
 * /remotes.json and what the page does with it before the app's own code runs: the main chunk asks for it, registers
 * the remotes and preloads the current route's remote (see first-requests.ts). So nothing here may import a shared
 * package (React, the router): the main chunk runs before the shared packages are negotiated.
 */

export async function fetchRemotesManifest(): Promise<RemotesManifest> {
  // index.html preloads this request (same-origin credentials, fetch's default): it is taken only while the two match
  const response = await fetch('/remotes.json', { cache: 'no-cache' });
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  return parseRemotesManifest(await response.json());
}

export function toRuntimeRemote(remote: RemoteDescriptor) {
  return { name: remote.name, entry: new URL(remote.entry, window.location.origin).href };
}

export function registerManifest(manifest: RemotesManifest) {
  registerPlugins([loadedBuildsPlugin()]);
  registerRemotes(manifest.remotes.map(toRuntimeRemote));
}

/** Whether a route path (/dashboard, /circuit-breakers/:id) matches the page's path, as the router matches them. */
function matches(route: string, pathname: string): boolean {
  const want = route.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  return (
    want.length === have.length &&
    want.every((segment, index) => segment.startsWith(':') || segment.toLowerCase() === have[index]?.toLowerCase())
  );
}

/** The remote that renders a page, by the routes /remotes.json lists; undefined for a page no remote owns. */
export function remoteAt(manifest: RemotesManifest, pathname: string): RemoteDescriptor | undefined {
  return manifest.remotes.find((remote) => remote.routes.some((route) => matches(route, pathname)));
}

/**
 * Fetches the mf-manifest.json of the remote that renders the page, then its remoteEntry.js and its routes module's
 * chunks, while the shell's own code is still arriving: otherwise they are asked for only once the shell has rendered
 * (a chain of three round trips after it). The federation runtime keeps the manifest and the entry, and its later
 * load of the routes module finds the chunks in the browser's cache. A preload that fails costs nothing: the load
 * itself asks again and reports what went wrong.
 */
export function preloadRemoteAt(manifest: RemotesManifest, pathname: string) {
  const remote = remoteAt(manifest, pathname);
  if (!remote) return;
  preloadRemote([{ nameOrAlias: remote.name, exposes: [REMOTE_ROUTES_MODULE], resourceCategory: 'sync' }]).catch((error: unknown) =>
    console.warn(`[shell] ${remote.name} could not be preloaded`, error),
  );
}
