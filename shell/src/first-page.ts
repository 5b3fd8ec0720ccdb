import type { AuthUser, RemoteDescriptor, RemotesManifest } from '@cbh/contracts';
import { loadRemoteEarly } from './federation/remotes';
import { remoteAt } from './federation/remotes-manifest';
import { returnPathAfterSignIn } from './session/return-path';
import { signInPageFor } from './session/sign-in-routes';

/**
 * The remote whose page the shell shows first at `pathname`, as App's ShellWhenNeeded decides it: none when the
 * visitor is asked to sign in, is sent on to the page they asked for before signing in, or the session is not known
 * (the probe failed: the shell asks again before it shows anything).
 */
export function firstRemoteShown(
  manifest: RemotesManifest,
  session: AuthUser | null | undefined,
  pathname: string,
): RemoteDescriptor | undefined {
  if (session === undefined || signInPageFor(session, pathname) || returnPathAfterSignIn(session, pathname)) return undefined;
  return remoteAt(manifest, pathname);
}

/** Starts loading the remote of the page the shell shows first, if a remote's (see loadRemoteEarly). */
export function loadFirstPageRemote(manifest: RemotesManifest, session: AuthUser | null | undefined, pathname: string) {
  const remote = firstRemoteShown(manifest, session, pathname);
  if (remote) loadRemoteEarly(remote);
}
