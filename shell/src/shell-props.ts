import type { AppStore } from '@cbh/api-client';
import type { AuthUser, RemotesManifest } from '@cbh/contracts';
import type { loadRemoteRoutes, resetRemote } from './federation/remotes';

/*
 * The shell's props, apart from App and ConnectedShell: App loads ConnectedShell on first need and ConnectedShell
 * takes the props App was given, so both name them from here rather than from each other.
 */

export interface ShellProps {
  manifest: RemotesManifest;
  load?: typeof loadRemoteRoutes;
  reset?: typeof resetRemote;
}

/** `session` is what the session probe found (undefined: not asked, or no clear answer; the store asks then). */
export type ShellEntryProps = ShellProps & { session?: AuthUser | null; store?: AppStore };
