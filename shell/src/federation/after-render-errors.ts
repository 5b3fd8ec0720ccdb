import { reportLoad } from './load-reports';
import { loadedEntryOf, remoteOfScript } from './remotes';

/** The remote builds this page reported an error after render of already: one report each, however often it throws. */
const reported = new Set<string>();

const messageOf = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * Reports an error a remote's own code threw after it rendered — against the build it was loaded from, so that a
 * canary whose code breaks once on screen is judged by its SLOs like one that fails to load. Once per build per page.
 */
export function reportErrorAfterRender(remote: string, error: unknown) {
  const entry = loadedEntryOf(remote);
  if (!entry || reported.has(`${remote} ${entry}`)) return;
  reported.add(`${remote} ${entry}`);
  reportLoad({ remote, entry, ok: false, afterRender: true, reason: messageOf(error) });
}

/** The first script address in an error's stack: where a rejection that nothing caught was thrown. */
const scriptOf = (error: unknown) => (error instanceof Error ? /https?:\/\/[^\s)]+?\.m?js/.exec(error.stack ?? '')?.[0] : undefined);

/**
 * Errors no boundary sees — thrown in a remote's timers, handlers or promises — reach the window: those thrown from a
 * remote's files (ErrorEvent.filename, or the rejection's stack) are that remote's errors after render.
 */
export function listenForRemoteErrors(target: Window) {
  target.addEventListener('error', (event: ErrorEvent) => {
    const remote = event.filename ? remoteOfScript(event.filename) : null;
    if (remote) reportErrorAfterRender(remote, event.error ?? event.message);
  });
  target.addEventListener('unhandledrejection', (event: PromiseRejectionEvent) => {
    const script = scriptOf(event.reason);
    const remote = script ? remoteOfScript(script) : null;
    if (remote) reportErrorAfterRender(remote, event.reason);
  });
}

if (typeof window !== 'undefined') listenForRemoteErrors(window);
