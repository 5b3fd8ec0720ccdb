import { matchPath } from '@cbh/router';
import { ROUTE_TABLE } from '@cbh/contracts';

type ConnectedModule = typeof import('./ConnectedShell');
/** The store, the api client and everything that reads them, once fetched (see ShellWhenNeeded in App). */
let connectedModule: ConnectedModule | undefined;

/** The store's module if it has arrived already. */
export const loadedConnectedShell = (): ConnectedModule | undefined => connectedModule;

export const loadConnectedShell = () => import('./ConnectedShell').then((module) => (connectedModule = module));

/** Whether the path is one of these route paths (patterns such as /circuit-breakers/:id). */
export const isOneOf = (pathname: string, paths: readonly string[]) => paths.some((path) => matchPath(path, pathname));

/**
 * Starts fetching the store's code at once when the page is one of the route table's (all of them a remote's), so
 * that it arrives alongside /remotes.json and the session probe instead of after them. Apart from App, so that the
 * page asks for it before App's own modules are evaluated.
 */
export function preloadStoreFor(pathname: string) {
  if (
    isOneOf(
      pathname,
      ROUTE_TABLE.map((route) => route.path),
    )
  )
    void loadConnectedShell().catch(() => undefined);
}
