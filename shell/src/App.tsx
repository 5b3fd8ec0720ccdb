import { lazy, Suspense, useRef } from 'react';
import { BrowserRouter, matchPath, useLocation, useNavigate } from '@cbh/router';
import type { AppStore } from '@cbh/api-client';
import type { AuthUser, RemotesManifest } from '@cbh/contracts';
import { FullScreenSpinner, GlobalStyle, Toaster } from '@cbh/ui';
import { ShellFrame } from './chrome/ShellFrame';
import { TopBar } from './chrome/TopBar';
import type { loadRemoteRoutes, resetRemote } from './federation/remotes';
import { NotFoundPage } from './routing/NotFoundPage';

export interface ShellProps {
  manifest: RemotesManifest;
  load?: typeof loadRemoteRoutes;
  reset?: typeof resetRemote;
}

/** The store, the api client and everything that reads them: fetched on first need. */
const ConnectedShell = lazy(() => import('./ConnectedShell'));

/**
 * The store is needed by every remote's route and by every signed-in page; a visitor who is signed out on a page no
 * remote owns (the not-found page) is shown it without: RTK and the api client are about a fifth of the shell's
 * JavaScript. Once loaded, the store stays.
 */
function ShellWhenNeeded({ session, store, ...props }: ShellProps & { session?: AuthUser | null; store?: AppStore }) {
  const { pathname } = useLocation();
  const connected = useRef(false);
  connected.current ||=
    session !== null || props.manifest.remotes.some((remote) => remote.routes.some((path) => matchPath(path, pathname)));
  if (!connected.current) {
    return (
      <ShellFrame topBar={<TopBar user={null} />}>
        <NotFoundPage />
      </ShellFrame>
    );
  }
  return (
    <Suspense fallback={<FullScreenSpinner label="Loading the site" />}>
      <ConnectedShell session={session} store={store} {...props} />
    </Suspense>
  );
}

/** Toasts' links (a breaker that opened) navigate inside the site. */
function RoutedToaster() {
  return <Toaster onNavigate={useNavigate()} />;
}

/** `session` is what the session probe found (undefined: not asked, or no clear answer; the store asks then). */
export function App(props: ShellProps & { session?: AuthUser | null; store?: AppStore }) {
  return (
    <>
      <GlobalStyle />
      <BrowserRouter>
        <ShellWhenNeeded {...props} />
        <RoutedToaster />
      </BrowserRouter>
    </>
  );
}
