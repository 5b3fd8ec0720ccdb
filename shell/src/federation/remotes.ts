import { getInstance, loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';
import { REMOTE_LOAD_TIMEOUT_MS, REMOTE_ROUTES_MODULE, type RemoteDescriptor } from '@cbh/contracts';
import { reportLoad } from './load-reports';
import { isRedeployed } from './remote-builds';
import { RemoteTimeoutError } from './remote-errors';
import { fetchRemotesManifest, toRuntimeRemote } from './remotes-manifest';

export { fetchRemotesManifest, registerManifest } from './remotes-manifest';

/** The entry each remote was registered with last: /remotes.json's at start, then each release's it moved to. */
const registeredEntries = new Map<string, string>();

/**
 * The entry of each remote's build whose latest load on this page succeeded: what its errors after render are
 * reported against. A build that is still loading, or failed to, has none — an error while it loads is its load's.
 */
const loadedEntries = new Map<string, string>();

/** The entry of the remote's build that loaded on this page, if its latest load did. */
export const loadedEntryOf = (remote: string): string | undefined => loadedEntries.get(remote);

/**
 * The remote a script of this page belongs to, by its address: the one whose loaded build's folder holds it (a
 * release's /releases/<remote>/<version>/ or the deployed /remotes/<remote>/); null for the shell's own, others',
 * and a build that has not loaded.
 */
export function remoteOfScript(url: string): string | null {
  let path: string;
  try {
    path = new URL(url, window.location.origin).pathname;
  } catch {
    return null;
  }
  for (const [remote, entry] of loadedEntries) {
    const folder = new URL(entry, window.location.origin).pathname.replace(/[^/]*$/, '');
    if (folder.length > 1 && path.startsWith(folder)) return remote;
  }
  return null;
}

/**
 * A remote's webpack runtime keeps the chunks it installed in a global array named after the remote (its
 * output.uniqueName, set in tools/webpack/federated-app.cjs). The entry of a new build adopts that array and
 * takes the old build's chunks for installed: it would not fetch its own exposed chunk and would run, or
 * fail on, the old build's modules (module-federation/core#4045). So the array goes with the old build.
 */
function forgetLoadedChunks(remote: RemoteDescriptor) {
  Reflect.deleteProperty(window, `webpackChunk${remote.name}`);
}

/**
 * A remote registers every package it shares when its entry runs, and the first registration of a version is the
 * one every app gets it from. A registration nobody has loaded yet would be fetched from the remote's old build,
 * whose files a redeploy removes: so the old build's unloaded registrations go, and the next app to need the
 * package provides it (a loaded one stays: its code is in memory and in use).
 */
function forgetUnloadedShares(registeredBy: (from: string) => boolean) {
  const scopes = getInstance()?.shareScopeMap ?? {};
  for (const packages of Object.values(scopes)) {
    for (const versions of Object.values(packages)) {
      for (const [version, shared] of Object.entries(versions)) {
        if (registeredBy(shared.from) && !shared.loaded && !shared.loading && !shared.lib) delete versions[version];
      }
    }
  }
}

/**
 * Each time the user enters a remote's routes, the other remotes' registrations nobody has loaded go: any of them may
 * have been redeployed since it registered (its files gone), and the shell learns of a redeploy only when the user
 * returns to that remote's routes. A remote that needs a package whose registration went takes its own build's copy
 * (and registers it); what is loaded stays shared. Not only at a remote's first load: a remote entered again may need
 * a package for the first time that another remote registered meanwhile.
 */
function forgetOthersUnloadedShares(remote: RemoteDescriptor) {
  const host = getInstance()?.options?.name;
  forgetUnloadedShares((from) => from !== remote.name && from !== host);
}

/**
 * Forgets a remote's loaded or failed build, so the next load fetches its manifest, entry and chunks again — from the
 * entry the remote has now (a release's, once it moved to one).
 */
export function resetRemote(remote: RemoteDescriptor) {
  registerRemotes([toRuntimeRemote({ ...remote, entry: registeredEntries.get(remote.name) ?? remote.entry })], { force: true });
  forgetLoadedChunks(remote);
  forgetUnloadedShares((from) => from === remote.name);
}

export function withTimeout<T>(promise: Promise<T>, timeoutMs: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A remote's routes module; `unavailable` when the fallback plugin stands in for a remote that could not load. */
export type RoutesModule = { default: ComponentType; unavailable?: Error };

/**
 * The entry /remotes.json names for a remote now (a release promoted, rolled back or a canary since the page
 * loaded), or the one registered when the server cannot tell.
 */
async function currentEntry(remote: RemoteDescriptor): Promise<string> {
  const registered = registeredEntries.get(remote.name) ?? remote.entry;
  try {
    const manifest = await fetchRemotesManifest();
    return manifest.remotes.find((listed) => listed.name === remote.name)?.entry ?? registered;
  } catch {
    return registered;
  }
}

/**
 * The remote's routes component from the build the visitor gets now: on a return to the remote's routes, a release
 * made since (another entry in /remotes.json) or a redeploy of the same entry replaces the loaded build — at a
 * navigation, never in the middle of a page.
 */
async function loadDeployedRoutes(remote: RemoteDescriptor): Promise<{ module: RoutesModule; entry: string }> {
  const loadedBefore = registeredEntries.has(remote.name);
  let entry = registeredEntries.get(remote.name) ?? remote.entry;
  if (loadedBefore) {
    const now = await currentEntry(remote);
    if (now !== entry) {
      entry = now;
      registeredEntries.set(remote.name, entry);
      resetRemote(remote);
    } else if (await isRedeployed(remote.name, toRuntimeRemote({ ...remote, entry }).entry)) resetRemote(remote);
  }
  forgetOthersUnloadedShares(remote);
  registeredEntries.set(remote.name, entry);
  const id = `${remote.name}/${REMOTE_ROUTES_MODULE}`;
  const module = await loadRemote<RoutesModule>(id);
  if (!module?.default) throw new Error(`${id} has no default export`);
  return { module, entry };
}

/** The load loadRemoteEarly started, until the next loadRemoteRoutes takes it (its remote's) or drops it (another's). */
let early: { remote: string; loading: Promise<RoutesModule> } | undefined;

/**
 * Starts loading the remote of the page the shell is about to show, before the shell renders: the remote's view starts
 * its load only once it is committed, some 200 ms of the shell's first render later on a cold start, and the page's
 * own code and requests wait behind it. The view's first load then takes this one, so the load is made (and reported)
 * once. Only for the page the shell will show: a load nobody takes is still a load the release figures count.
 */
export function loadRemoteEarly(remote: RemoteDescriptor) {
  const loading = loadRemoteRoutes(remote);
  // a failure is the view's to show when it takes the load
  loading.catch(() => undefined);
  early = { remote: remote.name, loading };
}

/**
 * Loads the routes component a remote exposes, giving up after REMOTE_LOAD_TIMEOUT_MS. Called each time the
 * user enters the remote's routes, so a remote redeployed since it was loaded shows its new build then,
 * without a page reload.
 */
export async function loadRemoteRoutes(remote: RemoteDescriptor): Promise<RoutesModule> {
  const taken = early;
  early = undefined;
  if (taken?.remote === remote.name) return taken.loading;
  const started = performance.now();
  try {
    const { module, entry } = await withTimeout(
      loadDeployedRoutes(remote),
      REMOTE_LOAD_TIMEOUT_MS,
      () => new RemoteTimeoutError(remote.name, REMOTE_LOAD_TIMEOUT_MS),
    );
    if (module.unavailable) {
      loadedEntries.delete(remote.name);
      reportLoad({ remote: remote.name, entry, ok: false, reason: module.unavailable.message });
    } else {
      loadedEntries.set(remote.name, entry);
      reportLoad({ remote: remote.name, entry, ok: true, loadMs: Math.round(performance.now() - started) });
    }
    return module;
  } catch (error) {
    loadedEntries.delete(remote.name);
    const entry = registeredEntries.get(remote.name) ?? remote.entry;
    reportLoad({ remote: remote.name, entry, ok: false, reason: error instanceof Error ? error.message : String(error) });
    throw error;
  }
}
