import type { AuthUser, RemotesManifest } from '@cbh/contracts';
import { fetchRemotesManifest, preloadRemoteAt, registerManifest } from './federation/remotes-manifest';
import { probeSession } from './session/probe-session';

/** What the page asks the server before its first render: the remotes, the page's remote, who is signed in. */
export interface FirstRequests {
  manifest: Promise<RemotesManifest>;
  session: Promise<AuthUser | null | undefined>;
}

let started: FirstRequests | undefined;

/**
 * Sends the page's first requests, once: called by the main chunk as soon as it runs, so that /remotes.json, the
 * session probe and the current route's remote travel while the shell's shared packages and its app code are still
 * being fetched and evaluated (they used to leave only after, some 150 ms later); the app takes the same answers.
 * A /remotes.json that cannot be loaded leaves the site without remotes, each page saying so.
 */
export function startFirstRequests(pathname: string = window.location.pathname): FirstRequests {
  started ??= {
    manifest: fetchRemotesManifest().then(
      (manifest) => {
        registerManifest(manifest);
        preloadRemoteAt(manifest, pathname);
        return manifest;
      },
      (error: unknown) => {
        console.error('[shell] /remotes.json could not be loaded', error);
        const none: RemotesManifest = { remotes: [] };
        registerManifest(none);
        return none;
      },
    ),
    session: probeSession(),
  };
  return started;
}
