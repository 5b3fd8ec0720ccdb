import { useMemo } from 'react';
import { Provider, useDispatch } from 'react-redux';
import { BrowserRouter, Route, Routes, useNavigate } from '@cbh/router';
import styled from 'styled-components';
import { createAppStore, useGetAuthUserQuery, useLiveConnection, type AppStore } from '@cbh/api-client';
import { hasPermission, type RemotesManifest } from '@cbh/contracts';
import { FullScreenSpinner, GlobalStyle, NARROW_SCREEN_PX, Toaster } from '@cbh/ui';
import { OpenBreakerToasts } from './chrome/OpenBreakerToasts';
import { Sidebar } from './chrome/Sidebar';
import { TopBar } from './chrome/TopBar';
import { loadRemoteRoutes, resetRemote } from './federation/remotes';
import { RemoteView } from './federation/RemoteView';
import { NotFoundPage } from './routing/NotFoundPage';

const Frame = styled.div`
  display: flex;
  flex-direction: column;
  height: 100%;
`;

const Body = styled.div`
  display: flex;
  flex: 1;
  min-height: 0;
`;

const Main = styled.main`
  flex: 1;
  overflow-y: auto;
  padding: 24px 32px;
  @media (max-width: ${NARROW_SCREEN_PX}px) {
    padding: 16px;
  }
`;

interface ShellProps {
  manifest: RemotesManifest;
  load?: typeof loadRemoteRoutes;
  reset?: typeof resetRemote;
}

function Shell({ manifest, load = loadRemoteRoutes, reset = resetRemote }: ShellProps) {
  const { data: user, isLoading } = useGetAuthUserQuery();
  const live = useLiveConnection(Boolean(user), useDispatch());
  if (isLoading) return <FullScreenSpinner label="Checking your session" />;

  return (
    <Frame>
      <TopBar user={user ?? null} live={live} />
      {user && hasPermission(user, 'circuit_breaker_operate') ? <OpenBreakerToasts email={user.email} /> : null}
      <Body>
        <Sidebar />
        <Main>
          <Routes>
            {manifest.remotes.flatMap((remote) =>
              remote.routes.map((path) => (
                <Route key={path} path={path} element={<RemoteView key={remote.name} remote={remote} load={load} reset={reset} />} />
              )),
            )}
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </Main>
      </Body>
    </Frame>
  );
}

/** Toasts' links (a breaker that opened) navigate inside the site. */
function RoutedToaster() {
  return <Toaster onNavigate={useNavigate()} />;
}

export function App({ store: givenStore, ...props }: ShellProps & { store?: AppStore }) {
  const store = useMemo(() => givenStore ?? createAppStore(), [givenStore]);
  return (
    <Provider store={store}>
      <GlobalStyle />
      <BrowserRouter>
        <Shell {...props} />
        <RoutedToaster />
      </BrowserRouter>
    </Provider>
  );
}
