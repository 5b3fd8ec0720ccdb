import { startTransition, useEffect, useRef, useState } from 'react';
import { BrowserRouter, Navigate, useLocation, useNavigate } from '@cbh/router';
import { Button, Card, FullScreenSpinner, GlobalStyle, Muted, Toaster } from '@cbh/ui';
import { ShellFrame } from './chrome/ShellFrame';
import { TopBar } from './chrome/TopBar';
import { NotFoundPage } from './routing/NotFoundPage';
import { forgetReturnPath, returnPathAfterSignIn } from './session/return-path';
import { ProbedSession } from './session/session-context';
import { redirectsToSignIn, signInPageFor } from './session/sign-in-routes';
import { SignInRedirect, SignInRequired } from './session/SignInRequired';
import type { ShellEntryProps } from './shell-props';
import { isOneOf, loadConnectedShell, loadedConnectedShell } from './store-loader';

type ConnectedModule = typeof import('./ConnectedShell');

/**
 * The store is needed by every remote's route and by every signed-in page; a visitor who is signed out on a page no
 * remote owns (the not-found page) is shown it without: RTK and the api client are about a fifth of the shell's
 * JavaScript. Once loaded, the store stays. Its code is awaited here rather than through React.lazy: under a
 * Suspense boundary around the whole site, the site was mounted anew while its parts waited for code on their first
 * render (the learning page fetched its remote's manifest four times and painted 250 ms later).
 */
function ShellWhenNeeded({ session, store, ...props }: ShellEntryProps) {
  const { pathname } = useLocation();
  const [loaded, setLoaded] = useState<ConnectedModule | 'failed' | undefined>(loadedConnectedShell);
  // signed out on a page for signed-in people: asked to sign in, before any of the page's code or calls
  const signInFor = signInPageFor(session, pathname);
  // just signed in (the sign-in pages always land on /): on to the page the visitor had asked for
  const [back, setBack] = useState(() => returnPathAfterSignIn(session, pathname));
  const connected = useRef(false);
  connected.current ||=
    session !== null ||
    (!signInFor &&
      isOneOf(
        pathname,
        props.manifest.remotes.flatMap((remote) => remote.routes),
      ));
  const needed = connected.current;
  useEffect(() => {
    // in a transition: the whole site renders then, in slices that yield to the browser rather than in one long task
    if (needed && loaded === undefined)
      loadConnectedShell().then(
        (module) => startTransition(() => setLoaded(module)),
        () => setLoaded('failed'),
      );
  }, [needed, loaded]);
  useEffect(() => {
    if (back === null) return;
    forgetReturnPath();
    setBack(null);
  }, [back]);

  if (back) return <Navigate replace to={back} />;
  if (signInFor) {
    return redirectsToSignIn(signInFor) ? (
      <SignInRedirect />
    ) : (
      <ShellFrame topBar={<TopBar user={null} />}>
        <SignInRequired route={signInFor} />
      </ShellFrame>
    );
  }
  if (!needed) {
    return (
      <ShellFrame topBar={<TopBar user={null} />}>
        <NotFoundPage />
      </ShellFrame>
    );
  }
  if (loaded === 'failed') {
    return (
      <ShellFrame topBar={<TopBar user={null} />}>
        <Card role="alert">
          <h1>The site could not be loaded</h1>
          <Muted>Check your connection, then reload the page.</Muted>
          <Button type="button" onClick={() => window.location.reload()}>
            Reload
          </Button>
        </Card>
      </ShellFrame>
    );
  }
  if (!loaded) return <FullScreenSpinner label="Loading the site" />;
  const { default: ConnectedShell } = loaded;
  return <ConnectedShell session={session} store={store} {...props} />;
}

/** Toasts' links (a breaker that opened) navigate inside the site. */
function RoutedToaster() {
  return <Toaster onNavigate={useNavigate()} />;
}

export function App(props: ShellEntryProps) {
  return (
    <>
      <GlobalStyle />
      <BrowserRouter>
        <ProbedSession.Provider value={props.session}>
          <ShellWhenNeeded {...props} />
        </ProbedSession.Provider>
        <RoutedToaster />
      </BrowserRouter>
    </>
  );
}
