import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';
import {
  REMOTE_LOAD_TIMEOUT_MS,
  REMOTE_ROUTES_MODULE,
  remotesManifestSchema,
  type RemoteDescriptor,
  type RemotesManifest,
} from '@cbh/contracts';
import { RemoteTimeoutError } from './remote-errors';

export async function fetchRemotesManifest(): Promise<RemotesManifest> {
  const response = await fetch('/remotes.json', { cache: 'no-cache' });
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  return remotesManifestSchema.parse(await response.json());
}

function toRuntimeRemote(remote: RemoteDescriptor) {
  return { name: remote.name, entry: new URL(remote.entry, window.location.origin).href };
}

export function registerManifest(manifest: RemotesManifest) {
  registerRemotes(manifest.remotes.map(toRuntimeRemote));
}

/** Forgets a failed remote so the next load fetches its manifest and entry again. */
export function resetRemote(remote: RemoteDescriptor) {
  registerRemotes([toRuntimeRemote(remote)], { force: true });
}

export function withTimeout<T>(promise: Promise<T>, timeoutMs: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export type RoutesModule = { default: ComponentType };

/** Loads the routes component a remote exposes, giving up after REMOTE_LOAD_TIMEOUT_MS. */
export function loadRemoteRoutes(remote: RemoteDescriptor): Promise<RoutesModule> {
  const id = `${remote.name}/${REMOTE_ROUTES_MODULE}`;
  return withTimeout(
    loadRemote<RoutesModule>(id).then((module) => {
      if (!module?.default) throw new Error(`${id} has no default export`);
      return module;
    }),
    REMOTE_LOAD_TIMEOUT_MS,
    () => new RemoteTimeoutError(remote.name, REMOTE_LOAD_TIMEOUT_MS),
  );
}
